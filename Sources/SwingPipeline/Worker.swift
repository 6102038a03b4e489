import Foundation
import Logging
import ServiceLifecycle
import SwingBiomech
import SwingCore
import SwingStore

/// What `swingmaster worker` is told: the shared store, where the uploads are, how many analyses to run.
package struct WorkerConfiguration: Sendable {
    /// The store the web app queues jobs in.
    package var database: DatabaseAddress
    /// The folder the web app keeps uploads in (`serve --media`), at the same path on every machine.
    package var media: URL
    /// Analyses this process runs at once.
    package var concurrency = 1
    /// Seconds a job is held without a heartbeat before another worker may take it.
    package var leaseSeconds = 30.0
    /// Swing windows each analysis poses in parallel (0 = one per core); with several analyses at once on
    /// one machine, fewer each.
    package var poseWorkers = 0
    /// For tests and the queue benchmark only: each job waits this long and stores an empty session
    /// instead of analysing (what remains is the queue's own cost).
    package var standIn: Duration?

    package init(database: DatabaseAddress, media: URL) {
        self.database = database
        self.media = media
    }
}

/// The worker's refusals before it starts (the media folder), one sentence each.
package struct WorkerSetupError: UserFacingError {
    package let message: String
    package var description: String { message }
    package var statusCode: Int32 { StatusCode.fileNotFound }
}

/// A job whose media this machine cannot read: retried with backoff (another worker, or this one once the
/// share is back, may read it), then failed with this sentence.
struct MediaUnreachable: Error, CustomStringConvertible {
    let path: String
    var description: String {
        "This worker cannot read \(path); the media folder must be shared with every worker at the same path."
    }
}

/// Runs `swingmaster worker`: claims jobs from the shared store until SIGTERM or SIGINT, then finishes
/// nothing new, cancels its running analyses and gives their jobs back to the queue.
/// - Throws: ``WorkerSetupError`` when the media folder is missing, the store's errors when it cannot be
///   opened.
package func runWorker(_ configuration: WorkerConfiguration, logger: Logger) async throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: configuration.media.path, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw WorkerSetupError(message: "The media folder \(configuration.media.path) does not exist here; mount the folder `serve --media` uses at the same path.")
    }
    let library = try await configuration.database.open(media: configuration.media)
    let analysis = configuration.standIn.map { JobRunner.standIn($0) } ?? JobRunner.analysis(library: library, poseWorkers: configuration.poseWorkers)
    let analyze: JobAnalysis = { job, report in
        guard FileManager.default.isReadableFile(atPath: job.mediaPath) else { throw MediaUnreachable(path: job.mediaPath) }
        return try await analysis(job, report)
    }
    let runner = JobRunner(library: library, workers: configuration.concurrency, leaseSeconds: configuration.leaseSeconds, logger: logger,
                           role: "worker", analyze: analyze)
    let group = ServiceGroup(configuration: .init(services: [.init(service: runner)], gracefulShutdownSignals: [.sigterm, .sigint],
                                                  logger: logger))
    logger.info("worker: \(configuration.concurrency) at once on \(configuration.database), media in \(configuration.media.path)")
    try await group.run()
    logger.info("worker: stopped; \(runner.claims.summary)")
}

extension JobRunner {
    /// A stand-in analysis for tests and the queue benchmark: it reports each stage, waits `duration` in
    /// all, and returns an empty session on the job's media.
    static func standIn(_ duration: Duration) -> JobAnalysis {
        { job, report in
            for stage in stages {
                report(stage, 0.5)
                try await Task.sleep(for: duration / stages.count)
            }
            return NewSession(record: SessionRecord(filePath: job.mediaPath, fileName: job.fileName, fileSHA256: job.mediaSHA256,
                                                    durationSeconds: 0, fps: 0, hand: .right, stats: SessionStats(shotCount: 0)),
                              shots: [])
        }
    }
}
