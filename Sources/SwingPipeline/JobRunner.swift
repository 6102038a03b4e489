import Foundation
import Logging
import ServiceLifecycle
import SwingAudio
import SwingBiomech
import SwingCore
import SwingMedia
import SwingStore

/// What one job's analysis gives back: the session to store (the runner stores it, with the job's `done`,
/// only while its lease holds). Injectable so tests can run a fast stand-in.
package typealias JobAnalysis = @Sendable (JobRecord, @escaping AnalysisProgress) async throws -> NewSession

/// The worker pool of `swingmaster serve` and `swingmaster worker`: `workers` loops that claim jobs from
/// the store with a lease, run the analysis, renew the lease and write progress into the job row, and
/// store the session together with the job's `done` while the lease still holds. Everything goes through
/// the job row, so any number of processes on any number of machines can share one store.
///
/// On graceful shutdown the running analyses are cancelled and their jobs given back to the queue. A
/// worker that dies instead holds its job only until the lease runs out; then another takes it.
package struct JobRunner: Service {
    /// The store and the uploads folder.
    let library: MediaLibrary
    var db: any Store { library.store }
    let workers: Int
    let logger: Logger
    /// How long an idle worker waits for the store to say a job was queued before it looks anyway.
    var pollInterval: Duration = .milliseconds(250)
    /// How often a running job renews its lease and writes its progress.
    static let reportInterval = 0.1
    /// How long a claim holds a job without a heartbeat; a worker that stops for longer loses it.
    let leaseSeconds: Double
    /// Where job and stage durations are recorded.
    let metrics: any JobMetrics
    /// Runs one analysis.
    let analyze: JobAnalysis
    /// Names this process's workers in the job rows (`serve-…`, `worker-…`).
    let role: String
    /// How long each claim that found a job took (the queue's own cost; `bench/scale.sh` reads the summary).
    let claims = ClaimTimes()

    /// The stages a job reports, in order (what the job rows, the pages and the metrics name).
    package static let stages: [AnalysisStage] = [.extractingAudio, .detectingContacts, .runningPose, .computingStatistics]

    /// A pool of `workers` loops on `db`; `analyze` `nil` runs the real analysis (``analysis(library:poseWorkers:)``).
    package init(library: MediaLibrary, workers: Int, leaseSeconds: Double = 30, logger: Logger, metrics: any JobMetrics = NoJobMetrics(),
                role: String = "serve", analyze: JobAnalysis? = nil) {
        self.library = library; self.workers = workers; self.leaseSeconds = leaseSeconds; self.logger = logger
        self.metrics = metrics; self.role = role; self.analyze = analyze ?? Self.analysis(library: library)
    }

    package func run() async throws {
        let host = ProcessInfo.processInfo.hostName
        let me = "\(role)-\(host)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(6))"
        // ServiceLifecycle asks services to stop with a graceful-shutdown signal, not cancellation:
        // turn it into cancellation so running analyses stop and their jobs go back to the queue.
        try await cancelWhenGracefulShutdown {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in 0..<max(1, workers) {
                    group.addTask { await self.loop(workerId: "\(me)-\(n)") }
                }
                try await group.waitForAll()
            }
        }
    }

    private func loop(workerId: String) async {
        while !Task.isCancelled {
            let job: JobRecord?
            let asked = ContinuousClock.now
            do {
                job = try await db.claimNextJob(workerId: workerId, leaseSeconds: leaseSeconds, now: Date())
                if job != nil { claims.add(asked.duration(to: .now)) }
            } catch {
                logger.error("cannot claim a job: \(error)")
                job = nil
            }
            guard let job, let lease = job.lease else {
                await db.waitForQueuedJob(timeout: pollInterval)
                continue
            }
            if job.attempts > 1 { logger.info("job \(lease.jobId): attempt \(job.attempts)") }
            await process(job, lease: lease)
        }
    }

    private func process(_ job: JobRecord, lease: JobLease) async {
        let id = lease.jobId
        let latest = LatestProgress()
        let stages = JobStageClock(metrics: metrics)
        let report: AnalysisProgress = { stage, fraction in
            stages.enter(stage)
            latest.set(stage, fraction)
        }
        let work = Task { try await analyze(job, report) }
        // One loop per job renews the lease with the latest progress every `reportInterval`, whether or not
        // the analysis reported, and learns there of a cancel request or a lost lease.
        let cancelRequested = Flag(), lost = Flag()
        let (db, leaseSeconds, logger) = (self.db, self.leaseSeconds, self.logger)
        let heartbeat = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(Self.reportInterval))
                let (stage, fraction) = latest.value
                do {
                    switch try await db.heartbeat(lease, stage: stage, progress: fraction, leaseSeconds: leaseSeconds, now: Date()) {
                    case .held: continue
                    case .cancelRequested: cancelRequested.set()
                    case .lost: lost.set()
                    }
                    work.cancel()
                    return
                } catch {
                    // The store is unreachable: keep working; the lease runs out if it stays so.
                    logger.warning("job \(id): heartbeat failed: \(error)")
                }
            }
        }
        defer { heartbeat.cancel() }
        do {
            let session = try await withTaskCancellationHandler { try await work.value } onCancel: { work.cancel() }
            heartbeat.cancel()
            // The last stage the analysis reported, as the row shows it once done.
            let (stage, _) = latest.value
            if try await db.heartbeat(lease, stage: stage, progress: 1, leaseSeconds: leaseSeconds, now: Date()) == .lost {
                throw JobLost()
            }
            let sessionId = try await db.completeJob(lease, session: session, now: Date())
            stages.finish(.done)
            logger.info("job \(id) done: session \(sessionId)")
        } catch {
            heartbeat.cancel()
            let final: JobState?
            if lost.isSet || error is JobLost || (error as? StoreError)?.kind == .leaseLost {
                logger.warning("job \(id): lease lost; another worker has it, nothing was stored")
                final = nil
            } else if Task.isCancelled {
                // Shutdown: the job is not lost, the next worker runs it again. This task is cancelled, and
                // the store refuses work from a cancelled task, so the release runs in its own.
                await Task { try? await db.releaseJob(lease) }.value
                final = nil
            } else if cancelRequested.isSet {
                final = (try? await db.finishJob(lease, state: .cancelled, error: cancelledSentence("analysis"), errorCode: Int(StatusCode.cancelled), now: Date())) == true ? .cancelled : nil
            } else {
                let (sentence, code) = Self.describe(error, fileName: job.fileName, mediaPath: job.mediaPath)
                if Self.mayPass(error) {
                    final = try? await db.retryJob(lease, error: sentence, errorCode: code, now: Date())
                    logger.info("job \(id) attempt \(job.attempts) failed (\(sentence)); \(final == .queued ? "it will be retried" : "it failed")")
                } else {
                    final = (try? await db.finishJob(lease, state: .failed, error: sentence, errorCode: code, now: Date())) == true ? .failed : nil
                    logger.info("job \(id) failed: \(sentence)")
                }
            }
            if let final, final.isFinal { stages.finish(final) }
            // A failed or cancelled job leaves no orphan media (a queued one still needs it).
            if let final, final.isFinal { await library.discardIfUnused(job.mediaPath) }
        }
    }

    /// The lease ran out while the analysis ran and another worker has the job.
    struct JobLost: Error {}

    /// Whether `error` may pass if the job runs again: the store or a file share failing, not the media
    /// or the analysis saying no (those fail the same way every time).
    static func mayPass(_ error: any Error) -> Bool {
        if let store = error as? StoreError { return store.kind == .databaseError }
        return !(error is any UserFacingError)
    }

    /// The user's sentence for `error`, naming the file as uploaded (not where it is stored).
    static func describe(_ error: any Error, fileName: String, mediaPath: String) -> (String, Int) {
        if let e = error as? MediaUnreachable { return (e.description, Int(StatusCode.fileNotFound)) }
        if let e = error as? any UserFacingError {
            return (e.description.replacingOccurrences(of: mediaPath, with: fileName), Int(e.statusCode))
        }
        return ("The analysis failed: \(error)", Int(StatusCode.failure))
    }
}

