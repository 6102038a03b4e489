import Foundation
import PostgresNIO
import SwingCore

/// The job queue on PostgreSQL: a claim locks its candidate with `FOR UPDATE SKIP LOCKED` (workers racing
/// for the queue each get a different job, none waits on another's), every write of a claimed job is
/// conditioned on the claim's lease token, and every change is announced with `NOTIFY`.
extension PostgresStore {
    package func enqueueJob(_ job: JobRecord) async throws -> JobRecord {
        try await transaction("queue the analysis") { c in
            let j = job
            let ids = try await all(c, """
                INSERT INTO job (state, progress, warningsJSON, mediaSHA256, mediaPath, fileName, hand, start, duration, swingCheck,
                                 sensitivity, playerX, playerY, playerTime, contactModelId, cancelRequested, createdAt, attempts, expiries)
                VALUES ('queued', 0, \(j.warningsJSON), \(j.mediaSHA256), \(j.mediaPath), \(j.fileName), \(j.hand), \(j.start),
                        \(j.duration), \(j.swingCheck), \(j.sensitivity), \(j.playerX), \(j.playerY), \(j.playerTime),
                        \(j.contactModelId), FALSE, \(j.createdAt), 0, 0)
                RETURNING id
                """) { try $0.decode(Int64.self) }
            guard let id = ids.first else { throw StoreError.databaseError("The job was not given an id.") }
            try await notify(c, job: nil)
            var stored = job
            stored.id = id
            stored.state = .queued
            return stored
        }
    }

    package func job(id: Int64) async throws -> JobRecord? {
        try await run("read job \(id)") { c in
            try await all(c, "SELECT \(unescaped: Self.jobColumns) FROM job WHERE id = \(id)", Self.job).first
        }
    }

    package func recentJobs(limit: Int) async throws -> [JobRecord] {
        try await run("list the jobs") { c in
            try await all(c, "SELECT \(unescaped: Self.jobColumns) FROM job ORDER BY createdAt DESC, id DESC LIMIT \(limit)", Self.job)
        }
    }

    package func jobCountsByState() async throws -> [JobState: Int] {
        try await run("count the jobs") { c in
            var counts: [JobState: Int] = [:]
            for try await (state, n) in try await c.query("SELECT state, COUNT(*) FROM job GROUP BY state", logger: logger).decode((String, Int).self) {
                if let s = JobState(rawValue: state) { counts[s] = n }
            }
            return counts
        }
    }

    package func queueStatus(now: Date) async throws -> QueueStatus {
        try await run("read the queue") { c in
            let rows = try await c.query("""
                SELECT COUNT(*) FILTER (WHERE state = 'queued'), MIN(createdAt) FILTER (WHERE state = 'queued'),
                       COALESCE(SUM(expiries), 0)::bigint, COALESCE(SUM(GREATEST(attempts - 1, 0)), 0)::bigint
                FROM job
                """, logger: logger)
            for try await (queued, oldest, expiries, retries) in rows.decode((Int, Date?, Int, Int).self) {
                return QueueStatus(queued: queued, oldestQueuedSeconds: oldest.map { max(0, now.timeIntervalSince($0)) } ?? 0,
                                   leaseExpiries: expiries, retries: retries)
            }
            return QueueStatus(queued: 0, oldestQueuedSeconds: 0, leaseExpiries: 0, retries: 0)
        }
    }

    package func claimNextJob(workerId: String, leaseSeconds: Double, now: Date) async throws -> JobRecord? {
        while true {
            // One candidate per transaction: a job that must end instead of running is ended and the loop
            // looks again; a locked candidate is skipped, never waited for.
            let outcome: (job: JobRecord?, again: Bool) = try await transaction("claim a job") { c in
                guard let candidate = try await all(c, """
                    SELECT \(unescaped: Self.jobColumns) FROM job
                    WHERE (state = 'queued' AND (runAfter IS NULL OR runAfter <= \(now))) OR (state = 'running' AND leaseExpiresAt < \(now))
                    ORDER BY createdAt, id
                    FOR UPDATE SKIP LOCKED LIMIT 1
                    """, Self.job).first, let id = candidate.id else { return (nil, false) }
                let expired = candidate.state == .running ? 1 : 0
                if let end = JobClaim.endInstead(of: candidate) {
                    try await c.query("""
                        UPDATE job SET state = \(end.state.rawValue), error = \(end.error), errorCode = \(end.errorCode), finishedAt = \(now),
                            leaseToken = NULL, leaseExpiresAt = NULL, expiries = expiries + \(expired)
                        WHERE id = \(id)
                        """, logger: logger)
                    try await notify(c, job: id)
                    return (nil, true)
                }
                let token = UUID().uuidString
                let job = try await all(c, """
                    UPDATE job SET state = 'running', workerId = \(workerId), leaseToken = \(token),
                        leaseExpiresAt = \(now.addingTimeInterval(leaseSeconds)), heartbeatAt = \(now), startedAt = \(now), stage = NULL,
                        progress = 0, attempts = attempts + 1, expiries = expiries + \(expired), runAfter = NULL
                    WHERE id = \(id)
                    RETURNING \(unescaped: Self.jobColumns)
                    """, Self.job).first
                try await notify(c, job: id)
                return (job, false)
            }
            if !outcome.again { return outcome.job }
        }
    }

    package func heartbeat(_ lease: JobLease, stage: AnalysisStage, progress: Double, leaseSeconds: Double, now: Date) async throws -> LeaseState {
        try await run("record the job's progress") { c in
            let rows = try await all(c, """
                UPDATE job SET stage = \(stage.rawValue), progress = \(min(max(progress, 0), 1)), heartbeatAt = \(now),
                    leaseExpiresAt = \(now.addingTimeInterval(leaseSeconds))
                WHERE id = \(lease.jobId) AND state = 'running' AND leaseToken = \(lease.token)
                RETURNING cancelRequested
                """) { try $0.decode(Bool.self) }
            guard let cancel = rows.first else { return .lost }
            try await notify(c, job: lease.jobId)
            return cancel ? .cancelRequested : .held
        }
    }

