import ArgumentParser
import Foundation
import SwingAudio
import SwingBiomech
import SwingCore
import SwingMedia
import SwingPipeline

/// `swingmaster learn-contacts RECORDING… --contacts JSON… --out MODEL` — learns what the player's hits
/// sound like through their phone from contacts they confirmed (docs/contacts.md, "Learning the player's
/// own racket"); `contacts --contact-model MODEL` then finds them in the next session.
struct LearnContactsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn-contacts",
        abstract: "Learn a contact model from recordings and the contacts confirmed in them.",
        discussion: """
        Learn from stored sessions whose contacts you corrected (--session ID: on the results page, add the \
        hits it missed and remove what was not a hit), or give each recording its confirmed contacts in the \
        `contacts --json` shape ({"contacts": [{"time": …}, …]}, times in seconds from the start of the file). \
        At least 10 contacts in all; the model knows only the rackets, balls and phones it heard, so learn one \
        per player and phone. Use it with `contacts --contact-model` and `analyze --contact-model`; --keep NAME \
        keeps it in the store as a racket sound instead of (or beside) a file: the web app's upload page offers \
        it, and `analyze --racket-sound ID` hears with it. --list shows the racket sounds kept.
        """
    )

    @Argument(help: "Video or audio files, each with its --contacts file in the same order.")
    var recordings: [String] = []

    @Option(name: .customLong("contacts"), help: "A confirmed-contacts JSON file per recording, in order.")
    var contacts: [String] = []

    @Option(name: .customLong("session"), help: "A stored session to learn from, with the contacts as you left them (repeatable).")
    var sessions: [Int64] = []

    @Option(name: .customLong("out"), help: "Where to write the model (JSON).")
    var out: String?

    @Option(name: .customLong("keep"), help: ArgumentHelp("Keep the model in the store as a racket sound with this name (the web app offers it; analyze --racket-sound uses it).",
                                                          valueName: "NAME"))
    var keep: String?

    @Flag(name: .customLong("list"), help: "List the racket sounds kept in the store, and learn nothing.")
    var list = false

    @OptionGroup var range: MediaRangeOptions
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if list {
            guard recordings.isEmpty, sessions.isEmpty, contacts.isEmpty, out == nil, keep == nil else {
                throw ValidationError("--list lists the racket sounds kept and learns nothing: give it alone (with --database at most).")
            }
            return
        }
        guard out != nil || keep != nil else { throw ValidationError("Give --out FILE to write the model, --keep NAME to keep it in the store, or both.") }
        if let keep, keep.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters)).isEmpty {
            throw ValidationError("--keep needs a name to show the racket sound by.")
        }
        guard !recordings.isEmpty || !sessions.isEmpty else {
            throw ValidationError("Give at least one recording with its --contacts, or a --session.")
        }
        guard contacts.count == recordings.count else {
            throw ValidationError("Give one --contacts file per recording: \(recordings.count) recording(s), \(contacts.count) --contacts.")
        }
        guard out != "-" else { throw ValidationError("--out needs a file name; the model is not printed.") }
        if let out { try OutputFile.refuseInputs([("--out", out)], inputs: recordings + contacts) }
    }

    func run() async throws {
        if list { return try await listKept() }
        if let out { try OutputFile.checkWritable([("--out", out)]) }
        var learnFrom: [ContactModel.Recording] = []
        for (path, contactsPath) in zip(recordings, contacts) {
            let confirmed = try MeasureIO.decodeContacts(try CLIError.read(contactsPath)).map(\.time)
            learnFrom.append(try ContactModel.Recording.of(media: path, range: range.range, limits: range.limits, contacts: confirmed))
        }
        if !sessions.isEmpty {
            let db = try await storeOptions.open()
            for id in sessions {
                let stored = try await db.confirmedContacts(session: id)
                if !stored.edited {
                    Console.warn("warning: Session \(id) was never corrected, so the model learns its contacts as the detector heard them, misses and all; check them on its results page first.")
                }
                learnFrom.append(try ContactModel.Recording.of(media: stored.path, range: stored.range, limits: range.limits, contacts: stored.times))
            }
        }
        let model = try ContactModel.train(learnFrom, progress: ProgressBar.stagedHandler())
        if let out {
            let data = try model.data()
            try await OutputFile.write(out) { temporary in
                do { try data.write(to: URL(fileURLWithPath: temporary)) } catch {
                    throw CLIError.cannotWrite(out, flag: "--out", error.localizedDescription)
                }
            }
        }
        let t = model.trainedOn
        try Console.line("\(out ?? "The model"): learnt from \(t.contacts) confirmed contacts (\(t.contactsHeard) with a sound near them) among \(t.events) sounds in \(t.recordings) recording(s), \(String(format: "%.0f", t.seconds)) s; F1 \(String(format: "%.3f", t.f1)) on them, threshold \(String(format: "%.2f", model.threshold)).")
        if let keep {
            let kept = try await storeOptions.open().keep(model, as: keep, session: sessions.first)
            try Console.line("Kept as racket sound \(kept.id), \"\(kept.name)\": the web app's upload page offers it, and `swingmaster analyze VIDEO --racket-sound \(kept.id)` hears with it.")
        }
    }

    /// `--list`: the racket sounds kept, newest first, one line each.
    private func listKept() async throws {
        let sounds = try await storeOptions.open().racketSounds()
        guard !sounds.isEmpty else {
            return try Console.line("No racket sound is kept yet: learn one on a session's results page, or with learn-contacts --session ID --keep NAME.")
        }
        let dates = ISO8601DateFormatter()
        dates.formatOptions = [.withFullDate]
        for s in sounds {
            try Console.line("\(s.id)  \(s.name)  (\(s.contacts) hits, F1 \(String(format: "%.2f", s.f1)), learnt \(dates.string(from: s.createdAt))\(s.sessionId.map { " from session \($0)" } ?? ""))")
        }
    }
}
