import Foundation
import SwingBiomech
import SwingCore

/// Where Swingmaster keeps what outlives a process: the player's profile, analysed sessions (their shots,
/// documents and pose tracks), analysis jobs, and the model catalog's records.
///
/// Two backends conform: ``AppDatabase`` (SQLite through GRDB, the embedded default: one file in the
/// Swingmaster home) and `PostgresStore` (one PostgreSQL database shared by a web app and any number of
/// `swingmaster worker` processes). Both run the same named migrations at open and pass one conformance
/// suite, so callers hold `any Store` and never learn which one they have.
///
/// Every method is `async`: a networked store waits for its server without holding a thread. Errors are
/// ``StoreError``s with one sentence each.
public protocol Store: Sendable {
    // MARK: The player

    /// The stored dominant hand, or `nil` if the player was never asked.
    func dominantHand() async throws -> Hand?
    /// Stores the dominant hand (creating the profile on first call).
    func setDominantHand(_ hand: Hand, at date: Date) async throws

    // MARK: Sessions

    /// Saves a session with its shots, track and document in **one transaction** and returns its new id:
    /// when any part fails (the document builder included), nothing is stored.
    func saveSession(_ new: NewSession) async throws -> Int64
    /// Stores a new version of session `id` after an edit, in one transaction, only while its stored
    /// revision is still `revision` (``StoreError/conflict(_:)`` otherwise; ``StoreError/notFound(_:)``
    /// when it is gone).
    func replaceSession(id: Int64, revision: Int, stats: SessionStats, shots: [ShotRecord], track: SessionTrackRecord,
                        document: @escaping @Sendable () throws -> String) async throws
    /// Every session, newest first (ties by id, newest first).
    func sessions() async throws -> [SessionRecord]
    /// A session with its shots in index order, or `nil`.
    func session(id: Int64) async throws -> SessionDetail?
    /// The session row alone, or `nil`.
    func sessionRecord(id: Int64) async throws -> SessionRecord?
    /// What session `id` was measured on, `nil` when none was kept (or it is gone).
    func sessionTrack(id: Int64) async throws -> SessionTrackRecord?
    /// Shot `index` (1-based) of session `sessionId`, or `nil`.
    func shot(sessionId: Int64, index: Int) async throws -> ShotRecord?
    /// Deletes a session with its shots and track; ``StoreError/notFound(_:)`` when there is none.
    func deleteSession(id: Int64) async throws

    // MARK: Jobs

    /// Stores a new queued job and returns it with its id.
    func enqueueJob(_ job: JobRecord) async throws -> JobRecord
    /// The job `id`, or `nil`.
    func job(id: Int64) async throws -> JobRecord?
    /// Jobs newest first, at most `limit`.
    func recentJobs(limit: Int) async throws -> [JobRecord]
    /// How many jobs the store holds in each state (states without jobs are absent).
    func jobCountsByState() async throws -> [JobState: Int]
    /// Takes the oldest queued job for `workerId` (state `running`), or `nil` when none is queued. Two
    /// callers never take the same job.
    func claimNextJob(workerId: String, now: Date) async throws -> JobRecord?
    /// Records progress and the worker's heartbeat of a running job; returns whether cancellation was
    /// requested.
    func reportJobProgress(id: Int64, stage: AnalysisStage, progress: Double, now: Date) async throws -> Bool
    /// Records the browser-playable copy a running job made of its media.
    func recordPlaybackCopy(jobId: Int64, path: String) async throws
    /// Ends a job: `done` with its session, `failed` with a sentence and code, or `cancelled`.
    func finishJob(id: Int64, state: JobState, sessionId: Int64?, error: String?, errorCode: Int?, now: Date) async throws
    /// Cancels a job: a queued one at once, a running one by asking its worker. `nil` if there is none.
    func cancelJob(id: Int64, now: Date) async throws -> JobRecord?
    /// Puts running jobs back in the queue: those of `workerId`, or, without one, those whose heartbeat
    /// is older than `staleBefore`. Returns how many.
    func requeueJobs(workerId: String?, staleBefore: Date?) async throws -> Int
    /// Whether any session or unfinished job still uses the stored media file `path`.
    func mediaInUse(path: String) async throws -> Bool
    /// The playback copy recorded for the media `path` by any job, if one was made.
    func playbackPath(forMedia path: String) async throws -> String?

    // MARK: The model catalog's records

    /// The record for model `id`, or `nil` if nothing was ever stored for it.
    func modelRecord(id: String) async throws -> ModelRecord?
    /// Every stored record: favourites first, then most recently used, then by id.
    func allModelRecords() async throws -> [ModelRecord]
    /// Read-modify-write of one model's record in one transaction (created with defaults if absent).
    func updateModelRecord(id: String, _ change: @escaping @Sendable (inout ModelRecord) -> Void) async throws
    /// Deletes the record of `id` (its detection runs stay, as history); returns whether one existed.
    func removeModelRecord(id: String) async throws -> Bool
    /// Saves a detection run and returns its new id.
    func saveDetectionSession(_ session: DetectionSessionRecord) async throws -> Int64
    /// Detection runs newest first, optionally of one model only and at most `limit`.
    func detectionSessions(modelId: String?, limit: Int?) async throws -> [DetectionSessionRecord]
}

