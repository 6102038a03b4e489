import Foundation
import GRDB
import SwingCore
import Testing
@testable import SwingStore

/// Migration "v2-shot-source": shots remember where their contact came from (`analyze --detector`).
@Suite struct ShotSourceTests {
    @Test func sourcesRoundTripAndAudioOnlyShotsHaveNone() throws {
        let db = try AppDatabase.empty()
        let shots = [
            ShotRecord(index: 1, time: 1.2, confidence: 0.93, status: .ok, source: .both, visualOffsetMs: -99.1),
            ShotRecord(index: 2, time: 3.2, confidence: 0.66, status: .ok, source: .audio),
            ShotRecord(index: 3, time: 5.1, confidence: 0.81, status: .noPerson, source: .visual),
            ShotRecord(index: 4, time: 7.0, confidence: 0.5, status: .ok),
        ]
        let id = try db.saveSession(SessionStoreTests.newSession("fused.mp4", at: 1_700_000_000), shots: shots)
        let stored = try #require(try db.session(id: id)).shots
        #expect(stored.map(\.source) == [.both, .audio, .visual, nil])
        #expect(stored.map(\.visualOffsetMs) == [-99.1, nil, nil, nil])
    }

    /// The types cannot hold other values; the schema refuses them from any other writer (a worker
    /// process of another version, a hand-edited row).
    @Test(arguments: [("status", "'maybe'"), ("classification", "'sideways'"), ("source", "'telepathy'")])
    func theSchemaRefusesValuesOutsideTheEnums(column: String, value: String) throws {
        let db = try AppDatabase.empty()
        let id = try db.saveSession(SessionStoreTests.newSession("a.mp4", at: 1_700_000_000), shots: [])
        #expect(throws: (any Error).self) {
            try db.dbWriter.write { db in
                try db.execute(sql: """
                    INSERT INTO shot (sessionId, "index", time, confidence, status) VALUES (?, 1, 1, 0.5, 'ok')
                    """, arguments: [id])
                try db.execute(sql: "UPDATE shot SET \(column) = \(value)")
            }
        }
        #expect(try db.session(id: id)?.shots.isEmpty == true)
    }

    @Test func aVersionOneDatabaseMigratesWithItsShotsIntact() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v1")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO session (filePath, fileName, fileSHA256, createdAt, durationSeconds, fps, hand, statsJSON, shotCount)
                VALUES ('/v/old.mp4', 'old.mp4', 'ab', '2026-01-01 10:00:00.000', 12, 10, 'right', '{}', 1)
                """)
            try db.execute(sql: """
                INSERT INTO shot (sessionId, "index", time, confidence, status, contactFrame) VALUES (1, 1, 2.0, 0.9, 'ok', 60)
                """)
        }
        let db = try AppDatabase(queue)   // runs the later migrations
        let detail = try #require(try db.session(id: 1))
        #expect(detail.shots.count == 1 && detail.shots[0].time == 2.0 && detail.shots[0].status == .ok)
        #expect(detail.shots[0].contactVideoFrame == 60)   // the v1 column `contactFrame`, renamed
        #expect(detail.shots[0].source == nil && detail.shots[0].visualOffsetMs == nil)
        #expect(detail.session.documentJSON == nil && detail.shots[0].framesJSON == nil)
        // Every registered migration ran, in order (whatever later ones exist).
        let applied = try queue.read { try AppDatabase.migrator.appliedMigrations($0) }
        #expect(applied == AppDatabase.migrator.migrations)
        #expect(applied.prefix(3) == ["v1", "v2-shot-source", "v3-session-document"])
    }
}
