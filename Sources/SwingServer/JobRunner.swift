import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import SwingAudio
import SwingBiomech
import SwingCore
import SwingMedia
import SwingPipeline
import SwingStore

/// The in-process worker pool: `workers` loops that claim queued jobs from the store, run the analysis,
/// write progress into the job row and store the session. Everything goes through the job row, so a
/// `swingmaster worker` process on another machine could run the same loop against a shared store.
///
/// On graceful shutdown the running analyses are cancelled and their jobs re-queued, so the next start
/// picks them up again.
public struct JobRunner: Service {
    let db: any Store
    let workers: Int
    let logger: Logger
    /// How often an idle worker looks for queued jobs (new uploads also wake it at once).
    var pollInterval: Duration = .milliseconds(250)
    /// How often a running job reports (progress writes are throttled to this).
    static let reportInterval = 0.1
    /// A running job whose heartbeat is older than this has lost its worker and is re-queued.
    static let staleAfter = 30.0
    let wakeUp: WakeUp
    /// Where job and stage durations are recorded.
    let metrics: ServerMetrics
    /// Runs one analysis; injectable so tests can run a fast stand-in.
    let analyze: @Sendable (JobRecord, @escaping AnalysisProgress) async throws -> Int64

    public func run() async throws {
        let me = "serve-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
        // Jobs a previous run left running (it was stopped or crashed) go back to the queue.
        let requeued = try await db.requeueJobs(staleBefore: Date())
        if requeued > 0 { logger.info("re-queued \(requeued) interrupted job(s)") }
        // ServiceLifecycle asks services to stop with a graceful-shutdown signal, not cancellation:
        // turn it into cancellation so running analyses stop and their jobs are re-queued.
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
            do { job = try await db.claimNextJob(workerId: workerId) } catch {
                logger.error("cannot claim a job: \(error)")
                job = nil
            }
            guard let job, let id = job.id else {
                _ = try? await db.requeueJobs(staleBefore: Date().addingTimeInterval(-Self.staleAfter))
                await wakeUp.wait(upTo: pollInterval)
                continue
            }
            await process(job, id: id, workerId: workerId)
        }
    }

    private func process(_ job: JobRecord, id: Int64, workerId: String) async {
        let latest = LatestProgress()
        let stages = StageClock(metrics: metrics)
        let report: AnalysisProgress = { stage, fraction in
            stages.enter(stage)
            latest.set(stage, fraction)
        }
        let work = Task { try await analyze(job, report) }
        // One loop per job writes the latest progress with the heartbeat into the row, every
        // `reportInterval` whether or not the analysis reported, and learns of a cancel request there.
        let cancelRequested = Flag()
        let reporter = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(Self.reportInterval))
                let (stage, fraction) = latest.value
                if (try? await db.reportJobProgress(id: id, stage: stage, progress: fraction)) == true {
                    cancelRequested.set()
                    work.cancel()
                    return
                }
            }
        }
        defer { reporter.cancel() }
        do {
            let sessionId = try await withTaskCancellationHandler { try await work.value } onCancel: { work.cancel() }
            try await db.finishJob(id: id, state: .done, sessionId: sessionId)
            stages.finish(.done)
            logger.info("job \(id) done: session \(sessionId)")
        } catch {
            reporter.cancel()
            if Task.isCancelled {
                // Shutdown: the job is not lost, the next start runs it again.
                _ = try? await db.requeueJobs(workerId: workerId)
            } else if cancelRequested.isSet {
                try? await db.finishJob(id: id, state: .cancelled, error: cancelledSentence("analysis"))
                stages.finish(.cancelled)
            } else {
                let (sentence, code) = Self.describe(error, fileName: job.fileName, mediaPath: job.mediaPath)
                try? await db.finishJob(id: id, state: .failed, error: sentence, errorCode: code)
                stages.finish(.failed)
                logger.info("job \(id) failed: \(sentence)")
            }
            // A failed or cancelled job leaves no orphan media (a re-queued one still needs it).
            if !Task.isCancelled, (try? await db.mediaInUse(path: job.mediaPath)) == false {
                try? FileManager.default.removeItem(atPath: job.mediaPath)
                try? FileManager.default.removeItem(atPath: Self.playbackCopyPath(forMedia: job.mediaPath))
            }
        }
    }

    /// The user's sentence for `error`, naming the file as uploaded (not where it is stored).
    static func describe(_ error: any Error, fileName: String, mediaPath: String) -> (String, Int) {
        if let e = error as? any UserFacingError {
            return (e.description.replacingOccurrences(of: mediaPath, with: fileName), Int(e.statusCode))
        }
        return ("The analysis failed: \(error)", Int(StatusCode.failure))
    }
}

/// Wakes idle workers when a job is queued (they also poll, for jobs queued by other processes).
public final class WakeUp: @unchecked Sendable {   // state guarded by `lock`
    private enum Waiter {
        /// Registered, not yet suspended.
        case pending
        /// Woken before it suspended: it returns at once.
        case fired
        case waiting(CheckedContinuation<Void, Never>)
    }
    private let lock = NSLock()
    private var waiters: [UInt64: Waiter] = [:]
    private var nextId: UInt64 = 0

