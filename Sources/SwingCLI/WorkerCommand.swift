import ArgumentParser
import Foundation
import Logging
import SwingCore
import SwingPipeline

/// `swingmaster worker --database URL --media DIR [--concurrency N]`: analyses the jobs a web app
/// (`serve --workers 0`) queues in a shared store, on this machine. Stateless: start as many as the
/// machines allow, stop any with SIGTERM (its running job goes back to the queue).
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Analyse the jobs queued in a shared store (with `serve --workers 0`; docs/deploy.md).",
        discussion: """
        The worker claims a queued job, renews its lease while it analyses, and stores the session and the \
        job's `done` together. SIGTERM or Ctrl-C gives a running job back to the queue; a worker that dies \
        holds its job until the lease runs out, then another worker takes it. The media folder is the one \
        `serve --media` writes uploads to, at the same path on every machine.
        """)

    @Option(name: .customLong("database"),
            help: "The shared store: postgres://user@host[:port]/database, or sqlite:PATH on one machine (default: $SWINGMASTER_DATABASE).")
    var database: String?
    @Option(help: "The uploads folder `serve --media` uses (default: the home's media folder).") var media: String?
    @Option(help: "Analyses this process runs at once (one analysis already uses every core).") var concurrency = 1
    @Option(name: .customLong("lease-seconds"), help: "Seconds a job is held without a heartbeat before another worker may take it.")
    var leaseSeconds = 30.0
    @Option(name: .customLong("pose-workers"),
            help: "Swing windows each analysis poses in parallel (default 0 = one per core); see docs/deploy.md for the choice.")
    var poseWorkers: Int?
    @Option(name: .customLong("stand-in-ms"), help: .hidden) var standInMs: Int?

    func validate() throws {
        try OptionCheck.integer(concurrency, "--concurrency", 1...OptionCheck.maxThreads)
        guard leaseSeconds.isFinite, leaseSeconds >= 1, leaseSeconds <= 3600 else {
            throw ValidationError("--lease-seconds must be between 1 and 3600.")
        }
        if let standInMs { try OptionCheck.integer(standInMs, "--stand-in-ms", 0...600_000) }
        try OptionCheck.threads(poseWorkers, "--pose-workers")
        _ = try StoreOptions.parse(database)
    }

    func run() async throws {
        let address = try DatabaseAddress(database)
        var configuration = WorkerConfiguration(
            database: address,
            media: media.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? MediaLibrary.defaultDirectory())
        configuration.concurrency = concurrency
        configuration.leaseSeconds = leaseSeconds
        configuration.standIn = standInMs.map { Duration.milliseconds($0) }
        configuration.poseWorkers = poseWorkers ?? 0
        var logger = Logger(label: "swingmaster")
        logger.logLevel = .info
        try await runWorker(configuration, logger: logger)
    }
}
