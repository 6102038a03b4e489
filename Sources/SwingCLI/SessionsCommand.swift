import ArgumentParser
import Foundation
import SwingAudio
import SwingPipeline

/// `swingmaster sessions list | show ID | delete ID | export ID --json|--csv | edit ID …`
/// The database lives in `$SWINGMASTER_HOME/swingmaster.sqlite` (default `~/.swingmaster/`).
struct SessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List, show, delete and export analysed sessions.",
        subcommands: [List.self, Show.self, Delete.self, Export.self, Edit.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sessions, newest first: id, date, file, shots, consistency.")
        @OptionGroup var store: StoreOptions
        func run() async throws {
            let sessions = try await store.open().sessionSummaries()
            try Console.line(SessionsFormat.list(sessions), terminator: "")
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A session's summary and shot table.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "Session id (see `sessions list`).") var id: Int64
        func run() async throws {
            try Console.line(SessionTable.text(try await SessionsFormat.document(id, in: store.open())))
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a session and its shots, with what was drawn from it and its upload when nothing else uses it.",
            discussion: "As the web app deletes one: the pictures and videos drawn from the session and, for a video uploaded to the web app, the upload and its browser copy once no other session or job uses them. A video you analysed from your own folder is never removed.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "Session id (see `sessions list`).") var id: Int64
        @Option(help: "Where the web app keeps uploads, when `serve --media` put them elsewhere (default: the home's media folder).")
        var media: String?
        func run() async throws {
            let library = try await store.open(media: media.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? MediaLibrary.defaultDirectory())
            guard let video = try await library.video(ofSession: id) else { throw SessionsFormat.noSession(id) }
            try await library.deleteSession(video)
            try Console.line("Deleted session \(id).")
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Correct a session's contacts and re-measure it in place (docs/analysis.md, \"Editing a session\").",
            discussion: """
                The edits are applied in the order --remove-contact, --restore-contact, --add-contact and \
                stored together as the session's next version (none of them when one is refused). Removing or restoring poses nothing; adding poses only \
                that contact's swing window from the session's video. --undo takes back the last edit.
                """)
        @OptionGroup var store: StoreOptions
        @Argument(help: "Session id (see `sessions list`).") var id: Int64
        @Option(name: .customLong("add-contact"), help: "Add a contact the detector missed at this time, s (repeatable).")
        var add: [Double] = []
        @Option(name: .customLong("remove-contact"), help: "Remove the shot within 0.1 s of this time, s (repeatable).")
        var remove: [Double] = []
        @Option(name: .customLong("restore-contact"), help: "Make the rejected contact within 0.1 s of this time a shot again, s (repeatable).")
        var restore: [Double] = []
        @Flag(help: "Take back the session's last edit.") var undo = false
        @Option(name: .customLong("sensitivity"),
                help: "Listen to the session's sound again: fewer | normal | more hits (your edits are kept where they still name a contact).")
        var sensitivity: ContactSensitivity?
        @Option(name: .customLong("threshold-factor"), help: "With --sensitivity: peak threshold × noise floor, 1–20 (experts).")
        var thresholdFactor: Double?
        @Option(name: .customLong("min-relative-amplitude"), help: "With --sensitivity: a hit's minimum amplitude relative to the loud ones, 0–1 (experts).")
        var minRelativeAmplitude: Double?
        @Option(name: .customLong("contact-model"), help: ArgumentHelp(
            "Listen to the session's sound again with a contact model learnt by learn-contacts (your edits are kept where they still name a contact).",
            valueName: "MODEL.json"))
        var contactModel: String?
        @Option(name: .customLong("player"), help: ArgumentHelp(
            "Measure another person: where the player is in the picture, fractions across and down from the top-left, and the moment they are there (e.g. 0.3,0.7@4.6). Every shot's window is posed again following them.",
            valueName: "x,y[@seconds]"))
        var player: PlayerPointArgument?
        @Option(name: .customLong("video"), help: "Where the session's video is now, when it moved (needed to add a contact or name another player).")
        var video: String?

        func validate() throws {
            if (thresholdFactor != nil || minRelativeAmplitude != nil) && sensitivity == nil {
                throw ValidationError("--threshold-factor and --min-relative-amplitude go with --sensitivity.")
            }
            try player?.validate()
            let edits = !(add.isEmpty && remove.isEmpty && restore.isEmpty)
            guard [undo, edits, sensitivity != nil, contactModel != nil, player != nil].filter({ $0 }).count == 1 else {
                throw ValidationError("Give --undo alone, --sensitivity alone, --contact-model alone, --player alone, or at least one of --add-contact, --remove-contact, --restore-contact.")
            }
            for t in add + remove + restore where !t.isFinite {
                throw ValidationError("Contact times must be finite numbers of seconds.")
            }
        }

        func run() async throws {
            let db = try await store.open()
            var changes: [SessionEditor.Change] = []
            if undo { changes = [.undo] } else if let player { changes = [.player(player.mark)] } else if let sensitivity {
                changes = [.redetect(sensitivity, .init(peakThresholdFactor: thresholdFactor, minRelativeAmplitude: minRelativeAmplitude))]
            } else if let contactModel {
                changes = [.hear(try ContactModel.read(from: contactModel))]
            } else {
                let edits: [ContactEdit] = remove.map { ContactEdit(action: .remove, time: $0) }
                    + restore.map { ContactEdit(action: .restore, time: $0) } + add.map { ContactEdit(action: .add, time: $0) }
                changes = edits.map { .edit($0) }
            }
            _ = try await db.edit(session: id, changes, mediaPath: video)
            try Console.line(SessionTable.text(try await SessionsFormat.document(id, in: db)))
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a session as JSON (analyze --json shape) or CSV (one row per shot), or write its pose for OpenSim (--trc, --mot).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "Session id (see `sessions list`).") var id: Int64
        @Flag(help: "JSON output.") var json = false
        @Flag(help: "CSV output.") var csv = false
        @Option(help: ArgumentHelp("Write the 3D landmarks of every posed frame to this OpenSim marker file (.trc).", valueName: "OUT.trc"))
        var trc: String?
        @Option(help: ArgumentHelp("Write the body's angles over time to this OpenSim motion file (.mot).", valueName: "OUT.mot"))
        var mot: String?
        @Option(help: ArgumentHelp("With --trc/--mot: only this shot's swing (its number in `sessions show`), not the whole session.",
                                   valueName: "N"))
        var shot: Int?
        @Option(help: ArgumentHelp("Write the session's highlights: each shot's swing, rallies kept whole, a chapter at every shot (MP4).",
                                   valueName: "OUT.mp4"))
        var highlights: String?
        @Flag(name: .customLong("highlights-skeleton"), help: "Draw the skeleton and the wrist's arc on the highlights.")
        var highlightsSkeleton = false
        @Option(help: "Where the session's video is now, when it moved (for --highlights).")
        var video: String?

        func validate() throws {
            guard !(json && csv) else { throw ValidationError("Choose one of --json or --csv.") }
            guard json || csv || trc != nil || mot != nil || highlights != nil else {
                throw ValidationError("Choose what to export: --json, --csv, --trc OUT.trc, --mot OUT.mot or --highlights OUT.mp4.")
            }
            if let shot {
                guard trc != nil || mot != nil else { throw ValidationError("--shot chooses the swing for --trc or --mot; give one of them.") }
                guard shot >= 1 else { throw ValidationError("--shot is a shot's number, from 1 (see `swingmaster sessions show \(id)`).") }
            }
            try OutputFile.refuseInputs(outputs, inputs: [video].compactMap { $0 })
        }

        /// Every file this export writes.
        var outputs: [OutputFile.Request] { [("--trc", trc), ("--mot", mot), ("--highlights", highlights)] }

        func run() async throws {
            try OutputFile.checkWritable(outputs)
            let address = try store.address()
            let db = try await address.open()
            let document = try await SessionsFormat.document(id, in: db)
            // No output may be the session's video (where it was analysed, or --video) nor the database itself.
            var inputs = [video].compactMap { $0 }
            if let stored = try await db.video(ofSession: id) { inputs.append(stored.path) }
            if let file = address.sqliteFile { inputs.append(file) }
            try OutputFile.refuseInputs(outputs, inputs: inputs)
            for (format, path) in [(OpenSimFormat.trc, trc), (.mot, mot)] {
                guard let path else { continue }
                let name = URL(fileURLWithPath: path).lastPathComponent
                guard let text = try await db.openSim(format, id: id, shot: shot, name: name) else { throw SessionsFormat.noSession(id) }
                try Console.write(Data(text.utf8), to: path)
            }
            if let highlights {
                let reel = try await OutputFile.write(highlights) { temporary in
                    try await db.writeHighlights(session: id, source: video, to: temporary, overlay: highlightsSkeleton)
                }
                if let reel, !json, !csv {
                    try Console.line("Highlights of session \(id): \(reel.chapters.count) shot\(reel.chapters.count == 1 ? "" : "s") in \(reel.clips.count) clip\(reel.clips.count == 1 ? "" : "s"), "
                                     + String(format: "%.1f s", reel.seconds) + " → \(highlights)")
                }
            }
            if json {
                try Console.write(try await db.documentJSON(id: id) ?? document.jsonData(), to: "-")
            } else if csv {
                try Console.line(document.csv(), terminator: "")
            }
        }
    }
}

/// Text, JSON and CSV renderings of stored sessions.
enum SessionsFormat {
    static func document(_ id: Int64, in db: MediaLibrary) async throws -> SessionDocument {
        guard let document = try await db.document(id: id) else { throw noSession(id) }
        return document
    }

    /// There is no session `id` (exit 41).
    static func noSession(_ id: Int64) -> RequestError {
        RequestError(.notFound, "There is no session with id \(id) (see `swingmaster sessions list`).")
    }

    static func date(_ d: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return f.string(from: d)
    }

    static func list(_ sessions: [SessionSummary]) -> String {
        guard !sessions.isEmpty else { return "No sessions yet. Analyse a video with `swingmaster analyze VIDEO`.\n" }
        let width = max(4, sessions.map(\.file.count).max() ?? 4)
        func padRight(_ s: String) -> String { s + String(repeating: " ", count: max(0, width - s.count)) }
        var out = "   ID  Date              " + padRight("File") + "  Shots  Consistency\n"
        for s in sessions {
            out += ShotTable.pad("\(s.id)", 5) + "  " + date(s.createdAt) + "  " + padRight(s.file)
                + ShotTable.pad("\(s.shots)", 7) + ShotTable.pad(s.consistency.map { ShotTable.fmt($0, 1) } ?? "-", 13) + "\n"
        }
        return out
    }
}