/// The stage and fraction an analysis reported last (from any thread).
final class LatestProgress: @unchecked Sendable {   // state guarded by `lock`
    private let lock = NSLock()
    private var latest: (AnalysisStage, Double) = (.extractingAudio, 0)
    func set(_ stage: AnalysisStage, _ fraction: Double) { lock.withLock { latest = (stage, fraction) } }
    var value: (AnalysisStage, Double) { lock.withLock { latest } }
}

/// A flag set once from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}

extension JobRunner {
    /// The real analysis of a job: `SessionAnalyzer` with the job's hand and range; the session it returns
    /// is `SessionArchive`'s (the same document as `analyze --json`).
    static func analysis(library: MediaLibrary, poseWorkers: Int = 0) -> JobAnalysis {
        let db = library.store
        return { job, report in
            let stored = try await db.dominantHand()
            let request = job.request
            let hand = request.hand ?? stored ?? .right
            var options = request.options(hand: hand, poseWorkers: poseWorkers)
            if let id = request.racketSound { options.contactModel = try await library.contactModel(id: id) }
            let analyzer = try SessionAnalyzer(options: options)
            let path = job.mediaPath
            // "Extracting audio" first makes the browser-playable copy when one is needed, in the first
            // half of the stage: both are reading the upload before the analysis proper.
            let copied = try await library.makePlaybackCopy(for: job) { report(.extractingAudio, 0.5 * $0) }
            let analysis = try await BlockingWork.run("swingmaster.analysis") {
                try analyzer.analyze(path: path) { stage, fraction in
                    guard JobRunner.stages.contains(stage) else { return }
                    report(stage, stage == .extractingAudio && copied ? 0.5 + 0.5 * fraction : fraction)
                }
            }
            try Task.checkCancellation()
            return try SessionArchive.prepare(analysis, file: job.fileName, mediaPath: job.mediaPath, hand: hand)
        }
    }
}

