import Foundation
import PostgresNIO
import SwingBiomech
import SwingCore

// MARK: The player and sessions

extension PostgresStore {
    package func dominantHand() async throws -> Hand? {
        try await run("read the player profile") { c in
            let rows = try await c.query("SELECT dominantHand FROM player ORDER BY id LIMIT 1", logger: logger)
            for try await hand in rows.decode(String.self) { return Hand(rawValue: hand) }
            return nil
        }
    }

    package func setDominantHand(_ hand: Hand, at date: Date) async throws {
        try await transaction("save the player profile") { c in
            let updated = try await all(c, "UPDATE player SET dominantHand = \(hand.rawValue) WHERE id = (SELECT MIN(id) FROM player) RETURNING id") {
                try $0.decode(Int64.self)
            }
            if updated.isEmpty {
                try await c.query("INSERT INTO player (dominantHand, createdAt) VALUES (\(hand.rawValue), \(date))", logger: logger)
            }
        }
    }

    package func saveSession(_ new: NewSession) async throws -> Int64 {
        try await transaction("save the session") { c in try await self.insert(new, c) }
    }

    /// Inserts `new` inside an open transaction and returns its id.
    func insert(_ new: NewSession, _ c: PostgresConnection) async throws -> Int64 {
        let r = new.record
        let stats = try Self.json(r.stats)
        let ids = try await all(c, """
            INSERT INTO session (filePath, fileName, fileSHA256, createdAt, durationSeconds, fps, hand, stats, documentJSON, revision)
            VALUES (\(r.filePath), \(r.fileName), \(r.fileSHA256), \(r.createdAt), \(r.durationSeconds), \(r.fps), \(r.hand.rawValue),
                    \(stats)::jsonb, \(r.documentJSON), 0)
            RETURNING id
            """) { try $0.decode(Int64.self) }
        guard let id = ids.first else { throw StoreError.databaseError("The session was not given an id.") }
        try await insert(new.shots, sessionId: id, c)
        if let track = new.track { try await upsert(track, sessionId: id, c) }
        if let document = new.document {
            let text = try document(id)
            try await c.query("UPDATE session SET documentJSON = \(text) WHERE id = \(id)", logger: logger)
        }
        return id
    }

    private func insert(_ shots: [ShotRecord], sessionId: Int64, _ c: PostgresConnection) async throws {
        for shot in shots {
            let json = try Self.json(shot.shot)
            let frames = try shot.frames.map { try Self.json($0) }
            try await c.query("INSERT INTO shot (sessionId, shot, frames) VALUES (\(sessionId), \(json)::jsonb, \(frames)::jsonb)", logger: logger)
        }
    }

    private func upsert(_ track: SessionTrackRecord, sessionId: Int64, _ c: PostgresConnection) async throws {
        let frames = try Self.json(track.videoFrames)
        try await c.query("""
            INSERT INTO sessionTrack (sessionId, track, videoFrames, poseToDisplayX, poseToDisplayY, parameters)
            VALUES (\(sessionId), \(track.track), \(frames), \(track.poseToDisplayX), \(track.poseToDisplayY), \(track.parameters))
            ON CONFLICT (sessionId) DO UPDATE SET track = EXCLUDED.track, videoFrames = EXCLUDED.videoFrames,
                poseToDisplayX = EXCLUDED.poseToDisplayX, poseToDisplayY = EXCLUDED.poseToDisplayY, parameters = EXCLUDED.parameters
            """, logger: logger)
    }

