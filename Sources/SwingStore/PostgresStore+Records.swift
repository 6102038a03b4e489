import Foundation
import PostgresNIO
import SwingBiomech
import SwingCore

/// Rows to records and back. Columns are read by name (PostgreSQL folds the unquoted camelCase names of
/// the schema to lower case); JSON columns are read as text and decoded with the records' own Codable.
extension PostgresStore {
    static let sessionColumns = """
        id, filePath, fileName, fileSHA256, createdAt, durationSeconds, fps, hand, stats::text AS stats, documentJSON, revision
        """
    static let shotColumns = #"id, sessionId, shot::text AS shot, frames::text AS frames"#
    static let jobColumns = """
        id, state, stage, progress, error, errorCode, warningsJSON, sessionId, mediaSHA256, mediaPath, fileName, playbackPath,
        hand, start, duration, swingCheck, sensitivity, cancelRequested, workerId, heartbeatAt, createdAt, startedAt, finishedAt,
        leaseToken, leaseExpiresAt, attempts, expiries, runAfter, playerX, playerY, playerTime, contactModelId
        """
    static let modelColumns = """
        modelId, isFavorite, isHidden, confThreshold, iouThreshold, downloadedAt, lastUsedAt, usageCount, interpreterConfigJSON,
        maxDetections, lineWidth, interpreter
        """
    static let contactModelColumns = "id, name, createdAt, sessionId, contacts, f1, model"
    static let runColumns = "id, modelId, startedAt, endedAt, frameCount, detectionCount, averageInferenceMs, source, interpreter, summary"

    static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    static func decodeJSON<T: Decodable>(_ type: T.Type, _ text: String, _ what: String) throws -> T {
        do { return try JSONDecoder().decode(T.self, from: Data(text.utf8)) } catch {
            throw StoreError.databaseError("The stored \(what) is damaged: \(error).")
        }
    }

    static func session(_ row: PostgresRow) throws -> SessionRecord {
        let r = row.makeRandomAccess()
        let hand = try r["hand"].decode(String.self)
        var record = SessionRecord(
            filePath: try r["filepath"].decode(String.self), fileName: try r["filename"].decode(String.self),
            fileSHA256: try r["filesha256"].decode(String.self), createdAt: try r["createdat"].decode(Date.self),
            durationSeconds: try r["durationseconds"].decode(Double.self), fps: try r["fps"].decode(Double.self),
            hand: Hand(rawValue: hand) ?? .right,
            stats: try decodeJSON(SessionStats.self, try r["stats"].decode(String.self), "session statistics"),
            documentJSON: try r["documentjson"].decode(String?.self))
        record.id = try r["id"].decode(Int64.self)
        record.revision = try r["revision"].decode(Int.self)
        return record
    }

    static func shot(_ row: PostgresRow) throws -> ShotRecord {
        let r = row.makeRandomAccess()
        var record = ShotRecord(try decodeJSON(Shot.self, try r["shot"].decode(String.self), "shot"),
                                frames: try r["frames"].decode(String?.self).map { try decodeJSON([ShotFrame].self, $0, "shot frames") })
        record.id = try r["id"].decode(Int64.self)
        record.sessionId = try r["sessionid"].decode(Int64.self)
        return record
    }