/// A session about to be stored: its row, its shots, what it was measured on, and the builder of its
/// document, which runs inside the transaction once the new id is known (the document names it).
public struct NewSession: Sendable {
    public var record: SessionRecord
    public var shots: [ShotRecord]
    /// `nil` stores no track (the session cannot be edited then).
    public var track: SessionTrackRecord?
    /// Makes the document's text from the new id; when it throws, nothing is stored. `nil` stores none.
    public var document: (@Sendable (Int64) throws -> String)?

    public init(record: SessionRecord, shots: [ShotRecord], track: SessionTrackRecord? = nil,
                document: (@Sendable (Int64) throws -> String)? = nil) {
        self.record = record; self.shots = shots; self.track = track; self.document = document
    }
}

// Defaults and conveniences every store shares.
extension Store {
    /// Saves `record` with `shots` (and optionally its track and document builder) in one transaction.
    @discardableResult
    public func saveSession(_ record: SessionRecord, shots: [ShotRecord], track: SessionTrackRecord? = nil,
                            document: (@Sendable (Int64) throws -> String)? = nil) async throws -> Int64 {
        try await saveSession(NewSession(record: record, shots: shots, track: track, document: document))
    }
    /// Stores the dominant hand now.
    public func setDominantHand(_ hand: Hand) async throws { try await setDominantHand(hand, at: Date()) }
    /// The 20 newest jobs.
    public func recentJobs() async throws -> [JobRecord] { try await recentJobs(limit: 20) }
    /// Takes the oldest queued job now.
    public func claimNextJob(workerId: String) async throws -> JobRecord? { try await claimNextJob(workerId: workerId, now: Date()) }
    /// Records progress now.
    @discardableResult
    public func reportJobProgress(id: Int64, stage: AnalysisStage, progress: Double) async throws -> Bool {
        try await reportJobProgress(id: id, stage: stage, progress: progress, now: Date())
    }
    /// Ends a job now.
    public func finishJob(id: Int64, state: JobState, sessionId: Int64? = nil, error: String? = nil, errorCode: Int? = nil) async throws {
        try await finishJob(id: id, state: state, sessionId: sessionId, error: error, errorCode: errorCode, now: Date())
    }
    /// Cancels a job now.
    public func cancelJob(id: Int64) async throws -> JobRecord? { try await cancelJob(id: id, now: Date()) }
    /// Re-queues the running jobs of `workerId`.
    @discardableResult
    public func requeueJobs(workerId: String) async throws -> Int { try await requeueJobs(workerId: workerId, staleBefore: nil) }
    /// Re-queues running jobs whose heartbeat is older than `staleBefore`.
    @discardableResult
    public func requeueJobs(staleBefore: Date) async throws -> Int { try await requeueJobs(workerId: nil, staleBefore: staleBefore) }
    /// Every detection run of every model, newest first.
    public func detectionSessions(modelId: String? = nil) async throws -> [DetectionSessionRecord] {
        try await detectionSessions(modelId: modelId, limit: nil)
    }

    /// Marks or unmarks `id` as a favourite.
    public func setFavorite(_ isFavorite: Bool, id: String) async throws {
        try await updateModelRecord(id: id) { $0.isFavorite = isFavorite }
    }
    /// Hides or shows `id` in listings.
    public func setHidden(_ isHidden: Bool, id: String) async throws {
        try await updateModelRecord(id: id) { $0.isHidden = isHidden }
    }
    /// Sets (or with `nil`, clears) the per-model confidence and IoU thresholds.
    public func setThresholds(conf: Double?, iou: Double?, id: String) async throws {
        try await updateModelRecord(id: id) { $0.confThreshold = conf; $0.iouThreshold = iou }
    }
    /// Replaces the model's studio defaults; `nil` values fall back to the built-in defaults.
    public func setDefaults(conf: Double?, iou: Double?, maxDetections: Int?, lineWidth: Int?,
                            interpreter: String?, interpreterConfigJSON: String?, id: String) async throws {
        try await updateModelRecord(id: id) {
            $0.confThreshold = conf; $0.iouThreshold = iou; $0.maxDetections = maxDetections
            $0.lineWidth = lineWidth; $0.interpreter = interpreter; $0.interpreterConfigJSON = interpreterConfigJSON
        }
    }
    /// Counts one use of `id` at `date`.
    public func recordModelUse(id: String, at date: Date = Date()) async throws {
        try await updateModelRecord(id: id) { $0.usageCount += 1; $0.lastUsedAt = date }
    }
    /// Records that `id` was downloaded at `date`.
    public func recordDownload(id: String, at date: Date = Date()) async throws {
        try await updateModelRecord(id: id) { $0.downloadedAt = date }
    }
    /// Stores (or with `nil`, clears) the interpreter configuration JSON of `id`.
    public func setInterpreterConfig(_ json: String?, id: String) async throws {
        try await updateModelRecord(id: id) { $0.interpreterConfigJSON = json }
    }
}
