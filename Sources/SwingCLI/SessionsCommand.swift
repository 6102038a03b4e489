import ArgumentParser
import Foundation
import SwingStore

/// `swingmaster sessions list | show ID | delete ID | export ID --json|--csv`
/// The database lives in `$SWINGMASTER_HOME/swingmaster.sqlite` (default `~/.swingmaster/`).
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List, show, delete and export analysed sessions.",
        subcommands: [List.self, Show.self, Delete.self, Export.self],
        defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sessions, newest first: id, date, file, shots, consistency.")
        func run() throws {
            let sessions = try AppDatabase.open().sessions()
            print(SessionsFormat.list(sessions), terminator: "")
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A session's summary and shot table.")
        @Argument(help: "Session id (see `sessions list`).") var id: Int64
        func run() throws {
            print(SessionsFormat.show(try SessionsFormat.detail(id)), terminator: "")
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a session and its shots.")
        @Argument(help: "Session id (see `sessions list`).") var id: Int64
        func run() throws {
            try AppDatabase.open().deleteSession(id: id)
            print("Deleted session \(id).")
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a session as JSON (analyze --json shape) or CSV (one row per shot).")
        @Argument(help: "Session id (see `sessions list`).") var id: Int64
        @Flag(help: "JSON output.") var json = false
        @Flag(help: "CSV output.") var csv = false

        func validate() throws {
            guard json != csv else { throw ValidationError("Choose exactly one of --json or --csv.") }
        }

        func run() throws {
            let detail = try SessionsFormat.detail(id)
            if json {
                FileHandle.standardOutput.write(try SessionsFormat.json(detail))
                FileHandle.standardOutput.write(Data("\n".utf8))
            } else {
                print(SessionsFormat.csv(detail), terminator: "")
            }
        }
    }
}

/// Text, JSON and CSV renderings of stored sessions.
enum SessionsFormat {
    static func detail(_ id: Int64) throws -> SessionDetail {
        guard let detail = try AppDatabase.open().session(id: id) else {
            throw StoreError.notFound("There is no session with id \(id) (see `swingmaster sessions list`).")
        }
        return detail
    }

    static func date(_ d: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return f.string(from: d)
    }

    static func list(_ sessions: [SessionRecord]) -> String {
        guard !sessions.isEmpty else { return "No sessions yet. Analyse a video with `swingmaster analyze VIDEO`.\n" }
        let width = max(4, sessions.map(\.fileName.count).max() ?? 4)
        func padRight(_ s: String) -> String { s + String(repeating: " ", count: max(0, width - s.count)) }
        var out = "   ID  Date              " + padRight("File") + "  Shots  Consistency\n"
        for s in sessions {
            out += ShotTable.pad("\(s.id)", 5) + "  " + date(s.createdAt) + "  " + padRight(s.fileName)
                + ShotTable.pad("\(s.shotCount)", 7) + ShotTable.pad(s.consistency.map { ShotTable.fmt($0, 1) } ?? "-", 13) + "\n"
        }
        return out
    }

    static func show(_ d: SessionDetail) -> String {
        let s = d.session
        var out = "Session \(s.id): \(s.fileName)  (\(date(s.createdAt)), \(ShotTable.fmt(s.durationSeconds, 1)) s at "
            + "\(ShotTable.fmt(s.fps, 0)) fps, \(s.hand.rawValue)-handed)\n"
        out += "Shots: \(s.shotCount)   Consistency: \(s.consistency.map { ShotTable.fmt($0, 1) } ?? "-")\n\n"
        out += "Shot   Time s  Conf  Forward  Lateral  Height   Speed cm/s  Class\n"
        for shot in d.shots {
            let head = ShotTable.pad("\(shot.index)", 4) + ShotTable.pad(ShotTable.fmt(shot.time, 3), 9)
                + ShotTable.pad(ShotTable.fmt(shot.confidence, 2), 6)
            if let f = shot.forwardCm, let l = shot.lateralCm, let h = shot.heightCm {
                out += head + ShotTable.pad(ShotTable.fmt(f, 1), 9) + ShotTable.pad(ShotTable.fmt(l, 1), 9)
                    + ShotTable.pad(ShotTable.fmt(h, 1), 8)
                    + ShotTable.pad(shot.wristSpeedCmS.map { ShotTable.fmt($0, 1) } ?? "-", 13)
                    + "  " + (shot.classification ?? "-") + sourceNote(shot) + "\n"
            } else {
                out += head + "  no person" + sourceNote(shot) + "\n"
            }
        }
        return out
    }

    /// `{"session": {…, "shots": […], "stats": {…}}}` — the `analyze --json` shape, with the stored
    /// arc and joints JSON embedded as JSON.
    static func json(_ d: SessionDetail) throws -> Data {
        let s = d.session
        let shots: [[String: Any]] = d.shots.map { shot in
            var o: [String: Any] = ["index": shot.index, "time": shot.time, "confidence": shot.confidence, "status": shot.status]
            if let f = shot.forwardCm, let l = shot.lateralCm, let h = shot.heightCm {
                o["contact"] = ["forwardCm": f, "lateralCm": l, "heightCm": h]
            }
            if let v = shot.wristSpeedCmS { o["wristSpeedCmS"] = v }
            if let c = shot.classification { o["classification"] = c }
            if let c = shot.contactFrame { o["contactFrame"] = c }
            if let a = shot.arcJSON, let v = embedded(a) { o["arc"] = v }
            if let j = shot.jointsJSON, let v = embedded(j) { o["joints"] = v }
            if let src = shot.source { o["source"] = src }
            if let v = shot.visualOffsetMs { o["visualOffsetMs"] = v }
            return o
        }
        var session: [String: Any] = [
            "id": s.id, "file": s.filePath, "fileName": s.fileName, "fileSHA256": s.fileSHA256,
            "createdAt": ISO8601DateFormatter().string(from: s.createdAt), "duration": s.durationSeconds,
            "fps": s.fps, "hand": s.hand.rawValue, "shots": shots,
        ]
        session["stats"] = embedded(s.statsJSON) ?? [String: Any]()
        return try JSONSerialization.data(withJSONObject: ["session": session], options: [.prettyPrinted, .sortedKeys])
    }

    /// "  [visual]" / "  [both +40 ms]" for shots analysed with a detector.
    private static func sourceNote(_ shot: ShotRecord) -> String {
        guard let src = shot.source else { return "" }
        return "  [\(src)" + (shot.visualOffsetMs.map { String(format: " %+.0f ms", $0) } ?? "") + "]"
    }

    private static func embedded(_ text: String) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    static func csv(_ d: SessionDetail) -> String {
        // Source columns only for sessions analysed with a detector (others keep the original columns).
        let fused = d.shots.contains { $0.source != nil }
        var out = "session,index,time,confidence,status,forwardCm,lateralCm,heightCm,wristSpeedCmS,classification,contactFrame"
            + (fused ? ",source,visualOffsetMs\n" : "\n")
        func num(_ v: Double?) -> String { v.map { "\($0)" } ?? "" }
        for shot in d.shots {
            var row = ["\(d.session.id)", "\(shot.index)", num(shot.time), num(shot.confidence), shot.status,
                       num(shot.forwardCm), num(shot.lateralCm), num(shot.heightCm), num(shot.wristSpeedCmS),
                       shot.classification ?? "", shot.contactFrame.map { "\($0)" } ?? ""]
            if fused { row += [shot.source ?? "", num(shot.visualOffsetMs)] }
            out += row.joined(separator: ",") + "\n"
        }
        return out
    }
}
