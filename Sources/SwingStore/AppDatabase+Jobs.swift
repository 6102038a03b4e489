import Foundation
import GRDB
import SwingCore

/// Analysis jobs. Every statement is plain SQL that PostgreSQL runs too (a later store moves there), and
/// a claim is one conditional UPDATE, so two workers can never take the same job.
extension AppDatabase: Store {
    /// Stores a new queued job.
    /// - Returns: The job with its id.
    public func enqueueJob(_ job: JobRecord) async throws -> JobRecord {
        try await write("queue the analysis") { db in
            var job = job
            try job.insert(db)
            return job
        }
    }

    /// The job `id`, or `nil`.
    public func job(id: Int64) async throws -> JobRecord? {
        try await read("read job \(id)") { db in try JobRecord.fetchOne(db, key: id) }
    }

    /// Jobs newest first: every unfinished one, then finished ones up to `limit` in all.
    public func recentJobs(limit: Int) async throws -> [JobRecord] {
        try await read("list the jobs") { db in
            try JobRecord.order(JobRecord.Columns.createdAt.desc, JobRecord.Columns.id.desc).limit(limit).fetchAll(db)
        }
    }

    /// How many jobs the store holds in each state (states without jobs are absent).
    public func jobCountsByState() async throws -> [JobState: Int] {
        try await read("count the jobs") { db in
            let rows = try Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS n FROM job GROUP BY state")
            var counts: [JobState: Int] = [:]
            for row in rows {
                if let state = JobState(rawValue: row["state"] as String? ?? "") { counts[state] = row["n"] }
            }
            return counts
        }
    }

    /// Takes the oldest queued job for `workerId` (state `running`), or returns `nil` when none is queued.
    public func claimNextJob(workerId: String, now: Date) async throws -> JobRecord? {
        try await write("claim a job") { db in
            while let candidate = try JobRecord.filter(JobRecord.Columns.state == JobState.queued)
                .order(JobRecord.Columns.createdAt, JobRecord.Columns.id).fetchOne(db), let id = candidate.id {
                try db.execute(sql: """
                    UPDATE job SET state = 'running', workerId = ?, startedAt = ?, heartbeatAt = ?, stage = NULL, progress = 0
                    WHERE id = ? AND state = 'queued'
                    """, arguments: [workerId, now, now, id])
                if db.changesCount == 1 { return try JobRecord.fetchOne(db, key: id) }
            }
            return nil
        }
    }

    /// Records progress (and the worker's heartbeat) of a running job.
    /// - Returns: Whether cancellation was requested (the worker should stop).
    @discardableResult
    public func reportJobProgress(id: Int64, stage: AnalysisStage, progress: Double, now: Date) async throws -> Bool {
        try await write("record the job's progress") { db in
            try db.execute(sql: "UPDATE job SET stage = ?, progress = ?, heartbeatAt = ? WHERE id = ? AND state = 'running'",
                           arguments: [stage, min(max(progress, 0), 1), now, id])
            return try Bool.fetchOne(db, sql: "SELECT cancelRequested FROM job WHERE id = ?", arguments: [id]) ?? true
        }
    }

    /// Records the browser-playable copy a running job made of its media.
    public func recordPlaybackCopy(jobId: Int64, path: String) async throws {
        try await write("record the playback copy") { db in
            try db.execute(sql: "UPDATE job SET playbackPath = ? WHERE id = ?", arguments: [path, jobId])
        }
    }

    /// Ends a running job: `done` with its session, `failed` with a sentence, or `cancelled`.
    public func finishJob(id: Int64, state: JobState, sessionId: Int64?, error: String?, errorCode: Int?, now: Date) async throws {
        try await write("finish the job") { db in
            try db.execute(sql: """
                UPDATE job SET state = ?, sessionId = ?, error = ?, errorCode = ?,
                    finishedAt = ?, progress = CASE WHEN ? = 'done' THEN 1 ELSE progress END
                WHERE id = ?
                """, arguments: [state, sessionId, error, errorCode, now, state, id])
        }
    }

    /// Cancels a job: a queued one at once, a running one by asking its worker (which then marks it).
    /// - Returns: The job after the request, `nil` if there is none.
    public func cancelJob(id: Int64, now: Date) async throws -> JobRecord? {
        try await write("cancel the job") { db in
            try db.execute(sql: "UPDATE job SET state = 'cancelled', finishedAt = ? WHERE id = ? AND state = 'queued'", arguments: [now, id])
            try db.execute(sql: "UPDATE job SET cancelRequested = 1 WHERE id = ? AND state = 'running'", arguments: [id])
            return try JobRecord.fetchOne(db, key: id)
        }
    }

    /// Puts running jobs back in the queue: those of `workerId` (a worker shutting down), or, without
    /// one, those whose heartbeat is older than `staleBefore` (their worker died).
    /// - Returns: How many jobs were re-queued.
    @discardableResult
    public func requeueJobs(workerId: String?, staleBefore: Date?) async throws -> Int {
        try await write("re-queue interrupted jobs") { db in
            let reset = "UPDATE job SET state = 'queued', workerId = NULL, stage = NULL, progress = 0, cancelRequested = 0 WHERE state = 'running'"
            if let workerId {
                try db.execute(sql: reset + " AND workerId = ?", arguments: [workerId])
            } else {
                try db.execute(sql: reset + " AND (heartbeatAt IS NULL OR heartbeatAt < ?)", arguments: [staleBefore ?? Date.distantFuture])
            }
            return db.changesCount
        }
    }

    /// Whether any session or unfinished job still uses the stored media file `path`.
    public func mediaInUse(path: String) async throws -> Bool {
        try await read("check the media") { db in
            let sessions = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session WHERE filePath = ?", arguments: [path]) ?? 0
            let jobs = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM job WHERE mediaPath = ? AND state IN ('queued', 'running')",
                                        arguments: [path]) ?? 0
            return sessions + jobs > 0
        }
    }

    /// The playback copy recorded for the media `path` by any job, if one was made.
    public func playbackPath(forMedia path: String) async throws -> String? {
        try await read("find the playback copy") { db in
            try String.fetchOne(db, sql: "SELECT playbackPath FROM job WHERE mediaPath = ? AND playbackPath IS NOT NULL ORDER BY id DESC LIMIT 1",
                                arguments: [path])
        }
    }
}
