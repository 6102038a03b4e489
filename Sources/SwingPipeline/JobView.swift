import Foundation
import SwingCore
import SwingStore

/// `JOB` of the HTTP API: `{"id", "state", "stage", "stageName", "progress", "sessionId", "error", …}`.
package struct JobView: Codable, Sendable, Equatable {
    package var id: Int64
    package var state: JobState
    /// 0 before the analysis starts, then 1…4: the position of the job's ``AnalysisStage`` in ``stages``.
    package var stage: Int
    /// The stage's ``AnalysisStage/title``.
    package var stageName: String?
    package var progress: Double
    package var sessionId: Int64?
    package var error: String?
    /// The CLI's exit code for `error`.
    package var errorCode: Int?
    package var warnings: [String]
    package var file: String
    package var createdAt: Date
    package var startedAt: Date?
    package var finishedAt: Date?
    /// Where the player said they are (`player=X,Y@SECONDS` of the upload) in its text form, `null` when they
    /// did not say.
    package var player: String?
    /// The racket sound (``RacketSound``) the upload asked to be heard with, `null` for the detector.
    package var racketSound: Int64?

    /// The stages a job runs (the server analyses from the sound alone), numbered from 1 in this order.
    package static let stages: [AnalysisStage] = JobRunner.stages

    /// The number of `stage` as jobs report it (0 for none, or a stage jobs do not run).
    package static func number(of stage: AnalysisStage?) -> Int {
        stage.flatMap { stages.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
    }

    package init(_ job: JobRecord) {
        id = job.id ?? 0; state = job.state; stage = Self.number(of: job.stage)
        stageName = stage > 0 ? job.stage?.title : nil
        progress = job.progress; sessionId = job.sessionId; error = job.error; errorCode = job.errorCode
        warnings = job.warnings; file = job.fileName; createdAt = job.createdAt; startedAt = job.startedAt
        finishedAt = job.finishedAt
        player = job.playerMark?.description
        racketSound = job.contactModelId
    }

    private enum CodingKeys: String, CodingKey {
        case id, state, stage, stageName, progress, sessionId, error, errorCode, warnings, file, createdAt, startedAt, finishedAt
        case player, racketSound
    }

    /// Writes every key, with `null` for what is not known yet: the contract names `sessionId` and
    /// `error` as `n|null`, so a page can test for them without guessing whether a key is missing.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(state, forKey: .state); try c.encode(stage, forKey: .stage)
        try c.encode(stageName, forKey: .stageName); try c.encode(progress, forKey: .progress)
        try c.encode(sessionId, forKey: .sessionId); try c.encode(error, forKey: .error)
        try c.encode(errorCode, forKey: .errorCode); try c.encode(warnings, forKey: .warnings)
        try c.encode(file, forKey: .file); try c.encode(createdAt, forKey: .createdAt)
        try c.encode(startedAt, forKey: .startedAt); try c.encode(finishedAt, forKey: .finishedAt)
        try c.encode(player, forKey: .player); try c.encode(racketSound, forKey: .racketSound)
    }
}