    package func replaceSession(id: Int64, revision: Int, stats: SessionStats, shots: [ShotRecord], track: SessionTrackRecord,
                               document: @escaping @Sendable () throws -> String) async throws {
        try await transaction("store the edited session \(id)") { c in
            let stored = try await all(c, "SELECT revision FROM session WHERE id = \(id) FOR UPDATE") { try $0.decode(Int.self) }
            guard let current = stored.first else {
                throw StoreError.notFound("There is no session with id \(id) (see `swingmaster sessions list`).")
            }
            guard current == revision else {
                throw StoreError.conflict("Session \(id) changed while this edit was being made; reload it and edit again.")
            }
            try await c.query("DELETE FROM shot WHERE sessionId = \(id)", logger: logger)
            try await insert(shots, sessionId: id, c)
            try await upsert(track, sessionId: id, c)
            let text = try document()
            let json = try Self.json(stats)
            try await c.query("UPDATE session SET stats = \(json)::jsonb, revision = \(revision + 1), documentJSON = \(text) WHERE id = \(id)",
                              logger: logger)
        }
    }

    package func sessions() async throws -> [SessionRecord] {
        try await run("list the sessions") { c in
            try await all(c, "SELECT \(unescaped: Self.sessionColumns) FROM session ORDER BY createdAt DESC, id DESC", Self.session)
        }
    }

    package func session(id: Int64) async throws -> SessionDetail? {
        try await run("read session \(id)") { c in
            guard let session = try await all(c, "SELECT \(unescaped: Self.sessionColumns) FROM session WHERE id = \(id)", Self.session).first else {
                return nil
            }
            let shots = try await all(c, "SELECT \(unescaped: Self.shotColumns) FROM shot WHERE sessionId = \(id) ORDER BY \"index\"", Self.shot)
            return SessionDetail(session: session, shots: shots)
        }
    }

    package func sessionRecord(id: Int64) async throws -> SessionRecord? {
        try await run("read session \(id)") { c in
            try await all(c, "SELECT \(unescaped: Self.sessionColumns) FROM session WHERE id = \(id)", Self.session).first
        }
    }

    package func sessionTrack(id: Int64) async throws -> SessionTrackRecord? {
        try await run("read the pose track of session \(id)") { c in
            try await all(c, """
                SELECT sessionId, track, videoFrames, poseToDisplayX, poseToDisplayY, parameters FROM sessionTrack WHERE sessionId = \(id)
                """) { row in
                let r = row.makeRandomAccess()
                return SessionTrackRecord(
                    sessionId: try r["sessionid"].decode(Int64.self), track: try r["track"].decode(Data.self),
                    videoFrames: try Self.decodeJSON([Int].self, try r["videoframes"].decode(String.self), "pose track's frames"),
                    poseToDisplayX: try r["posetodisplayx"].decode(Double.self), poseToDisplayY: try r["posetodisplayy"].decode(Double.self),
                    parameters: try r["parameters"].decode(String.self))
            }.first
        }
    }

    package func shot(sessionId: Int64, index: Int) async throws -> ShotRecord? {
        try await run("read shot \(index) of session \(sessionId)") { c in
            try await all(c, "SELECT \(unescaped: Self.shotColumns) FROM shot WHERE sessionId = \(sessionId) AND \"index\" = \(index)", Self.shot).first
        }
    }

    package func deleteSession(id: Int64) async throws {
        try await transaction("delete session \(id)") { c in
            let deleted = try await all(c, "DELETE FROM session WHERE id = \(id) RETURNING id") { try $0.decode(Int64.self) }
            guard !deleted.isEmpty else {
                throw StoreError.notFound("There is no session with id \(id) (see `swingmaster sessions list`).")
            }
        }
    }
}

// MARK: The model catalog's records

extension PostgresStore {
    package func modelRecord(id: String) async throws -> ModelRecord? {
        try await run("read the record of model \(id)") { c in
            try await all(c, "SELECT \(unescaped: Self.modelColumns) FROM modelRecord WHERE modelId = \(id)", Self.model).first
        }
    }

    package func allModelRecords() async throws -> [ModelRecord] {
        try await run("read the model records") { c in
            try await all(c, """
                SELECT \(unescaped: Self.modelColumns) FROM modelRecord
                ORDER BY isFavorite DESC, lastUsedAt IS NULL, lastUsedAt DESC, modelId
                """, Self.model)
        }
    }