/// Where a job runner records how long jobs and their stages took (`serve`'s `GET /metrics`; `worker` keeps none).
package protocol JobMetrics: Sendable {
    /// A job reached a final state after `seconds` of work.
    func job(_ state: JobState, seconds: Double)
    /// Stage `stage` of a job took `seconds`.
    func stage(_ stage: AnalysisStage, seconds: Double)
}

/// Metrics nobody reads: `swingmaster worker`'s (it serves no `/metrics`).
package struct NoJobMetrics: JobMetrics {
    package init() {}
    package func job(_ state: JobState, seconds: Double) {}
    package func stage(_ stage: AnalysisStage, seconds: Double) {}
}

/// When each stage of one job started, so its duration is recorded when the next begins.
final class JobStageClock: @unchecked Sendable {   // state guarded by `lock`
    private let lock = NSLock()
    private let metrics: any JobMetrics
    private var current: (stage: AnalysisStage, started: ContinuousClock.Instant)?
    let started = ContinuousClock.now

    init(metrics: any JobMetrics) { self.metrics = metrics }

    /// The job reports `stage`; a new stage ends the one before.
    func enter(_ stage: AnalysisStage) {
        lock.lock(); defer { lock.unlock() }
        if let c = current, c.stage == stage { return }
        let now = ContinuousClock.now
        if let c = current { metrics.stage(c.stage, seconds: c.started.duration(to: now).seconds) }
        current = (stage, now)
    }

    /// The job ended in `state`: its last stage (only when it finished it) and the whole job are recorded.
    func finish(_ state: JobState) {
        lock.lock(); defer { lock.unlock() }
        let now = ContinuousClock.now
        if state == .done, let c = current { metrics.stage(c.stage, seconds: c.started.duration(to: now).seconds) }
        current = nil
        metrics.job(state, seconds: started.duration(to: now).seconds)
    }
}

/// The durations of a runner's successful claims (the most recent 100,000).
final class ClaimTimes: @unchecked Sendable {   // state guarded by `lock`
    private let lock = NSLock()
    private var seconds: [Double] = []

    func add(_ d: Duration) {
        lock.withLock {
            if seconds.count >= 100_000 { seconds.removeFirst(seconds.count / 2) }
            seconds.append(d.seconds)
        }
    }

    /// "N jobs claimed; claim p50 … ms, p99 … ms, max … ms" (or that none was).
    var summary: String {
        let sorted = lock.withLock { seconds }.sorted()
        guard !sorted.isEmpty else { return "no job claimed" }
        func ms(_ q: Double) -> String { String(format: "%.2f", sorted[min(sorted.count - 1, Int(q * Double(sorted.count)))] * 1000) }
        return "\(sorted.count) jobs claimed; claim p50 \(ms(0.5)) ms, p99 \(ms(0.99)) ms, max \(ms(1)) ms"
    }
}
