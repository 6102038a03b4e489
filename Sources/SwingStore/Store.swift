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
package protocol Store: Sendable {
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

    /// Stores a new queued job and returns it with its id (idle workers are woken).
    func enqueueJob(_ job: JobRecord) async throws -> JobRecord
    /// The job `id`, or `nil`.
    func job(id: Int64) async throws -> JobRecord?
    /// Jobs newest first, at most `limit`.
    func recentJobs(limit: Int) async throws -> [JobRecord]
    /// How many jobs the store holds in each state (states without jobs are absent).
    func jobCountsByState() async throws -> [JobState: Int]
    /// The queue's depth, its oldest job's wait, and how often leases ran out and jobs were run again.
    func queueStatus(now: Date) async throws -> QueueStatus
    /// Claims the oldest job that is queued (and past its backoff) or whose lease ran out, for
    /// `leaseSeconds`: state `running`, a new ``JobRecord/leaseToken``, one more attempt. A job whose lease
    /// ran out on its last attempt is failed with a sentence instead, and one whose cancel was asked is
    /// cancelled. Two callers never hold the same job. `nil` when there is nothing to run.
    func claimNextJob(workerId: String, leaseSeconds: Double, now: Date) async throws -> JobRecord?
    /// Renews `lease` for `leaseSeconds` and records the stage and progress; says whether the lease is still
    /// held and whether cancellation was asked. A lost lease writes nothing.
    func heartbeat(_ lease: JobLease, stage: AnalysisStage, progress: Double, leaseSeconds: Double, now: Date) async throws -> LeaseState
    /// Records the browser-playable copy a running job made of its media.
    func recordPlaybackCopy(jobId: Int64, path: String) async throws
    /// Stores the job's session and marks the job `done` with it, in **one transaction** that succeeds only
    /// while `lease` still holds the job: exactly one session per job, whatever workers die or wake late.
    /// - Throws: ``StoreError/leaseLost(_:)`` when the lease no longer holds (nothing is stored).
    func completeJob(_ lease: JobLease, session: NewSession, now: Date) async throws -> Int64
    /// Ends the job held by `lease` as `failed` (with its sentence and code) or `cancelled`. Returns
    /// whether the lease still held (a lost one changes nothing).
    func finishJob(_ lease: JobLease, state: JobState, error: String?, errorCode: Int?, now: Date) async throws -> Bool
    /// Puts the job held by `lease` back in the queue after a failure that may pass (the store or a network
    /// share was unreachable): it runs again after ``JobRecord/backoff(afterAttempt:)``, or fails with the
    /// sentence once it had ``JobRecord/maxAttempts``. Returns the job's new state (`nil` when the lease was lost).
    func retryJob(_ lease: JobLease, error: String, errorCode: Int, now: Date) async throws -> JobState?
    /// Gives the job held by `lease` back to the queue at once, not counting the attempt (a worker that is
    /// shutting down).
    func releaseJob(_ lease: JobLease) async throws
    /// Cancels a job: a queued one at once, a running one by asking its worker. `nil` if there is none.
    func cancelJob(id: Int64, now: Date) async throws -> JobRecord?
    /// Whether any session or unfinished job still uses the stored media file `path`.
    func mediaInUse(path: String) async throws -> Bool
    /// The playback copy recorded for the media `path` by any job, if one was made.
    func playbackPath(forMedia path: String) async throws -> String?
    /// Returns when a job is queued or released (from any process sharing the store), or after
    /// `timeout`: what idle workers wait on.
    func waitForQueuedJob(timeout: Duration) async
    /// Returns when job `id` changes (progress, state), or after `timeout`: what a job's event stream waits on.
    func waitForJobChange(id: Int64, timeout: Duration) async

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

    // MARK: The player's racket sounds (contact models learnt in the web app)
    /// Saves a learnt contact model and returns its new id.
    func saveContactModel(_ record: ContactModelRecord) async throws -> Int64
    /// Every stored contact model, newest first.
    func contactModels() async throws -> [ContactModelRecord]
    /// Contact model `id`, `nil` when there is none.
    func contactModel(id: Int64) async throws -> ContactModelRecord?
    /// Deletes contact model `id`; whether there was one.
    func removeContactModel(id: Int64) async throws -> Bool
}

