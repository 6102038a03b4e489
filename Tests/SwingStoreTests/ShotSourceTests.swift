import Foundation
import SwingTestSupport
import GRDB
import SwingAudio
import SwingBiomech
import SwingCore
import Testing
@testable import SwingStore

/// Shots in the store: where their contact came from (migration "v2-shot-source"), the schema's checks on
/// the shot's values, and older databases migrating to one JSON shot per row ("v9-shot-json").
@Suite struct ShotSourceTests {
    static func shot(_ index: Int, source: ContactSource? = nil, offset: Double? = nil, status: ShotStatus = .ok) -> ShotRecord {
        ShotRecord(Shot(index: index, time: Double(index), contactTime: Double(index), confidence: 0.8, status: status,
                        source: source, visualOffsetMs: offset))
    }

    @Test func sourcesRoundTripAndAudioOnlyShotsHaveNone() async throws {
        let db = try AppDatabase.empty()
        let shots = [Self.shot(1, source: .both, offset: -99.1), Self.shot(2, source: .audio),
                     Self.shot(3, source: .visual, status: .noPerson), Self.shot(4)]
        let id = try await db.saveSession(StoreFixtures.session("fused.mp4", at: 1_700_000_000), shots: shots)
        let stored = try #require(try await db.session(id: id)).shots.map(\.shot)
        #expect(stored.map(\.source) == [.both, .audio, .visual, nil])
        #expect(stored.map(\.visualOffsetMs) == [-99.1, nil, nil, nil])
        #expect(try await db.shot(sessionId: id, index: 3)?.shot.status == .noPerson)
    }

    /// The schema spells out each enum's values as they were when its migration was written; a case added
    /// to an enum since needs a migration that widens the check, or the store would refuse it. Every case
    /// of today's enums must be storable.
    @Test func everyCaseOfTodaysEnumsIsStorable() async throws {
        let db = try AppDatabase.empty()
        var shots: [ShotRecord] = []
        var n = 0
        for status in ShotStatus.allCases {
            for classification in ContactClassification.allCases {
                for source in ContactSource.allCases {
                    n += 1
                    var shot = Shot(index: n, time: Double(n), contactTime: Double(n), confidence: 0.5, status: status,
                                    classification: classification, source: source)
                    shot.stroke = StrokeType.allCases[n % StrokeType.allCases.count]
                    shots.append(ShotRecord(shot))
                }
            }
        }
        let id = try await db.saveSession(StoreFixtures.session("every-case.mp4", at: 1_700_000_000), shots: shots)
        #expect(try await db.session(id: id)?.shots.map(\.shot) == shots.map(\.shot))
        // A job's sensitivity (migration v12-job-sensitivity).
        for level in ContactSensitivity.allCases {
            let job = try await db.enqueueJob(JobRecord(mediaSHA256: String(repeating: "a", count: 64), mediaPath: "/m/\(level).mp4",
                                                  fileName: "x.mp4", hand: nil, start: nil, duration: nil, sensitivity: level.rawValue))
            #expect(job.sensitivity == level.rawValue)
        }
    }