    package func recordPlaybackCopy(jobId: Int64, path: String) async throws {
        _ = try await run("record the playback copy") { c in
            try await c.query("UPDATE job SET playbackPath = \(path) WHERE id = \(jobId)", logger: logger)
        }
    }

    package func completeJob(_ lease: JobLease, session: NewSession, now: Date) async throws -> Int64 {
        try await transaction("store the job's session") { c in
            // The lock keeps the lease from running out under this transaction (a claim skips locked rows).
            guard try await holds(lease, c) else { throw JobClaim.lost(lease) }
            let sessionId = try await insert(session, c)
            try await c.query("""
                UPDATE job SET state = 'done', sessionId = \(sessionId), finishedAt = \(now), progress = 1,
                    leaseToken = NULL, leaseExpiresAt = NULL
                WHERE id = \(lease.jobId)
                """, logger: logger)
            try await notify(c, job: lease.jobId)
            return sessionId
        }
    }

    package func finishJob(_ lease: JobLease, state: JobState, error: String?, errorCode: Int?, now: Date) async throws -> Bool {
        try await transaction("finish the job") { c in
            let rows = try await all(c, """
                UPDATE job SET state = \(state.rawValue), error = \(error), errorCode = \(errorCode), finishedAt = \(now),
                    leaseToken = NULL, leaseExpiresAt = NULL
                WHERE id = \(lease.jobId) AND state = 'running' AND leaseToken = \(lease.token)
                RETURNING id
                """) { try $0.decode(Int64.self) }
            try await notify(c, job: lease.jobId)
            return !rows.isEmpty
        }
    }

    package func retryJob(_ lease: JobLease, error: String, errorCode: Int, now: Date) async throws -> JobState? {
        try await transaction("retry the job") { c in
            guard try await holds(lease, c),
                  let job = try await all(c, "SELECT \(unescaped: Self.jobColumns) FROM job WHERE id = \(lease.jobId)", Self.job).first else {
                return nil
            }
            let retry = job.attempts < JobRecord.maxAttempts
            let state: JobState = retry ? .queued : .failed
            let after: Date? = retry ? now.addingTimeInterval(JobRecord.backoff(afterAttempt: job.attempts)) : nil
            let finished: Date? = retry ? nil : now
            try await c.query("""
                UPDATE job SET state = \(state.rawValue), error = \(error), errorCode = \(errorCode), runAfter = \(after),
                    finishedAt = \(finished), workerId = NULL, leaseToken = NULL, leaseExpiresAt = NULL, stage = NULL, progress = 0
                WHERE id = \(lease.jobId)
                """, logger: logger)
            try await notify(c, job: lease.jobId)
            if retry { try await notify(c, job: nil) }
            return state
        }
    }

    package func releaseJob(_ lease: JobLease) async throws {
        try await transaction("give the job back to the queue") { c in
            try await c.query("""
                UPDATE job SET state = 'queued', workerId = NULL, leaseToken = NULL, leaseExpiresAt = NULL, stage = NULL, progress = 0,
                    attempts = GREATEST(attempts - 1, 0), cancelRequested = FALSE
                WHERE id = \(lease.jobId) AND state = 'running' AND leaseToken = \(lease.token)
                """, logger: logger)
            try await notify(c, job: lease.jobId)
            try await notify(c, job: nil)
        }
    }

    package func cancelJob(id: Int64, now: Date) async throws -> JobRecord? {
        try await transaction("cancel the job") { c in
            try await c.query("UPDATE job SET state = 'cancelled', finishedAt = \(now) WHERE id = \(id) AND state = 'queued'", logger: logger)
            try await c.query("UPDATE job SET cancelRequested = TRUE WHERE id = \(id) AND state = 'running'", logger: logger)
            try await notify(c, job: id)
            return try await all(c, "SELECT \(unescaped: Self.jobColumns) FROM job WHERE id = \(id)", Self.job).first
        }
    }

    package func mediaInUse(path: String) async throws -> Bool {
        try await run("check the media") { c in
            let rows = try await c.query("""
                SELECT EXISTS (SELECT 1 FROM session WHERE filePath = \(path))
                    OR EXISTS (SELECT 1 FROM job WHERE mediaPath = \(path) AND state IN ('queued', 'running'))
                """, logger: logger)
            for try await used in rows.decode(Bool.self) { return used }
            return false
        }
    }

    package func playbackPath(forMedia path: String) async throws -> String? {
        try await run("find the playback copy") { c in
            let rows = try await c.query("""
                SELECT playbackPath FROM job WHERE mediaPath = \(path) AND playbackPath IS NOT NULL ORDER BY id DESC LIMIT 1
                """, logger: logger)
            for try await copy in rows.decode(String.self) { return copy }
            return nil
        }
    }

    package func waitForQueuedJob(timeout: Duration) async { await signals.wait(for: .queue, upTo: timeout) }

    package func waitForJobChange(id: Int64, timeout: Duration) async { await signals.wait(for: .job(id), upTo: timeout) }

    /// Whether `lease` still holds its job, locking the row for the rest of the transaction.
    private func holds(_ lease: JobLease, _ c: PostgresConnection) async throws -> Bool {
        try await !all(c, """
            SELECT id FROM job WHERE id = \(lease.jobId) AND state = 'running' AND leaseToken = \(lease.token) FOR UPDATE
            """) { try $0.decode(Int64.self) }.isEmpty
    }
}
