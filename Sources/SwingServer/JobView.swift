import Foundation
import SwingStore

/// `JOB` of the HTTP API: `{"id", "state", "stage", "stageName", "progress", "sessionId", "error", …}`.
public struct JobView: Codable, Sendable, Equatable {
    public var id: Int64
    public var state: JobState
    /// 0 before the analysis starts, then 1…4.
    public var stage: Int
    public var stageName: String?
    public var progress: Double
    public var sessionId: Int64?
    public var error: String?
    /// The CLI's exit code for `error`.
    public var errorCode: Int?
    public var warnings: [String]
    public var file: String
    public var createdAt: Date
    public var startedAt: Date?
    public var finishedAt: Date?

    /// The four stages as the pages name them, in order.
    public static let stageNames = ["Extracting audio", "Detecting contacts", "Running body pose", "Computing statistics"]

    public init(_ job: JobRecord) {
        id = job.id ?? 0; state = job.state; stage = job.stage
        stageName = job.stage >= 1 && job.stage <= 4 ? Self.stageNames[job.stage - 1] : nil
        progress = job.progress; sessionId = job.sessionId; error = job.error; errorCode = job.errorCode
        warnings = job.warnings; file = job.fileName; createdAt = job.createdAt; startedAt = job.startedAt
        finishedAt = job.finishedAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, state, stage, stageName, progress, sessionId, error, errorCode, warnings, file, createdAt, startedAt, finishedAt
    }

    /// Writes every key, with `null` for what is not known yet: the contract names `sessionId` and
    /// `error` as `n|null`, so a page can test for them without guessing whether a key is missing.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(state, forKey: .state); try c.encode(stage, forKey: .stage)
        try c.encode(stageName, forKey: .stageName); try c.encode(progress, forKey: .progress)
        try c.encode(sessionId, forKey: .sessionId); try c.encode(error, forKey: .error)
        try c.encode(errorCode, forKey: .errorCode); try c.encode(warnings, forKey: .warnings)
        try c.encode(file, forKey: .file); try c.encode(createdAt, forKey: .createdAt)
        try c.encode(startedAt, forKey: .startedAt); try c.encode(finishedAt, forKey: .finishedAt)
    }
}