    package func updateModelRecord(id: String, _ change: @escaping @Sendable (inout ModelRecord) -> Void) async throws {
        try await transaction("update the record of model \(id)") { c in
            // Lock the row if it exists, or take the row's place (two first writers of one model wait in turn).
            try await c.query("INSERT INTO modelRecord (modelId) VALUES (\(id)) ON CONFLICT (modelId) DO NOTHING", logger: logger)
            var record = try await all(c, "SELECT \(unescaped: Self.modelColumns) FROM modelRecord WHERE modelId = \(id) FOR UPDATE", Self.model)
                .first ?? ModelRecord(modelId: id)
            change(&record)
            try await c.query("""
                UPDATE modelRecord SET isFavorite = \(record.isFavorite), isHidden = \(record.isHidden),
                    confThreshold = \(record.confThreshold), iouThreshold = \(record.iouThreshold),
                    downloadedAt = \(record.downloadedAt), lastUsedAt = \(record.lastUsedAt), usageCount = \(record.usageCount),
                    interpreterConfigJSON = \(record.interpreterConfigJSON), maxDetections = \(record.maxDetections),
                    lineWidth = \(record.lineWidth), interpreter = \(record.interpreter)
                WHERE modelId = \(id)
                """, logger: logger)
        }
    }

    package func removeModelRecord(id: String) async throws -> Bool {
        try await run("remove the record of model \(id)") { c in
            try await !all(c, "DELETE FROM modelRecord WHERE modelId = \(id) RETURNING modelId") { try $0.decode(String.self) }.isEmpty
        }
    }

    package func saveDetectionSession(_ s: DetectionSessionRecord) async throws -> Int64 {
        try await run("save the detection session") { c in
            let ids = try await all(c, """
                INSERT INTO detectionSession (modelId, startedAt, endedAt, frameCount, detectionCount, averageInferenceMs, source, interpreter, summary)
                VALUES (\(s.modelId), \(s.startedAt), \(s.endedAt), \(s.frameCount), \(s.detectionCount), \(s.averageInferenceMs),
                        \(s.source), \(s.interpreter), \(s.summary))
                RETURNING id
                """) { try $0.decode(Int64.self) }
            guard let id = ids.first else { throw StoreError.databaseError("The detection session was not given an id.") }
            return id
        }
    }

    package func detectionSessions(modelId: String?, limit: Int?) async throws -> [DetectionSessionRecord] {
        try await run("read the detection sessions") { c in
            try await all(c, """
                SELECT \(unescaped: Self.runColumns) FROM detectionSession
                WHERE \(modelId)::text IS NULL OR modelId = \(modelId)
                ORDER BY startedAt DESC, id DESC LIMIT \(limit)
                """, Self.run)
        }
    }

    package func saveContactModel(_ m: ContactModelRecord) async throws -> Int64 {
        try await run("save the racket sound") { c in
            let ids = try await all(c, """
                INSERT INTO contactModel (name, createdAt, sessionId, contacts, f1, model)
                VALUES (\(m.name), \(m.createdAt), \(m.sessionId), \(m.contacts), \(m.f1), \(m.model))
                RETURNING id
                """) { try $0.decode(Int64.self) }
            guard let id = ids.first else { throw StoreError.databaseError("The racket sound was not given an id.") }
            return id
        }
    }

    package func contactModels() async throws -> [ContactModelRecord] {
        try await run("read the racket sounds") { c in
            try await all(c, "SELECT \(unescaped: Self.contactModelColumns) FROM contactModel ORDER BY createdAt DESC, id DESC",
                          Self.contactModel)
        }
    }

    package func contactModel(id: Int64) async throws -> ContactModelRecord? {
        try await run("read racket sound \(id)") { c in
            try await all(c, "SELECT \(unescaped: Self.contactModelColumns) FROM contactModel WHERE id = \(id)", Self.contactModel).first
        }
    }

    package func removeContactModel(id: Int64) async throws -> Bool {
        try await run("delete racket sound \(id)") { c in
            try await !all(c, "DELETE FROM contactModel WHERE id = \(id) RETURNING id") { try $0.decode(Int64.self) }.isEmpty
        }
    }
}