    public init() {}

    /// Wakes every waiting worker.
    public func signal() {
        lock.lock()
        var woken: [CheckedContinuation<Void, Never>] = []
        for (id, w) in waiters {
            switch w {
            case .waiting(let c): woken.append(c); waiters[id] = nil
            case .pending: waiters[id] = .fired
            case .fired: break
            }
        }
        lock.unlock()
        for c in woken { c.resume() }
    }

    /// Returns on ``signal()``, after `timeout`, or when the task is cancelled, whichever comes first.
    func wait(upTo timeout: Duration) async {
        let id = lock.withLock { nextId &+= 1; waiters[nextId] = .pending; return nextId }
        let timer = Task { [self] in
            if (try? await Task.sleep(for: timeout)) != nil { fire(id) }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                lock.lock()
                if case .pending = waiters[id] {
                    waiters[id] = .waiting(c)
                    lock.unlock()
                } else {
                    waiters[id] = nil
                    lock.unlock()
                    c.resume()
                }
            }
        } onCancel: { fire(id) }
        timer.cancel()
        lock.withLock { waiters[id] = nil }
    }

    /// Wakes the one waiter `id` (or marks it woken if it has not suspended yet).
    private func fire(_ id: UInt64) {
        lock.lock()
        switch waiters[id] {
        case .waiting(let c)?:
            waiters[id] = nil
            lock.unlock()
            c.resume()
        case .pending?:
            waiters[id] = .fired
            lock.unlock()
        default:
            lock.unlock()
        }
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
    /// The real analysis of a job: `SessionAnalyzer` with the job's hand and range, stored through
    /// `SessionArchive` (the same document as `analyze --json`).
    static func analysis(db: any Store) -> @Sendable (JobRecord, @escaping AnalysisProgress) async throws -> Int64 {
        { job, report in
            let stored = try await db.dominantHand()
            let hand = job.hand.flatMap(Hand.init(rawValue:)) ?? stored ?? .right
            var options = AnalysisOptions()
            if job.start != nil || job.duration != nil { options.range = TimeRange(start: job.start ?? 0, duration: job.duration) }
            options.biomech = BiomechParameters(hand: hand)
            options.biomech.swingCheck = job.swingCheck
            if let level = job.sensitivity.flatMap(ContactSensitivity.init(rawValue:)) {
                options.sensitivity = level
                options.detector = level.apply(to: options.detector)
            }
            let analyzer = try SessionAnalyzer(options: options)
            let path = job.mediaPath
            // "Extracting audio" first makes the browser-playable copy when one is needed, in the first
            // half of the stage: both are reading the upload before the analysis proper.
            let copied = try await makePlaybackCopy(job: job, db: db) { report(.extractingAudio, 0.5 * $0) }
            let task = Task.detached {
                try analyzer.analyze(path: path) { stage, fraction in
                    guard JobView.stages.contains(stage) else { return }
                    report(stage, stage == .extractingAudio && copied ? 0.5 + 0.5 * fraction : fraction)
                }
            }
            let analysis = try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
            try Task.checkCancellation()
            return try await SessionArchive.save(analysis, file: job.fileName, mediaPath: job.mediaPath, hand: hand, in: db).id
        }
    }

    /// Where the playback copy of a stored upload goes (next to it, so it is found, served and removed with it).
    static func playbackCopyPath(forMedia path: String) -> String { path + ".playback.mp4" }

    /// Makes the H.264 copy of a video browsers cannot play (HEVC `.mov` from iPhones, …) and records
    /// it on the job. The same upload analysed again reuses its copy.
    /// - Returns: Whether a copy was needed.
    static func makePlaybackCopy(job: JobRecord, db: any Store, progress: @escaping @Sendable (Double) -> Void) async throws -> Bool {
        let source = job.mediaPath
        guard try !PlaybackCopy.isBrowserPlayable(source) else { return false }
        let destination = playbackCopyPath(forMedia: source)
        if !FileManager.default.fileExists(atPath: destination) {
            let task = Task.detached {
                try PlaybackCopy.make(from: source, to: destination, isCancelled: { Task.isCancelled }, progress: progress)
            }
            try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
        }
        if let id = job.id { try await db.recordPlaybackCopy(jobId: id, path: destination) }
        return true
    }
}

/// Lets a call through at most once per `interval` seconds (and always when forced).
final class Throttle: @unchecked Sendable {   // state guarded by `lock`
    private let lock = NSLock()
    private var last = Date.distantPast
    private let interval: Double
    init(interval: Double) { self.interval = interval }
    func shouldFire(force: Bool = false) -> Bool {
        lock.lock(); defer { lock.unlock() }
        let now = Date()
        guard force || now.timeIntervalSince(last) >= interval else { return false }
        last = now
        return true
    }
}
