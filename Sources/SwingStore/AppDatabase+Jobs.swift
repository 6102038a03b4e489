import Foundation
import GRDB
import SwingCore

/// Analysis jobs on SQLite. SQLite runs one writer at a time, so a claim (read the candidate, update it)
/// inside one write transaction can never hand a job to two workers; the PostgreSQL store does the same
/// with `FOR UPDATE SKIP LOCKED`.
extension AppDatabase: Store {
    package func enqueueJob(_ job: JobRecord) async throws -> JobRecord {
        let stored = try await write("queue the analysis") { db in
            var job = job
            try job.insert(db)
            return job
        }
        signals.signal(.queue)
        return stored
    }

    package func job(id: Int64) async throws -> JobRecord? {
        try await read("read job \(id)") { db in try JobRecord.fetchOne(db, key: id) }
    }

    package func recentJobs(limit: Int) async throws -> [JobRecord] {
        try await read("list the jobs") { db in
            try JobRecord.order(JobRecord.Columns.createdAt.desc, JobRecord.Columns.id.desc).limit(limit).fetchAll(db)
        }
    }

    package func jobCountsByState() async throws -> [JobState: Int] {
        try await read("count the jobs") { db in
            let rows = try Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS n FROM job GROUP BY state")
            var counts: [JobState: Int] = [:]
            for row in rows {
                if let state = JobState(rawValue: row["state"] as String? ?? "") { counts[state] = row["n"] }
            }
            return counts
        }
    }

