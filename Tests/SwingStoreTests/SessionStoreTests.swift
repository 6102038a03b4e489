import Foundation
import SwingTestSupport
import Testing
import SwingBiomech
import SwingCore
@testable import SwingStore

@Suite struct SessionStoreTests {
    @Test func dominantHandIsAskedOnceThenRemembered() async throws {
        let db = try AppDatabase.empty()
        #expect(try await db.dominantHand() == nil)
        try await db.setDominantHand(.left)
        #expect(try await db.dominantHand() == .left)
        try await db.setDominantHand(.right)
        #expect(try await db.dominantHand() == .right)
    }

    @Test func sessionRoundTripsWithShotsInOrder() async throws {
        let db = try AppDatabase.empty()
        let noPerson = ShotRecord(Shot(index: 3, time: 9, contactTime: 9, confidence: 0.5))
        let id = try await db.saveSession(StoreFixtures.session("a.mp4", at: 1_700_000_000),
                                    shots: [StoreFixtures.shot(2), StoreFixtures.shot(1), noPerson])
        let detail = try #require(try await db.session(id: id))
        #expect(detail.session.fileName == "a.mp4")
        #expect(detail.session.stats.consistency == 63.5 && detail.session.hand == .right)
        #expect(detail.shots.map(\.shot.index) == [1, 2, 3])
        #expect(detail.shots[0] == StoreFixtures.shot(1).stored(id: detail.shots[0].id, sessionId: id))
        #expect(detail.shots[2].shot.contact == nil && detail.shots[2].shot.status == .noPerson && detail.shots[2].frames == nil)
    }

    @Test func aFailingShotInsertLeavesNoSession() async throws {
        let db = try AppDatabase.empty()
        // Two shots with the same index violate the (sessionId, index) unique key on the second insert.
        await #expect(throws: StoreError.self) { try await db.saveSession(StoreFixtures.session("a.mp4", at: 1), shots: [StoreFixtures.shot(1), StoreFixtures.shot(1)])
        }
        #expect(try await db.sessions().isEmpty)
        let count = try await db.reader.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM shot") }
        #expect(count == 0)
    }

    @Test func sessionsAreListedNewestFirst() async throws {
        let db = try AppDatabase.empty()
        try await db.saveSession(StoreFixtures.session("old.mp4", at: 1_000), shots: [])
        try await db.saveSession(StoreFixtures.session("new.mp4", at: 3_000), shots: [])
        try await db.saveSession(StoreFixtures.session("mid.mp4", at: 2_000), shots: [])
        #expect(try await db.sessions().map(\.fileName) == ["new.mp4", "mid.mp4", "old.mp4"])
    }

    @Test func deleteCascadesToShotsAndMissingIdIsNotFound() async throws {
        let db = try AppDatabase.empty()
        let id = try await db.saveSession(StoreFixtures.session("a.mp4", at: 1), shots: [StoreFixtures.shot(1), StoreFixtures.shot(2)])
        try await db.deleteSession(id: id)
        #expect(try await db.session(id: id) == nil)
        let count = try await db.reader.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM shot") }
        #expect(count == 0)
        let error = await #expect(throws: StoreError.self) { try await db.deleteSession(id: id) }
        #expect(error?.statusCode == StatusCode.notFound)
    }

    @Test func onDiskDatabaseUsesHomeDirectoryAndPersists() async throws {
        let home = FileManager.default.temporaryDirectory
            .appendingPathComponent("swingstore-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: home) }
        do {
            let db = try AppDatabase.open(home: home)
            try await db.saveSession(StoreFixtures.session("a.mp4", at: 1), shots: [StoreFixtures.shot(1)])
        }
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("swingmaster.sqlite").path))
        let reopened = try AppDatabase.open(home: home)
        #expect(try await reopened.sessions().count == 1)
        let mode = try await reopened.reader.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    @Test func homeComesFromEnvironmentWithDefault() {
        #expect(SwingmasterHome.url(environment: ["SWINGMASTER_HOME": "/tmp/x"]).path == "/tmp/x")
        #expect(SwingmasterHome.url(environment: [:]).lastPathComponent == ".swingmaster")
    }

    @Test func unwritableHomeIsADatabaseError() {
        let error = #expect(throws: StoreError.self) {
            _ = try AppDatabase.open(home: URL(fileURLWithPath: "/proc/swingmaster-nope"))
        }
        #expect(error?.statusCode == StatusCode.databaseError)
    }
}

extension ShotRecord {
    /// The record as the store gives it back.
    func stored(id: Int64?, sessionId: Int64) -> ShotRecord {
        var r = self
        r.id = id; r.sessionId = sessionId
        return r
    }
}
