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
}
