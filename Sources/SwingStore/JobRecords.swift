import Foundation
import GRDB
import SwingCore

/// A job's stage is stored as its raw value; the schema's CHECK lists the same values.
extension AnalysisStage: DatabaseValueConvertible {}

/// A job's state is stored as its raw value; the schema's CHECK lists the same values.
extension JobState: DatabaseValueConvertible {}

/// One analysis job (`job` table). Workers — threads of `swingmaster serve` or `swingmaster worker`
/// processes on any machine — claim queued rows with a **lease** (a token and an expiry), renew it with
/// each heartbeat, write progress into the row and learn of cancellation from `cancelRequested`. Only the
/// holder of the current token can finish the job, so a worker that wakes up after its lease ran out (and
/// another took the job) cannot store a second session. The web pages learn everything from the row, so it
/// does not matter which process did the work.
package struct JobRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    package static let databaseTableName = "job"
    package var id: Int64?
    package var state: JobState
    /// The stage the analysis reported last; `nil` before it starts (and after a re-queue).
    package var stage: AnalysisStage?
    /// Progress of the current stage, 0…1.
    package var progress: Double
    /// The sentence a failed job ends with, and its status code (the CLI's exit code).
    package var error: String?
    package var errorCode: Int?
    /// Non-fatal remarks about the media (e.g. below 720p), as a JSON array of sentences.
    package var warningsJSON: String?
    /// The session a done job stored.
    package var sessionId: Int64?
    /// The uploaded file: its SHA-256, where it is stored, and its name as uploaded.
    package var mediaSHA256: String
    package var mediaPath: String
    package var fileName: String
    /// A browser-playable copy made by the job when the original is not (e.g. HEVC `.mov`).
    package var playbackPath: String?
    /// `right` / `left`; `nil` uses the stored preference.
    package var hand: String?
    /// Part of the media to analyse, seconds.
    package var start: Double?
    package var duration: Double?
    /// Whether a heard contact needs a swing to be a shot (`analyze --no-swing-check` when false).
    package var swingCheck: Bool = true
    /// How readily a sound counts as a hit (`fewer`, `more`); `nil` is normal.
    package var sensitivity: String?
    /// Where the player said they are (the upload page's picker, `player=X,Y@SECONDS`): fractions of the
    /// picture across and down from its top-left, and the moment of the video (seconds) they tapped; all `nil`
    /// when they did not (the pose stage chooses). The store refuses a point outside the picture, half a point,
    /// or a moment without a point.
    package var playerX: Double?
    package var playerY: Double?
    package var playerTime: Double?
    /// The player's racket sound (``ContactModelRecord``) to hear the hits with; `nil` uses the detector.
    package var contactModelId: Int64?
    /// Set by `DELETE /api/jobs/{id}` while the job runs; the worker stops and marks it cancelled.
    package var cancelRequested: Bool
    /// The worker that claimed the job and when it last reported (a stale heartbeat means it died).
    package var workerId: String?
    package var heartbeatAt: Date?
    /// The current claim's token (`nil` unless running): only its holder may finish the job.
    package var leaseToken: String?
    /// When the current claim runs out unless renewed; after that any worker may take the job again.
    package var leaseExpiresAt: Date?
    /// How many times the job was claimed (a graceful release does not count).
    package var attempts: Int = 0
    /// How many of those claims ended with the lease running out (the worker died or stalled).
    package var expiries: Int = 0
    /// A job put back after a failure waits until then (backoff); `nil` runs at once.
    package var runAfter: Date?
    package var createdAt: Date
    package var startedAt: Date?
    package var finishedAt: Date?

    /// Claims a job may have; a job whose lease runs out on the last one fails with a sentence.
    package static let maxAttempts = 3

    /// Seconds a retried job waits after its `attempts`-th claim failed: 2, 4, 8 … up to a minute.
    package static func backoff(afterAttempt attempts: Int) -> Double { min(60, pow(2, Double(max(1, attempts)))) }

    /// This job's lease, when it is claimed.
    package var lease: JobLease? {
        guard state == .running, let id, let leaseToken else { return nil }
        return JobLease(jobId: id, token: leaseToken)
    }

    package enum Columns {
        package static let id = Column(CodingKeys.id)
        package static let state = Column(CodingKeys.state)
        package static let createdAt = Column(CodingKeys.createdAt)
        package static let mediaSHA256 = Column(CodingKeys.mediaSHA256)
        package static let heartbeatAt = Column(CodingKeys.heartbeatAt)
    }

    /// A queued job for an uploaded file.
    package init(mediaSHA256: String, mediaPath: String, fileName: String, hand: String?, start: Double?,
                duration: Double?, swingCheck: Bool = true, sensitivity: String? = nil,
                player: (x: Double, y: Double, time: Double?)? = nil, contactModelId: Int64? = nil, warnings: [String] = [],
                createdAt: Date = Date()) {
        id = nil; state = .queued; stage = nil; progress = 0; error = nil; errorCode = nil
        warningsJSON = warnings.isEmpty ? nil : (try? String(decoding: JSONEncoder().encode(warnings), as: UTF8.self))
        sessionId = nil; self.mediaSHA256 = mediaSHA256; self.mediaPath = mediaPath; self.fileName = fileName
        playbackPath = nil; self.hand = hand; self.start = start; self.duration = duration; cancelRequested = false
        self.swingCheck = swingCheck; self.sensitivity = sensitivity
        playerX = player?.x; playerY = player?.y; playerTime = player?.time
        self.contactModelId = contactModelId
        workerId = nil; heartbeatAt = nil; self.createdAt = createdAt; startedAt = nil; finishedAt = nil
    }

    /// The warnings as sentences.
    package var warnings: [String] {
        warningsJSON.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
    }

    package mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A worker's hold on a claimed job: the job and the token its claim was given.
package struct JobLease: Sendable, Equatable, Hashable {
    package let jobId: Int64
    package let token: String
    package init(jobId: Int64, token: String) { self.jobId = jobId; self.token = token }
}

/// What a heartbeat learned about the lease it renewed.
package enum LeaseState: Sendable, Equatable {
    /// Still held (and renewed).
    case held
    /// Still held, and someone asked to cancel the job: stop and finish it as `cancelled`.
    case cancelRequested
    /// No longer held: the lease ran out and another worker took the job, or the job was finished. Stop
    /// without writing anything.
    case lost
}

/// The queue at a glance (`GET /metrics`).
package struct QueueStatus: Sendable, Equatable {
    /// Jobs waiting to run.
    package var queued: Int
    /// Seconds the oldest of them has waited (0 when none does).
    package var oldestQueuedSeconds: Double
    /// Claims that ended with the lease running out, over every job the store holds.
    package var leaseExpiries: Int
    /// Claims after a job's first (after an expired lease or a failure that is retried).
    package var retries: Int
    package init(queued: Int, oldestQueuedSeconds: Double, leaseExpiries: Int, retries: Int) {
        self.queued = queued; self.oldestQueuedSeconds = oldestQueuedSeconds
        self.leaseExpiries = leaseExpiries; self.retries = retries
    }
}