    package func queueStatus(now: Date) async throws -> QueueStatus {
        try await read("read the queue") { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT COUNT(*) FILTER (WHERE state = 'queued') AS queued,
                       MIN(createdAt) FILTER (WHERE state = 'queued') AS oldest,
                       COALESCE(SUM(expiries), 0) AS expiries,
                       COALESCE(SUM(MAX(attempts - 1, 0)), 0) AS retries
                FROM job
                """)
            let oldest: Date? = row?["oldest"]
            return QueueStatus(queued: row?["queued"] ?? 0, oldestQueuedSeconds: oldest.map { max(0, now.timeIntervalSince($0)) } ?? 0,
                               leaseExpiries: row?["expiries"] ?? 0, retries: row?["retries"] ?? 0)
        }
    }

    package func claimNextJob(workerId: String, leaseSeconds: Double, now: Date) async throws -> JobRecord? {
        let claimed = try await write("claim a job") { db -> JobRecord? in
            while let candidate = try JobRecord.fetchOne(db, sql: """
                SELECT * FROM job
                WHERE (state = 'queued' AND (runAfter IS NULL OR runAfter <= ?)) OR (state = 'running' AND leaseExpiresAt < ?)
                ORDER BY createdAt, id LIMIT 1
                """, arguments: [now, now]), let id = candidate.id {
                let expired = candidate.state == .running
                if let end = JobClaim.endInstead(of: candidate) {
                    try db.execute(sql: """
                        UPDATE job SET state = ?, error = ?, errorCode = ?, finishedAt = ?, leaseToken = NULL, leaseExpiresAt = NULL,
                            expiries = expiries + ? WHERE id = ?
                        """, arguments: [end.state, end.error, end.errorCode, now, expired ? 1 : 0, id])
                    continue
                }
                try db.execute(sql: """
                    UPDATE job SET state = 'running', workerId = ?, leaseToken = ?, leaseExpiresAt = ?, heartbeatAt = ?,
                        startedAt = ?, stage = NULL, progress = 0, attempts = attempts + 1, expiries = expiries + ?, runAfter = NULL
                    WHERE id = ?
                    """, arguments: [workerId, UUID().uuidString, now.addingTimeInterval(leaseSeconds), now, now, expired ? 1 : 0, id])
                return try JobRecord.fetchOne(db, key: id)
            }
            return nil
        }
        if let id = claimed?.id { signals.signal(.job(id)) }
        return claimed
    }

    package func heartbeat(_ lease: JobLease, stage: AnalysisStage, progress: Double, leaseSeconds: Double, now: Date) async throws -> LeaseState {
        let state = try await write("record the job's progress") { db -> LeaseState in
            try db.execute(sql: """
                UPDATE job SET stage = ?, progress = ?, heartbeatAt = ?, leaseExpiresAt = ?
                WHERE id = ? AND state = 'running' AND leaseToken = ?
                """, arguments: [stage, min(max(progress, 0), 1), now, now.addingTimeInterval(leaseSeconds), lease.jobId, lease.token])
            guard db.changesCount == 1 else { return .lost }
            let cancel = try Bool.fetchOne(db, sql: "SELECT cancelRequested FROM job WHERE id = ?", arguments: [lease.jobId]) ?? false
            return cancel ? .cancelRequested : .held
        }
        signals.signal(.job(lease.jobId))
        return state
    }

    package func recordPlaybackCopy(jobId: Int64, path: String) async throws {
        try await write("record the playback copy") { db in
            try db.execute(sql: "UPDATE job SET playbackPath = ? WHERE id = ?", arguments: [path, jobId])
        }
    }

    package func completeJob(_ lease: JobLease, session: NewSession, now: Date) async throws -> Int64 {
        let id = try await write("store the job's session") { db -> Int64 in
            guard try Self.holds(lease, db) else { throw JobClaim.lost(lease) }
            let sessionId = try Self.insert(session, db: db)
            try db.execute(sql: """
                UPDATE job SET state = 'done', sessionId = ?, finishedAt = ?, progress = 1, leaseToken = NULL, leaseExpiresAt = NULL
                WHERE id = ?
                """, arguments: [sessionId, now, lease.jobId])
            return sessionId
        }
        signals.signal(.job(lease.jobId))
        return id
    }

    package func finishJob(_ lease: JobLease, state: JobState, error: String?, errorCode: Int?, now: Date) async throws -> Bool {
        let held = try await write("finish the job") { db -> Bool in
            try db.execute(sql: """
                UPDATE job SET state = ?, error = ?, errorCode = ?, finishedAt = ?, leaseToken = NULL, leaseExpiresAt = NULL
                WHERE id = ? AND state = 'running' AND leaseToken = ?
                """, arguments: [state, error, errorCode, now, lease.jobId, lease.token])
            return db.changesCount == 1
        }
        signals.signal(.job(lease.jobId))
        return held
    }

    package func retryJob(_ lease: JobLease, error: String, errorCode: Int, now: Date) async throws -> JobState? {
        let state = try await write("retry the job") { db -> JobState? in
            guard try Self.holds(lease, db), let job = try JobRecord.fetchOne(db, key: lease.jobId) else { return nil }
            let retry = job.attempts < JobRecord.maxAttempts
            try db.execute(sql: """
                UPDATE job SET state = ?, error = ?, errorCode = ?, runAfter = ?, finishedAt = ?, workerId = NULL,
                    leaseToken = NULL, leaseExpiresAt = NULL, stage = NULL, progress = 0
                WHERE id = ?
                """, arguments: [retry ? JobState.queued : .failed, error, errorCode,
                                 retry ? now.addingTimeInterval(JobRecord.backoff(afterAttempt: job.attempts)) : nil,
                                 retry ? nil : now, lease.jobId])
            return retry ? .queued : .failed
        }
        signals.signal(.job(lease.jobId))
        if state == .queued { signals.signal(.queue) }
        return state
    }

    package func releaseJob(_ lease: JobLease) async throws {
        try await write("give the job back to the queue") { db in
            try db.execute(sql: """
                UPDATE job SET state = 'queued', workerId = NULL, leaseToken = NULL, leaseExpiresAt = NULL, stage = NULL, progress = 0,
                    attempts = MAX(attempts - 1, 0), cancelRequested = 0
                WHERE id = ? AND state = 'running' AND leaseToken = ?
                """, arguments: [lease.jobId, lease.token])
        }
        signals.signal(.job(lease.jobId))
        signals.signal(.queue)
    }

    package func cancelJob(id: Int64, now: Date) async throws -> JobRecord? {
        let job = try await write("cancel the job") { db in
            try db.execute(sql: "UPDATE job SET state = 'cancelled', finishedAt = ? WHERE id = ? AND state = 'queued'", arguments: [now, id])
            try db.execute(sql: "UPDATE job SET cancelRequested = ? WHERE id = ? AND state = 'running'", arguments: [true, id])
            return try JobRecord.fetchOne(db, key: id)
        }
        signals.signal(.job(id))
        return job
    }

    package func mediaInUse(path: String) async throws -> Bool {
        try await read("check the media") { db in
            let sessions = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session WHERE filePath = ?", arguments: [path]) ?? 0
            let jobs = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM job WHERE mediaPath = ? AND state IN ('queued', 'running')",
                                        arguments: [path]) ?? 0
            return sessions + jobs > 0
        }
    }

    package func playbackPath(forMedia path: String) async throws -> String? {
        try await read("find the playback copy") { db in
            try String.fetchOne(db, sql: "SELECT playbackPath FROM job WHERE mediaPath = ? AND playbackPath IS NOT NULL ORDER BY id DESC LIMIT 1",
                                arguments: [path])
        }
    }

    package func waitForQueuedJob(timeout: Duration) async { await signals.wait(for: .queue, upTo: timeout) }

    package func waitForJobChange(id: Int64, timeout: Duration) async { await signals.wait(for: .job(id), upTo: timeout) }

    /// Whether `lease` still holds its job.
    private static func holds(_ lease: JobLease, _ db: Database) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM job WHERE id = ? AND state = 'running' AND leaseToken = ?",
                         arguments: [lease.jobId, lease.token]) == 1
    }
}

/// The queue's rules that both stores apply the same way.
enum JobClaim {
    /// How a claim ends `job` instead of running it: a job whose lease ran out after its last attempt fails
    /// with a sentence; one whose cancel was asked while its worker died is cancelled. `nil` runs it.
    static func endInstead(of job: JobRecord) -> (state: JobState, error: String, errorCode: Int)? {
        guard job.state == .running else { return nil }
        if job.cancelRequested {
            return (.cancelled, cancelledSentence("analysis"), Int(StatusCode.cancelled))
        }
        guard job.attempts >= JobRecord.maxAttempts else { return nil }
        return (.failed, "The analysis of \(job.fileName) stopped \(job.attempts) times without finishing (its worker stopped each time); try it again, or a shorter part of the video.",
                Int(StatusCode.failure))
    }

    /// The error of a write whose lease was lost.
    static func lost(_ lease: JobLease) -> StoreError {
        .leaseLost("Job \(lease.jobId) was taken over by another worker after this one's lease ran out; its result was not stored.")
    }
}
