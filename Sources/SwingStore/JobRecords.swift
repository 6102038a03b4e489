import Foundation
import GRDB
import SwingCore

/// A job's stage is stored as its raw value; the schema's CHECK lists the same values.
extension AnalysisStage: DatabaseValueConvertible {}

/// Where an analysis job is. `queued` → `running` → `done` | `failed` | `cancelled`; a running job whose
/// worker stopped (shutdown, crash) goes back to `queued`.
public enum JobState: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
    case queued, running, done, failed, cancelled

    /// Whether the job will not change any more.
    public var isFinal: Bool { self == .done || self == .failed || self == .cancelled }
}

/// One analysis job (`job` table). Workers — threads of `swingmaster serve` today, `swingmaster worker`
/// processes on other machines later — claim queued rows, write progress and a heartbeat into them, and
/// learn of cancellation from `cancelRequested`; the web pages learn everything from the row, so it does
/// not matter which process did the work.
public struct JobRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "job"
    public var id: Int64?
    public var state: JobState
    /// The stage the analysis reported last; `nil` before it starts (and after a re-queue).
    public var stage: AnalysisStage?
    /// Progress of the current stage, 0…1.
    public var progress: Double
    /// The sentence a failed job ends with, and its status code (the CLI's exit code).
    public var error: String?
    public var errorCode: Int?
    /// Non-fatal remarks about the media (e.g. below 720p), as a JSON array of sentences.
    public var warningsJSON: String?
    /// The session a done job stored.
    public var sessionId: Int64?
    /// The uploaded file: its SHA-256, where it is stored, and its name as uploaded.
    public var mediaSHA256: String
    public var mediaPath: String
    public var fileName: String
    /// A browser-playable copy made by the job when the original is not (e.g. HEVC `.mov`).
    public var playbackPath: String?
    /// `right` / `left`; `nil` uses the stored preference.
    public var hand: String?
    /// Part of the media to analyse, seconds.
    public var start: Double?
    public var duration: Double?
    /// Whether a heard contact needs a swing to be a shot (`analyze --no-swing-check` when false).
    public var swingCheck: Bool = true
    /// How readily a sound counts as a hit (`fewer`, `more`); `nil` is normal.
    public var sensitivity: String?
    /// Set by `DELETE /api/jobs/{id}` while the job runs; the worker stops and marks it cancelled.
    public var cancelRequested: Bool
    /// The worker that claimed the job and when it last reported (a stale heartbeat means it died).
    public var workerId: String?
    public var heartbeatAt: Date?
    public var createdAt: Date
    public var startedAt: Date?
    public var finishedAt: Date?

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let state = Column(CodingKeys.state)
        public static let createdAt = Column(CodingKeys.createdAt)
        public static let mediaSHA256 = Column(CodingKeys.mediaSHA256)
        public static let heartbeatAt = Column(CodingKeys.heartbeatAt)
    }

    /// A queued job for an uploaded file.
    public init(mediaSHA256: String, mediaPath: String, fileName: String, hand: String?, start: Double?,
                duration: Double?, swingCheck: Bool = true, sensitivity: String? = nil, warnings: [String] = [],
                createdAt: Date = Date()) {
        id = nil; state = .queued; stage = nil; progress = 0; error = nil; errorCode = nil
        warningsJSON = warnings.isEmpty ? nil : (try? String(decoding: JSONEncoder().encode(warnings), as: UTF8.self))
        sessionId = nil; self.mediaSHA256 = mediaSHA256; self.mediaPath = mediaPath; self.fileName = fileName
        playbackPath = nil; self.hand = hand; self.start = start; self.duration = duration; cancelRequested = false
        self.swingCheck = swingCheck; self.sensitivity = sensitivity
        workerId = nil; heartbeatAt = nil; self.createdAt = createdAt; startedAt = nil; finishedAt = nil
    }

    /// The warnings as sentences.
    public var warnings: [String] {
        warningsJSON.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