    /// The types cannot hold other values; the schema refuses them from any other writer (a worker
    /// process of another version, a hand-edited row).
    @Test(arguments: [("$.status", "'maybe'"), ("$.classification", "'sideways'"), ("$.source", "'telepathy'"),
                      ("$.index", "'first'")])
    func theSchemaRefusesValuesOutsideTheEnums(path: String, value: String) async throws {
        let db = try AppDatabase.empty()
        let id = try await db.saveSession(StoreFixtures.session("a.mp4", at: 1_700_000_000), shots: [])
        await #expect(throws: (any Error).self) {
            try await db.dbWriter.write { db in
                try db.execute(sql: """
                    INSERT INTO shot (sessionId, shot) VALUES (?, '{"index":1,"time":1,"contactTime":1,"confidence":0.5,"status":"ok"}')
                    """, arguments: [id])
                try db.execute(sql: "UPDATE shot SET shot = json_set(shot, '\(path)', \(value))")
            }
        }
        #expect(try await db.session(id: id)?.shots.isEmpty == true)
    }

    @Test func aVersionOneDatabaseMigratesWithItsShotsIntact() async throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v1")
        try await queue.write { db in
            try db.execute(sql: """
                INSERT INTO session (filePath, fileName, fileSHA256, createdAt, durationSeconds, fps, hand, statsJSON, shotCount)
                VALUES ('/v/old.mp4', 'old.mp4', 'ab', '2026-01-01 10:00:00.000', 12, 10, 'right', '{}', 1)
                """)
            try db.execute(sql: """
                INSERT INTO shot (sessionId, "index", time, confidence, status, contactFrame) VALUES (1, 1, 2.0, 0.9, 'ok', 60)
                """)
        }
        let db = try AppDatabase(queue)   // runs the later migrations
        let detail = try #require(try await db.session(id: 1))
        #expect(detail.shots.count == 1 && detail.shots[0].shot.time == 2.0 && detail.shots[0].shot.status == .ok)
        #expect(detail.shots[0].shot.contactVideoFrame == 60)   // the v1 column `contactFrame`, renamed
        #expect(detail.shots[0].shot.source == nil && detail.shots[0].shot.visualOffsetMs == nil)
        #expect(detail.session.documentJSON == nil && detail.shots[0].frames == nil)
        #expect(detail.session.stats.shotCount == 1)   // from the v1 `shotCount` column where the stats lacked it
        // Every registered migration ran, in order (whatever later ones exist).
        let applied = try await queue.read { try AppDatabase.migrator.appliedMigrations($0) }
        #expect(applied == AppDatabase.migrator.migrations)
        #expect(applied.prefix(3) == ["v1", "v2-shot-source", "v3-session-document"])
    }

    /// A database as the previous version left it ("v8-run-summary"): a session stored with its document
    /// (its shots there carry contactTime and groundCm, the columns do not) and one stored before the
    /// documents were kept. Both open with every value of every shot, their frames and statistics.
    @Test func aVersionEightDatabaseMovesItsShotsIntoTheJSONColumn() async throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v8-run-summary")
        let stats = #"{"consistency":55.3,"forward":{"meanCm":6.3,"sdCm":7.6},"shotCount":1,"wristSpeed":{"maxCmS":29.7,"meanCmS":29.7,"minCmS":29.7}}"#
        let document = """
            {"session": {"contactsHeard": 2, "createdAt": "2026-11-24T00:01:27Z", "duration": 12, "file": "new.mp4",
             "fps": 10, "hand": "right", "height": 720, "id": 1, "width": 1280, "warnings": [], "stats": \(stats),
             "shots": [
              {"index": 1, "time": 2.0, "contactTime": 1.99, "confidence": 0.62, "status": "ok",
               "contact": {"forwardCm": -3.7, "lateralCm": 17.3, "heightCm": 74.5}, "wristSpeedCmS": 29.7,
               "classification": "late", "contactVideoFrame": 20, "groundCm": -67.9,
               "arc": {"body": [[-3.7, 17.3, 74.5, 2.0]], "image": [[640.5, 300.25, 2.0]]}},
              {"index": 2, "time": 4.0, "contactTime": 3.99, "confidence": 0.4, "status": "noPerson"}]}}
            """
        let frames = #"[{"body":[[1,2,3]],"image":[[4,5,0.9]],"time":1.9,"videoFrame":19}]"#
        try await queue.write { db in
            try db.execute(sql: """
                INSERT INTO session (id, filePath, fileName, fileSHA256, createdAt, durationSeconds, fps, hand, statsJSON,
                                     shotCount, consistency, documentJSON)
                VALUES (1, '/v/new.mp4', 'new.mp4', 'ab', '2026-11-24 00:01:27.000', 12, 10, 'right', ?, 1, 55.3, ?),
                       (2, '/v/old.mp4', 'old.mp4', 'cd', '2026-01-01 10:00:00.000', 8, 30, 'left', ?, 1, 55.3, NULL)
                """, arguments: [stats, document, stats])
            try db.execute(sql: """
                INSERT INTO shot (sessionId, "index", time, confidence, status, forwardCm, lateralCm, heightCm, wristSpeedCmS,
                                  classification, contactVideoFrame, arcJSON, source, visualOffsetMs, framesJSON, jointsJSON)
                VALUES (1, 1, 2.0, 0.62, 'ok', -3.7, 17.3, 74.5, 29.7, 'late', 20, '{"body":[[-3.7,17.3,74.5,2.0]]}', NULL, NULL, ?, NULL),
                       (1, 2, 4.0, 0.4, 'noPerson', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
                       (2, 1, 1.5, 0.9, 'ok', 10.5, -2.25, 90, 120, 'optimal', 45, '{"body":[[10,-2,90,1.5]]}', 'both', 12.5, NULL, '[{"root":{}}]')
                """, arguments: [frames])
        }
        let db = try AppDatabase(queue)

        let new = try #require(try await db.session(id: 1))
        #expect(new.session.stats == SessionStats(shotCount: 1, forward: AxisStats(meanCm: 6.3, sdCm: 7.6), consistency: 55.3,
                                                  wristSpeed: SpeedStats(minCmS: 29.7, maxCmS: 29.7, meanCmS: 29.7)))
        #expect(new.shots.map(\.shot) == [
            Shot(index: 1, time: 2.0, contactTime: 1.99, confidence: 0.62, status: .ok,
                 contact: ContactPoint(forwardCm: -3.7, lateralCm: 17.3, heightCm: 74.5), wristSpeedCmS: 29.7,
                 classification: .late, contactVideoFrame: 20, groundCm: -67.9,
                 arc: SwingArc(body: [ArcPoint(forwardCm: -3.7, lateralCm: 17.3, heightCm: 74.5, time: 2.0)],
                               image: [ImageArcPoint(x: 640.5, y: 300.25, time: 2.0)])),
            Shot(index: 2, time: 4.0, contactTime: 3.99, confidence: 0.4, status: .noPerson),
        ])
        #expect(new.shots[0].frames == [ShotFrame(time: 1.9, videoFrame: 19, image: [[4, 5, 0.9]], body: [[1, 2, 3]])])
        #expect(new.shots[1].frames == nil)
        #expect(new.session.documentJSON == document, "the document's bytes are kept as they were")

        let old = try #require(try await db.session(id: 2))
        #expect(old.session.hand == .left && old.session.stats.consistency == 55.3)
        #expect(old.shots.map(\.shot) == [
            Shot(index: 1, time: 1.5, contactTime: 1.5, confidence: 0.9, status: .ok,
                 contact: ContactPoint(forwardCm: 10.5, lateralCm: -2.25, heightCm: 90), wristSpeedCmS: 120,
                 classification: .optimal, contactVideoFrame: 45,
                 arc: SwingArc(body: [ArcPoint(forwardCm: 10, lateralCm: -2, heightCm: 90, time: 1.5)], image: nil),
                 source: .both, visualOffsetMs: 12.5),
        ])
        let joints = try await queue.read { try String.fetchOne($0, sql: "SELECT jointsJSON FROM shot WHERE sessionId = 2") }
        #expect(joints == #"[{"root":{}}]"#, "the pre-v3 joints are carried over")
        // The row is keyed by the shot's own index.
        #expect(try await db.shot(sessionId: 1, index: 2)?.shot.status == .noPerson)
    }
}
