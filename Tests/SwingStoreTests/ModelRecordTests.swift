import Foundation
import Testing
@testable import SwingStore

@Suite struct ModelRecordTests {
    @Test func unknownModelHasNoRecord() async throws {
        let db = try AppDatabase.empty()
        #expect(try await db.modelRecord(id: "yolo11n") == nil)
        #expect(try await db.allModelRecords().isEmpty)
    }

    @Test func settersCreateAndUpdateOneRecord() async throws {
        let db = try AppDatabase.empty()
        let used = Date(timeIntervalSince1970: 1_700_000_000)
        try await db.setFavorite(true, id: "m")
        try await db.setHidden(true, id: "m")
        try await db.setThresholds(conf: 0.4, iou: 0.6, id: "m")
        try await db.recordModelUse(id: "m", at: used)
        try await db.recordModelUse(id: "m", at: used.addingTimeInterval(60))
        try await db.recordDownload(id: "m", at: used)
        try await db.setInterpreterConfig(#"{"threshold":0.5}"#, id: "m")
        let record = try #require(try await db.modelRecord(id: "m"))
        #expect(record.isFavorite && record.isHidden)
        #expect(record.confThreshold == 0.4 && record.iouThreshold == 0.6)
        #expect(record.usageCount == 2)
        #expect(record.lastUsedAt == used.addingTimeInterval(60))
        #expect(record.downloadedAt == used)
        #expect(record.interpreterConfigJSON == #"{"threshold":0.5}"#)
        #expect(try await db.allModelRecords().count == 1)

        try await db.setThresholds(conf: nil, iou: nil, id: "m")
        try await db.setInterpreterConfig(nil, id: "m")
        let cleared = try #require(try await db.modelRecord(id: "m"))
        #expect(cleared.confThreshold == nil && cleared.iouThreshold == nil && cleared.interpreterConfigJSON == nil)
        #expect(cleared.usageCount == 2, "clearing thresholds must not reset usage")
    }

    @Test func listingPutsFavouritesThenRecentlyUsedFirst() async throws {
        let db = try AppDatabase.empty()
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        try await db.recordModelUse(id: "old", at: t0)
        try await db.recordModelUse(id: "recent", at: t0.addingTimeInterval(3600))
        try await db.setHidden(false, id: "never-used")
        try await db.setFavorite(true, id: "fav")
        #expect(try await db.allModelRecords().map(\.modelId) == ["fav", "recent", "old", "never-used"])
    }

    @Test func removeDeletesOnlyThatRecord() async throws {
        let db = try AppDatabase.empty()
        try await db.setFavorite(true, id: "a")
        try await db.setFavorite(true, id: "b")
        #expect(try await db.removeModelRecord(id: "a"))
        #expect(try await db.removeModelRecord(id: "a") == false)
        #expect(try await db.allModelRecords().map(\.modelId) == ["b"])
    }

    @Test func detectionSessionsRoundTripNewestFirst() async throws {
        let db = try AppDatabase.empty()
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        let first = try await db.saveDetectionSession(DetectionSessionRecord(
            modelId: "m", startedAt: t0, endedAt: t0.addingTimeInterval(10),
            frameCount: 300, detectionCount: 1200, averageInferenceMs: 12.5))
        let second = try await db.saveDetectionSession(DetectionSessionRecord(
            modelId: "m", startedAt: t0.addingTimeInterval(100), endedAt: t0.addingTimeInterval(110),
            frameCount: 10, detectionCount: 0, averageInferenceMs: 8))
        try await db.saveDetectionSession(DetectionSessionRecord(
            modelId: "other", startedAt: t0, endedAt: t0, frameCount: 1, detectionCount: 1, averageInferenceMs: 1))
        #expect(first != second)
        let sessions = try await db.detectionSessions(modelId: "m")
        #expect(sessions.map(\.id) == [second, first])
        #expect(sessions.last?.averageInferenceMs == 12.5 && sessions.last?.detectionCount == 1200)
        #expect(try await db.detectionSessions().count == 3)
    }
}
