import Foundation
import GRDB
import SwingBiomech
import SwingCore

/// Player profile and analysed sessions (issue 5).
extension AppDatabase {
    /// The stored dominant hand, or `nil` if the player was never asked.
    /// - Throws: ``StoreError/databaseError(_:)``.
    package func dominantHand() async throws -> Hand? {
        try await read("read the player profile") { db in
            try PlayerRecord.order(Column("id")).fetchOne(db)?.dominantHand
        }
    }

    /// Stores the dominant hand (creating the profile on first call).
    /// - Throws: ``StoreError/databaseError(_:)``.
    package func setDominantHand(_ hand: Hand, at date: Date) async throws {
        try await write("save the player profile") { db in
            if var player = try PlayerRecord.order(Column("id")).fetchOne(db) {
                player.dominantHand = hand
                try player.update(db)
            } else {
                var player = PlayerRecord(id: nil, dominantHand: hand, createdAt: date)
                try player.insert(db)
            }
        }
    }

    /// Saves a session with its shots, track and document in **one transaction**: if any insert fails (or
    /// the document builder throws), nothing is stored.
    /// - Returns: The new session id.
    /// - Throws: ``StoreError/databaseError(_:)`` (e.g. two shots with the same index), or what the
    ///   document builder throws.
    package func saveSession(_ new: NewSession) async throws -> Int64 {
        try await write("save the session") { db in try Self.insert(new, db: db) }
    }

    /// Inserts `new` inside an open transaction and returns its id.
    static func insert(_ new: NewSession, db: Database) throws -> Int64 {
        var row = new.record
        row.id = nil
        row.revision = 0
        try row.insert(db)
        guard let sessionId = row.id else { throw StoreError.databaseError("The session was not given an id.") }
        try insert(new.shots, sessionId: sessionId, db: db)
        if var track = new.track {
            track.sessionId = sessionId
            try track.insert(db)
        }
        if let document = new.document {
            row.documentJSON = try document(sessionId)
            try row.update(db, columns: ["documentJSON"])
        }
        return sessionId
    }

    /// Stores a new version of session `id` after an edit, in **one transaction**: its statistics, its
    /// shots (all replaced), its track and its document, and the revision one higher. It succeeds only while
    /// the stored revision is still `revision`, so of two edits made on the same version one is refused.
    /// - Throws: ``StoreError/notFound(_:)`` when the session is gone, ``StoreError/conflict(_:)`` when it
    ///   changed since `revision` was read, ``StoreError/databaseError(_:)``.
    package func replaceSession(id: Int64, revision: Int, stats: SessionStats, shots: [ShotRecord],
                               track: SessionTrackRecord, document: @escaping @Sendable () throws -> String) async throws {
        try await write("store the edited session \(id)") { db in
            guard var row = try SessionRecord.fetchOne(db, key: id) else {
                throw StoreError.notFound("There is no session with id \(id) (see `swingmaster sessions list`).")
            }
            guard row.revision == revision else {
                throw StoreError.conflict("Session \(id) changed while this edit was being made; reload it and edit again.")
            }
            try ShotRecord.filter(ShotRecord.Columns.sessionId == id).deleteAll(db)
            try Self.insert(shots, sessionId: id, db: db)
            var t = track
            t.sessionId = id
            try t.save(db)
            row.stats = stats
            row.revision = revision + 1
            row.documentJSON = try document()
            try row.update(db)
        }
    }

    /// What session `id` was measured on, `nil` when it was stored before tracks were kept (or is gone).
    /// - Throws: ``StoreError/databaseError(_:)``.
    package func sessionTrack(id: Int64) async throws -> SessionTrackRecord? {
        try await read("read the pose track of session \(id)") { db in try SessionTrackRecord.fetchOne(db, key: id) }
    }

    private static func insert(_ shots: [ShotRecord], sessionId: Int64, db: Database) throws {
        for shot in shots {
            var record = shot
            record.id = nil
            record.sessionId = sessionId
            try record.insert(db)
        }
    }

    /// Every session, newest first (ties by id, newest first).
    package func sessions() async throws -> [SessionRecord] {
        try await read("list the sessions") { db in
            try SessionRecord.order(SessionRecord.Columns.createdAt.desc, SessionRecord.Columns.id.desc).fetchAll(db)
        }
    }

    /// A session with its shots, or `nil` if there is no session `id`.
    package func session(id: Int64) async throws -> SessionDetail? {
        try await read("read session \(id)") { db in
            guard let session = try SessionRecord.fetchOne(db, key: id) else { return nil }
            let shots = try ShotRecord
                .filter(ShotRecord.Columns.sessionId == id)
                .order(ShotRecord.Columns.index)
                .fetchAll(db)
            return SessionDetail(session: session, shots: shots)
        }
    }

    /// The session row alone (no shots), or `nil` if there is no session `id`.
    package func sessionRecord(id: Int64) async throws -> SessionRecord? {
        try await read("read session \(id)") { db in try SessionRecord.fetchOne(db, key: id) }
    }

    /// Shot `index` (1-based) of session `sessionId`, or `nil` if there is no such shot.
    package func shot(sessionId: Int64, index: Int) async throws -> ShotRecord? {
        try await read("read shot \(index) of session \(sessionId)") { db in
            try ShotRecord
                .filter(ShotRecord.Columns.sessionId == sessionId && ShotRecord.Columns.index == index)
                .fetchOne(db)
        }
    }

    /// Deletes a session and (by cascade) its shots.
    /// - Throws: ``StoreError/notFound(_:)`` if there is no session `id`.
    package func deleteSession(id: Int64) async throws {
        try await write("delete session \(id)") { db in
            guard try SessionRecord.deleteOne(db, key: id) else {
                throw StoreError.notFound("There is no session with id \(id) (see `swingmaster sessions list`).")
            }
        }
    }
}