/// A session about to be stored: its row, its shots, what it was measured on, and the builder of its
/// document, which runs inside the transaction once the new id is known (the document names it).
package struct NewSession: Sendable {
    package var record: SessionRecord
    package var shots: [ShotRecord]
    /// `nil` stores no track (the session cannot be edited then).
    package var track: SessionTrackRecord?
    /// Makes the document's text from the new id; when it throws, nothing is stored. `nil` stores none.
    package var document: (@Sendable (Int64) throws -> String)?

    package init(record: SessionRecord, shots: [ShotRecord], track: SessionTrackRecord? = nil,
                document: (@Sendable (Int64) throws -> String)? = nil) {
        self.record = record; self.shots = shots; self.track = track; self.document = document
    }
}

// Defaults and conveniences every store shares.
extension Store {
    /// Saves `record` with `shots` (and optionally its track and document builder) in one transaction.
    @discardableResult
    package func saveSession(_ record: SessionRecord, shots: [ShotRecord], track: SessionTrackRecord? = nil,
                            document: (@Sendable (Int64) throws -> String)? = nil) async throws -> Int64 {
        try await saveSession(NewSession(record: record, shots: shots, track: track, document: document))
    }
    /// Stores the dominant hand now.
    package func setDominantHand(_ hand: Hand) async throws { try await setDominantHand(hand, at: Date()) }
    /// The 20 newest jobs.
    package func recentJobs() async throws -> [JobRecord] { try await recentJobs(limit: 20) }
    /// The queue now.
    package func queueStatus() async throws -> QueueStatus { try await queueStatus(now: Date()) }
    /// Cancels a job now.
    package func cancelJob(id: Int64) async throws -> JobRecord? { try await cancelJob(id: id, now: Date()) }
    /// Every detection run of every model, newest first.
    package func detectionSessions(modelId: String? = nil) async throws -> [DetectionSessionRecord] {
        try await detectionSessions(modelId: modelId, limit: nil)
    }

    /// Marks or unmarks `id` as a favourite.
    package func setFavorite(_ isFavorite: Bool, id: String) async throws {
        try await updateModelRecord(id: id) { $0.isFavorite = isFavorite }
    }
    /// Hides or shows `id` in listings.
    package func setHidden(_ isHidden: Bool, id: String) async throws {
        try await updateModelRecord(id: id) { $0.isHidden = isHidden }
    }
    /// Sets (or with `nil`, clears) the per-model confidence and IoU thresholds.
    package func setThresholds(conf: Double?, iou: Double?, id: String) async throws {
        try await updateModelRecord(id: id) { $0.confThreshold = conf; $0.iouThreshold = iou }
    }
    /// Replaces the model's studio defaults; `nil` values fall back to the built-in defaults.
    package func setDefaults(conf: Double?, iou: Double?, maxDetections: Int?, lineWidth: Int?,
                            interpreter: String?, interpreterConfigJSON: String?, id: String) async throws {
        try await updateModelRecord(id: id) {
            $0.confThreshold = conf; $0.iouThreshold = iou; $0.maxDetections = maxDetections
            $0.lineWidth = lineWidth; $0.interpreter = interpreter; $0.interpreterConfigJSON = interpreterConfigJSON
        }
    }
    /// Counts one use of `id` at `date`.
    package func recordModelUse(id: String, at date: Date = Date()) async throws {
        try await updateModelRecord(id: id) { $0.usageCount += 1; $0.lastUsedAt = date }
    }
    /// Records that `id` was downloaded at `date`.
    package func recordDownload(id: String, at date: Date = Date()) async throws {
        try await updateModelRecord(id: id) { $0.downloadedAt = date }
    }
    /// Stores (or with `nil`, clears) the interpreter configuration JSON of `id`.
    package func setInterpreterConfig(_ json: String?, id: String) async throws {
        try await updateModelRecord(id: id) { $0.interpreterConfigJSON = json }
    }
}
