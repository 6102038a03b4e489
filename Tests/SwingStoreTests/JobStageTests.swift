import Foundation
import GRDB
import SwingCore
import Testing
@testable import SwingStore

/// A job's stage is the analysis' typed stage, in the row and back (migration "v10-job-stage").
@Suite struct JobStageTests {
    static func job(_ name: String) -> JobRecord {
        JobRecord(mediaSHA256: "ab", mediaPath: "/media/\(name)", fileName: name, hand: nil, start: nil, duration: nil)
    }

    @Test func progressRecordsTheTypedStageAndARequeueClearsIt() async throws {
        let db = try AppDatabase.empty()
        let queued = try await db.enqueueJob(Self.job("a.mp4"))
        let id = try #require(queued.id)
        #expect(queued.stage == nil)
        let lease = try #require(try await db.claimNextJob(workerId: "w", leaseSeconds: 30, now: Date())?.lease)
        // Every stage of today's type can be stored (a new one needs a migration that widens the check).
        for stage in AnalysisStage.allCases {
            #expect(try await db.heartbeat(lease, stage: stage, progress: 0.1, leaseSeconds: 30, now: Date()) == .held)
            #expect(try await db.job(id: id)?.stage == stage)
        }
        _ = try await db.heartbeat(lease, stage: .runningPose, progress: 0.5, leaseSeconds: 30, now: Date())
        #expect(try await db.job(id: id)?.stage == .runningPose)
        try await db.releaseJob(lease)
        #expect(try await db.job(id: id)?.stage == nil)
        #expect(try await db.job(id: id)?.state == .queued)
        // The schema refuses a stage the type cannot hold.
        await #expect(throws: (any Error).self) {
            try await db.dbWriter.write { try $0.execute(sql: "UPDATE job SET stage = 'dreaming' WHERE id = ?", arguments: [id]) }
        }
    }

    /// Jobs stored with the numbered stages (1…4 and a name) read back as the stages they named.
    @Test func numberedStagesOfAnOlderDatabaseBecomeTypedStages() async throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v9-shot-json")
        try await queue.write { db in
            for (n, stage) in [0, 1, 2, 3, 4].enumerated() {
                try db.execute(sql: """
                    INSERT INTO job (state, stage, stageName, progress, mediaSHA256, mediaPath, fileName, createdAt)
                    VALUES ('running', ?, ?, 0.5, 'ab', ?, 'a.mp4', '2026-11-25 10:00:00.000')
                    """, arguments: [stage, stage == 0 ? nil : "Stage \(stage)", "/media/\(n).mp4"])
            }
        }
        let db = try AppDatabase(queue)
        let stages = try await db.recentJobs().sorted { ($0.id ?? 0) < ($1.id ?? 0) }.map(\.stage)
        #expect(stages == [nil, .extractingAudio, .detectingContacts, .runningPose, .computingStatistics])
    }
}
