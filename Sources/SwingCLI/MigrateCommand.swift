import ArgumentParser
import Foundation
import SwingPipeline

/// `swingmaster migrate --from sqlite:PATH --to postgres://… [--media DIR]`: copies a laptop's sessions
/// (and the player, model records and detection runs) into a shared store. Run it again: only what is new
/// is copied.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy sessions from one store to another (a laptop's SQLite to a shared PostgreSQL); safe to run again.",
        discussion: """
        Sessions keep their shots, pose track (so they can still be edited) and document; the copy gets a \
        new id. With --media, each session's video is copied into that folder (the one `serve --media` \
        uses) and the copy points there, so the web app can play it. A session already in the target \
        (same file checksum, name and analysis time) is left as it is.
        """)

    @Option(help: "The store to copy from: sqlite:PATH or postgres://… (default: $SWINGMASTER_DATABASE, else the home's swingmaster.sqlite).")
    var from: String?
    @Option(help: "The store to copy into: postgres://user@host[:port]/database or sqlite:PATH.") var to: String
    @Option(help: "Copy the sessions' videos into this folder and point the copies at them.") var media: String?

    func validate() throws {
        let target = try StoreOptions.parse(to)
        if let source = try StoreOptions.parse(from), source == target { throw ValidationError("--from and --to name the same store.") }
    }

    func run() async throws {
        let source = try DatabaseAddress(from)
        let target = try DatabaseAddress(to)
        guard source != target else { throw ValidationError("--from and --to name the same store.") }
        let bar = ProgressBar(label: "sessions")
        let report = try await source.copy(to: target, media: media.map { URL(fileURLWithPath: $0, isDirectory: true) }) { done, total in
            bar.update(Double(done) / Double(max(total, 1)))
        }
        bar.finish()
        try Console.line("Copied \(report.sessionsCopied) session(s) to \(target) (\(report.sessionsAlreadyThere) already there)"
                         + (media == nil ? "" : ", \(report.mediaCopied) video(s)")
                         + ", \(report.modelRecordsCopied) model record(s), \(report.runsCopied) detection run(s), \(report.racketSoundsCopied) racket sound(s).")
        for path in report.mediaMissing { Console.warn("note: \(path) is gone; its session keeps that path") }
    }
}