    static func job(_ row: PostgresRow) throws -> JobRecord {
        let r = row.makeRandomAccess()
        var job = JobRecord(mediaSHA256: try r["mediasha256"].decode(String.self), mediaPath: try r["mediapath"].decode(String.self),
                            fileName: try r["filename"].decode(String.self), hand: try r["hand"].decode(String?.self),
                            start: try r["start"].decode(Double?.self), duration: try r["duration"].decode(Double?.self),
                            swingCheck: try r["swingcheck"].decode(Bool.self), sensitivity: try r["sensitivity"].decode(String?.self),
                            createdAt: try r["createdat"].decode(Date.self))
        job.id = try r["id"].decode(Int64.self)
        let state = try r["state"].decode(String.self)
        guard let s = JobState(rawValue: state) else { throw StoreError.databaseError("Job \(job.id ?? 0) has an unknown state '\(state)'.") }
        job.state = s
        job.stage = try r["stage"].decode(String?.self).flatMap(AnalysisStage.init(rawValue:))
        job.progress = try r["progress"].decode(Double.self)
        job.error = try r["error"].decode(String?.self)
        job.errorCode = try r["errorcode"].decode(Int?.self)
        job.warningsJSON = try r["warningsjson"].decode(String?.self)
        job.sessionId = try r["sessionid"].decode(Int64?.self)
        job.playbackPath = try r["playbackpath"].decode(String?.self)
        job.cancelRequested = try r["cancelrequested"].decode(Bool.self)
        job.workerId = try r["workerid"].decode(String?.self)
        job.heartbeatAt = try r["heartbeatat"].decode(Date?.self)
        job.startedAt = try r["startedat"].decode(Date?.self)
        job.finishedAt = try r["finishedat"].decode(Date?.self)
        job.leaseToken = try r["leasetoken"].decode(String?.self)
        job.leaseExpiresAt = try r["leaseexpiresat"].decode(Date?.self)
        job.attempts = try r["attempts"].decode(Int.self)
        job.expiries = try r["expiries"].decode(Int.self)
        job.runAfter = try r["runafter"].decode(Date?.self)
        job.playerX = try r["playerx"].decode(Double?.self)
        job.playerY = try r["playery"].decode(Double?.self)
        job.playerTime = try r["playertime"].decode(Double?.self)
        job.contactModelId = try r["contactmodelid"].decode(Int64?.self)
        return job
    }

    static func model(_ row: PostgresRow) throws -> ModelRecord {
        let r = row.makeRandomAccess()
        return ModelRecord(
            modelId: try r["modelid"].decode(String.self), isFavorite: try r["isfavorite"].decode(Bool.self),
            isHidden: try r["ishidden"].decode(Bool.self), confThreshold: try r["confthreshold"].decode(Double?.self),
            iouThreshold: try r["iouthreshold"].decode(Double?.self), downloadedAt: try r["downloadedat"].decode(Date?.self),
            lastUsedAt: try r["lastusedat"].decode(Date?.self), usageCount: try r["usagecount"].decode(Int.self),
            interpreterConfigJSON: try r["interpreterconfigjson"].decode(String?.self),
            maxDetections: try r["maxdetections"].decode(Int?.self), lineWidth: try r["linewidth"].decode(Int?.self),
            interpreter: try r["interpreter"].decode(String?.self))
    }

    static func run(_ row: PostgresRow) throws -> DetectionSessionRecord {
        let r = row.makeRandomAccess()
        return DetectionSessionRecord(
            id: try r["id"].decode(Int64.self), modelId: try r["modelid"].decode(String.self),
            startedAt: try r["startedat"].decode(Date.self), endedAt: try r["endedat"].decode(Date.self),
            frameCount: try r["framecount"].decode(Int.self), detectionCount: try r["detectioncount"].decode(Int.self),
            averageInferenceMs: try r["averageinferencems"].decode(Double.self), source: try r["source"].decode(String?.self),
            interpreter: try r["interpreter"].decode(String?.self), summary: try r["summary"].decode(String?.self))
    }

    static func contactModel(_ row: PostgresRow) throws -> ContactModelRecord {
        let r = row.makeRandomAccess()
        return ContactModelRecord(
            id: try r["id"].decode(Int64.self), name: try r["name"].decode(String.self), createdAt: try r["createdat"].decode(Date.self),
            sessionId: try r["sessionid"].decode(Int64?.self), contacts: try r["contacts"].decode(Int.self),
            f1: try r["f1"].decode(Double.self), model: try r["model"].decode(String.self))
    }

    /// Every row `query` returns, made into records by `make`.
    func all<T>(_ connection: PostgresConnection, _ query: PostgresQuery, _ make: (PostgresRow) throws -> T) async throws -> [T] {
        var out: [T] = []
        for try await row in try await connection.query(query, logger: logger) { out.append(try make(row)) }
        return out
    }
}
