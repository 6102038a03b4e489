import Foundation
import Testing
import SwingBiomech
import SwingCore
import SwingTestSupport
@testable import SwingStore

/// Which store a conformance test runs on.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// The backends this run covers: SQLite always; PostgreSQL when it is installed, and always under
    /// `make test` (SWINGMASTER_REQUIRE_POSTGRES=1), where a missing install fails the run.
    static var covered: [Backend] {
        PostgresCluster.isAvailable || PostgresCluster.isRequired ? [.sqlite, .postgres] : [.sqlite]
    }

    /// A new, empty store (a SQLite file in a temporary folder, or a new database on the shared server).
    func make() async throws -> any Store {
        switch self {
        case .sqlite:
            return try AppDatabase.open(file: try TestFiles.processDirectory("conformance").appendingPathComponent("s.sqlite"))
        case .postgres:
            return try await PostgresStore.connect(url: try PostgresCluster.shared().newDatabase())
        }
    }
}

/// One suite, both stores: everything a caller can observe through ``Store`` behaves the same on SQLite
/// and on PostgreSQL — sessions and their versions, the player, the model records, and the job queue's
/// leases, retries, cancellation and races.
@Suite struct StoreConformanceTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func newSession(_ name: String, at seconds: Double, shots: Int = 2) -> NewSession {
        NewSession(record: StoreFixtures.session(name, at: seconds), shots: (1...max(1, shots)).map(StoreFixtures.shot).prefix(shots).map { $0 },
                   track: SessionTrackRecord(track: Data([1, 2, 3, 0, 255]), videoFrames: [0, 2, -1], poseToDisplayX: 2, poseToDisplayY: 1.5,
                                             parameters: #"{"hand":"right"}"#)) { id in #"{"session":{"id":\#(id)}}"# }
    }

    static func job(_ name: String, at seconds: Double = 0) -> JobRecord {
        JobRecord(mediaSHA256: String(repeating: "c", count: 64), mediaPath: "/media/\(name)", fileName: name, hand: "left",
                  start: 1.5, duration: nil, swingCheck: false, sensitivity: "more", warnings: ["below 720p"],
                  createdAt: t0.addingTimeInterval(seconds))
    }

    // MARK: Sessions

    @Test(arguments: Backend.covered)
    func aSessionIsStoredWholeAndReadBackTheSame(_ backend: Backend) async throws {
        let db = try await backend.make()
        let id = try await db.saveSession(Self.newSession("a.mp4", at: 1_700_000_000))
        let detail = try #require(try await db.session(id: id))
        #expect(detail.session.id == id && detail.session.fileName == "a.mp4" && detail.session.revision == 0)
        #expect(detail.session.stats == SessionStats(shotCount: 2, consistency: 63.5))
        #expect(abs(detail.session.createdAt.timeIntervalSince1970 - 1_700_000_000) < 0.002)
        #expect(detail.session.documentJSON == #"{"session":{"id":\#(id)}}"#, "the document is built with the new id")
        #expect(detail.shots.map(\.shot) == [StoreFixtures.shot(1).shot, StoreFixtures.shot(2).shot])
        #expect(detail.shots.map(\.frames) == [StoreFixtures.shot(1).frames, StoreFixtures.shot(2).frames])
        #expect(detail.shots.allSatisfy { $0.sessionId == id && $0.id != nil })
        #expect(try await db.shot(sessionId: id, index: 2)?.shot == StoreFixtures.shot(2).shot)
        #expect(try await db.shot(sessionId: id, index: 3) == nil)
        #expect(try await db.sessionRecord(id: id) == detail.session)
        let track = try #require(try await db.sessionTrack(id: id))
        #expect(track.track == Data([1, 2, 3, 0, 255]) && track.videoFrames == [0, 2, -1] && track.poseToDisplayY == 1.5)
        #expect(try await db.session(id: id + 1000) == nil)
    }

    @Test(arguments: Backend.covered)
    func aSessionThatFailsToStoreLeavesNothing(_ backend: Backend) async throws {
        let db = try await backend.make()
        var twice = Self.newSession("dup.mp4", at: 1)
        twice.shots = [StoreFixtures.shot(1), StoreFixtures.shot(1)]
        await #expect(throws: StoreError.self) { try await db.saveSession(twice) }
        struct Refused: Error {}
        var refused = Self.newSession("doc.mp4", at: 2)
        refused.document = { _ in throw Refused() }
        await #expect(throws: (any Error).self) { try await db.saveSession(refused) }
        #expect(try await db.sessions().isEmpty)
    }

    @Test(arguments: Backend.covered)
    func sessionsAreListedNewestFirstAndDeletedWithEverythingTheyHold(_ backend: Backend) async throws {
        let db = try await backend.make()
        let old = try await db.saveSession(Self.newSession("old.mp4", at: 1_000))
        let new = try await db.saveSession(Self.newSession("new.mp4", at: 3_000))
        let tie = try await db.saveSession(Self.newSession("tie.mp4", at: 3_000))
        #expect(try await db.sessions().map(\.id) == [tie, new, old])
        try await db.deleteSession(id: new)
        #expect(try await db.session(id: new) == nil)
        #expect(try await db.sessionTrack(id: new) == nil)
        #expect(try await db.shot(sessionId: new, index: 1) == nil)
        let missing = await #expect(throws: StoreError.self) { try await db.deleteSession(id: new) }
        #expect(missing?.kind == .notFound)
        #expect(try await db.sessions().map(\.id) == [tie, old])
    }

    @Test(arguments: Backend.covered)
    func anEditIsStoredOnlyOverTheVersionItWasMadeOn(_ backend: Backend) async throws {
        let db = try await backend.make()
        let id = try await db.saveSession(Self.newSession("e.mp4", at: 5))
        let track = SessionTrackRecord(track: Data([9]), videoFrames: [4], poseToDisplayX: 1, poseToDisplayY: 1, parameters: "{}")
        try await db.replaceSession(id: id, revision: 0, stats: SessionStats(shotCount: 1), shots: [StoreFixtures.shot(3)],
                                    track: track) { "edited" }
        let detail = try #require(try await db.session(id: id))
        #expect(detail.session.revision == 1 && detail.session.stats.shotCount == 1 && detail.session.documentJSON == "edited")
        #expect(detail.shots.map(\.shot.index) == [3])
        #expect(try await db.sessionTrack(id: id)?.track == Data([9]))
        let stale = await #expect(throws: StoreError.self) {
            try await db.replaceSession(id: id, revision: 0, stats: SessionStats(shotCount: 0), shots: [], track: track) { "late" }
        }
        #expect(stale?.kind == .conflict)
        #expect(try await db.sessionRecord(id: id)?.documentJSON == "edited", "the refused edit changed nothing")
        let gone = await #expect(throws: StoreError.self) {
            try await db.replaceSession(id: id + 99, revision: 0, stats: SessionStats(shotCount: 0), shots: [], track: track) { "" }
        }
        #expect(gone?.kind == .notFound)
    }

    /// The player said who they are (issue #39): the upload's point and moment ride with the job, claimed and
    /// finished; the session's document (which holds the choice) reads back the same and through an edit; a point
    /// outside the picture, half a point or a moment without a point is refused by both stores alike.
    @Test(arguments: Backend.covered)
    func thePlayersChoiceRoundTripsWithTheJobAndTheSession(_ backend: Backend) async throws {
        let db = try await backend.make()
        var job = Self.job("p.mp4")
        job.playerX = 0.4125; job.playerY = 0.8; job.playerTime = 4.6
        let id = try #require(try await db.enqueueJob(job).id)
        let stored = try #require(try await db.job(id: id))
        #expect(stored.playerX == 0.4125 && stored.playerY == 0.8 && stored.playerTime == 4.6)
        let claimed = try #require(try await db.claimNextJob(workerId: "w", leaseSeconds: 30, now: Self.t0))
        #expect(claimed.playerX == 0.4125 && claimed.playerY == 0.8 && claimed.playerTime == 4.6)
        var untimed = Self.job("q.mp4")
        untimed.playerX = 0; untimed.playerY = 1
        let plainId = try #require(try await db.enqueueJob(untimed).id)
        let plain = try #require(try await db.job(id: plainId))
        #expect(plain.playerX == 0 && plain.playerY == 1 && plain.playerTime == nil)
        let noneId = try #require(try await db.enqueueJob(Self.job("r.mp4")).id)
        #expect(try await db.job(id: noneId)?.playerX == nil)

        for (x, y, t) in [(1.5, 0.5, nil), (0.5, -0.1, nil), (0.5, nil, nil), (nil, 0.5, nil), (nil, nil, 3.0), (0.5, 0.5, -1.0)] as [(Double?, Double?, Double?)] {
            var bad = Self.job("bad.mp4")
            bad.playerX = x; bad.playerY = y; bad.playerTime = t
            await #expect(throws: StoreError.self, "\(String(describing: x)),\(String(describing: y))@\(String(describing: t)) was stored") {
                try await db.enqueueJob(bad)
            }
        }
        #expect(try await db.recentJobs(limit: 10).count == 3, "a refused job left a row")

        var session = Self.newSession("p.mp4", at: 20)
        let document = #"{"session":{"player":{"time":4.6,"x":0.4125,"y":0.8}}}"#
        session.document = { _ in document }
        let sid = try await db.saveSession(session)
        #expect(try await db.sessionRecord(id: sid)?.documentJSON == document)
        let changed = #"{"session":{"player":{"time":7.25,"x":0.2,"y":0.75}}}"#
        let track = SessionTrackRecord(track: Data([7]), videoFrames: [1], poseToDisplayX: 1, poseToDisplayY: 1, parameters: "{}")
        try await db.replaceSession(id: sid, revision: 0, stats: SessionStats(shotCount: 0), shots: [], track: track) { changed }
        #expect(try await db.sessionRecord(id: sid)?.documentJSON == changed)
    }

    // MARK: The player and the model records

    @Test(arguments: Backend.covered)
    func theDominantHandIsRememberedAndChanged(_ backend: Backend) async throws {
        let db = try await backend.make()
        #expect(try await db.dominantHand() == nil)
        try await db.setDominantHand(.left)
        try await db.setDominantHand(.right)
        #expect(try await db.dominantHand() == .right)
    }

    @Test(arguments: Backend.covered)
    func modelRecordsKeepPreferencesUsageAndRuns(_ backend: Backend) async throws {
        let db = try await backend.make()
        #expect(try await db.modelRecord(id: "yolo") == nil)
        try await db.setThresholds(conf: 0.4, iou: nil, id: "yolo")
        try await db.recordModelUse(id: "yolo", at: Self.t0)
        try await db.recordModelUse(id: "yolo", at: Self.t0.addingTimeInterval(60))
        try await db.setFavorite(true, id: "cards")
        try await db.setHidden(true, id: "old")
        try await db.setDefaults(conf: 0.3, iou: 0.5, maxDetections: 10, lineWidth: 3, interpreter: "counter",
                                 interpreterConfigJSON: #"{"label":"person"}"#, id: "people")
        let yolo = try #require(try await db.modelRecord(id: "yolo"))
        #expect(yolo.confThreshold == 0.4 && yolo.iouThreshold == nil && yolo.usageCount == 2)
        #expect(abs((yolo.lastUsedAt ?? .distantPast).timeIntervalSince(Self.t0.addingTimeInterval(60))) < 0.002)
        #expect(try await db.modelRecord(id: "people")?.interpreter == "counter")
        // Favourites first, then the most recently used, then by id.
        #expect(try await db.allModelRecords().map(\.modelId) == ["cards", "yolo", "old", "people"])
        #expect(try await db.removeModelRecord(id: "old") == true)
        #expect(try await db.removeModelRecord(id: "old") == false)

        for n in 0..<3 {
            _ = try await db.saveDetectionSession(DetectionSessionRecord(modelId: n == 2 ? "cards" : "yolo", startedAt: Self.t0.addingTimeInterval(Double(n)),
                                                                     endedAt: Self.t0.addingTimeInterval(Double(n) + 1), frameCount: 10 * n,
                                                                     detectionCount: n, averageInferenceMs: 4.5, source: "camera",
                                                                     interpreter: nil, summary: n == 1 ? "2 contacts" : nil))
        }
        #expect(try await db.detectionSessions(modelId: nil, limit: nil).map(\.frameCount) == [20, 10, 0])
        #expect(try await db.detectionSessions(modelId: "yolo", limit: 1).map(\.summary) == ["2 contacts"])
    }

    @Test(arguments: Backend.covered)
    func racketSoundsAreKeptListedNewestFirstAndForgottenAndAJobNamesOne(_ backend: Backend) async throws {
        let db = try await backend.make()
        #expect(try await db.contactModels().isEmpty)
        let model = #"{"format":"swingmaster-contact-model","trees":"\#(String(repeating: "é", count: 40_000))"}"#
        var ids: [Int64] = []
        for n in 0..<3 {
            ids.append(try await db.saveContactModel(ContactModelRecord(name: "racket \(n)", createdAt: Self.t0.addingTimeInterval(Double(n)),
                                                                        sessionId: n == 1 ? nil : Int64(n + 7), contacts: 10 + n,
                                                                        f1: 0.5 + Double(n) / 4, model: model + String(n))))
        }
        #expect(Set(ids).count == 3)
        let listed = try await db.contactModels()
        #expect(listed.map(\.name) == ["racket 2", "racket 1", "racket 0"])
        #expect(listed.map(\.sessionId) == [9, nil, 7] && listed.map(\.contacts) == [12, 11, 10] && listed.map(\.f1) == [1.0, 0.75, 0.5])
        let one = try #require(try await db.contactModel(id: ids[1]))
        #expect(one.model == model + "1" && one.id == ids[1])
        #expect(abs(one.createdAt.timeIntervalSince(Self.t0.addingTimeInterval(1))) < 0.002)
        #expect(try await db.contactModel(id: 9_999) == nil)

        var job = Self.job("racket.mp4")
        job.contactModelId = ids[2]
        let jid = try #require(try await db.enqueueJob(job).id)
        #expect(try await db.job(id: jid)?.contactModelId == ids[2])
        #expect(try await db.claimNextJob(workerId: "w", leaseSeconds: 30, now: Self.t0)?.contactModelId == ids[2])
        let plain = try #require(try await db.enqueueJob(Self.job("plain.mp4")).id)
        #expect(try await db.job(id: plain)?.contactModelId == nil)

        #expect(try await db.removeContactModel(id: ids[0]) == true)
        #expect(try await db.removeContactModel(id: ids[0]) == false)
        #expect(try await db.contactModels().map(\.name) == ["racket 2", "racket 1"])
    }

    // MARK: The job queue

    @Test(arguments: Backend.covered)
    func aClaimedJobIsHeldByItsLeaseUntilItIsDoneWithExactlyOneSession(_ backend: Backend) async throws {
        let db = try await backend.make()
        let queued = try await db.enqueueJob(Self.job("a.mp4"))
        let id = try #require(queued.id)
        #expect(queued.state == .queued && queued.attempts == 0)
        let stored = try #require(try await db.job(id: id))
        #expect(stored.hand == "left" && stored.start == 1.5 && stored.swingCheck == false && stored.sensitivity == "more")
        #expect(stored.warnings == ["below 720p"])

        let claimed = try #require(try await db.claimNextJob(workerId: "w1", leaseSeconds: 30, now: Self.t0))
        let lease = try #require(claimed.lease)
        #expect(claimed.state == .running && claimed.workerId == "w1" && claimed.attempts == 1 && claimed.stage == nil)
        #expect(try await db.claimNextJob(workerId: "w2", leaseSeconds: 30, now: Self.t0) == nil, "a held job is not claimed again")
        #expect(try await db.heartbeat(lease, stage: .runningPose, progress: 0.5, leaseSeconds: 30, now: Self.t0.addingTimeInterval(20)) == .held)
        // The heartbeat renewed the lease: 40 s after the claim it still holds.
        #expect(try await db.claimNextJob(workerId: "w2", leaseSeconds: 30, now: Self.t0.addingTimeInterval(40)) == nil)
        let running = try #require(try await db.job(id: id))
        #expect(running.stage == .runningPose && running.progress == 0.5)
        #expect(try await db.jobCountsByState() == [.running: 1])

        let sessionId = try await db.completeJob(lease, session: Self.newSession("a.mp4", at: 10), now: Self.t0.addingTimeInterval(45))
        let done = try #require(try await db.job(id: id))
        #expect(done.state == .done && done.sessionId == sessionId && done.progress == 1 && done.leaseToken == nil)
        // The lease ended with the job: a second completion stores nothing.
        let again = await #expect(throws: StoreError.self) {
            try await db.completeJob(lease, session: Self.newSession("a.mp4", at: 11), now: Self.t0.addingTimeInterval(46))
        }
        #expect(again?.kind == .leaseLost)
        #expect(try await db.sessions().count == 1)
        #expect(try await db.heartbeat(lease, stage: .computingStatistics, progress: 1, leaseSeconds: 30, now: Self.t0) == .lost)
    }

    @Test(arguments: Backend.covered)
    func aJobWhoseWorkerStoppedIsTakenAgainAndTheLateWorkerCannotWrite(_ backend: Backend) async throws {
        let db = try await backend.make()
        let id = try #require(try await db.enqueueJob(Self.job("b.mp4")).id)
        let first = try #require(try await db.claimNextJob(workerId: "dead", leaseSeconds: 10, now: Self.t0)?.lease)
        // The worker stops reporting; 11 s later the lease has run out and another worker takes the job.
        let second = try #require(try await db.claimNextJob(workerId: "alive", leaseSeconds: 10, now: Self.t0.addingTimeInterval(11)))
        #expect(second.attempts == 2 && second.expiries == 1 && second.workerId == "alive" && second.leaseToken != first.token)
        // The first worker wakes up: its heartbeat learns it lost the job, and its writes are refused.
        #expect(try await db.heartbeat(first, stage: .runningPose, progress: 0.9, leaseSeconds: 10, now: Self.t0.addingTimeInterval(12)) == .lost)
        let late = await #expect(throws: StoreError.self) {
            try await db.completeJob(first, session: Self.newSession("b.mp4", at: 1), now: Self.t0.addingTimeInterval(12))
        }
        #expect(late?.kind == .leaseLost)
        #expect(try await db.finishJob(first, state: .failed, error: "late", errorCode: 1, now: Self.t0.addingTimeInterval(12)) == false)
        #expect(try await db.retryJob(first, error: "late", errorCode: 1, now: Self.t0.addingTimeInterval(12)) == nil)
        let held = try await db.job(id: id)
        #expect(held?.state == .running && held?.workerId == "alive")
        _ = try await db.completeJob(try #require(second.lease), session: Self.newSession("b.mp4", at: 2), now: Self.t0.addingTimeInterval(13))
        #expect(try await db.sessions().count == 1, "exactly one session for the job")
        let status = try await db.queueStatus(now: Self.t0.addingTimeInterval(13))
        #expect(status.leaseExpiries == 1 && status.retries == 1 && status.queued == 0)
    }

    @Test(arguments: Backend.covered)
    func aJobWhoseLeaseRunsOutOnEveryAttemptFailsWithASentence(_ backend: Backend) async throws {
        let db = try await backend.make()
        let id = try #require(try await db.enqueueJob(Self.job("c.mp4")).id)
        var now = Self.t0
        for attempt in 1...JobRecord.maxAttempts {
            let job = try #require(try await db.claimNextJob(workerId: "w\(attempt)", leaseSeconds: 5, now: now))
            #expect(job.attempts == attempt)
            now.addTimeInterval(6)
        }
        #expect(try await db.claimNextJob(workerId: "last", leaseSeconds: 5, now: now) == nil)
        let failed = try #require(try await db.job(id: id))
        #expect(failed.state == .failed && failed.expiries == JobRecord.maxAttempts)
        #expect(ErrorSentence.isWellFormed(failed.error ?? ""), "\(failed.error ?? "no sentence")")
        #expect(failed.error?.contains("c.mp4") == true)
    }

    @Test(arguments: Backend.covered)
    func aFailureThatMayPassIsRetriedAfterABackoffThenFails(_ backend: Backend) async throws {
        let db = try await backend.make()
        let id = try #require(try await db.enqueueJob(Self.job("d.mp4")).id)
        var now = Self.t0
        for attempt in 1...JobRecord.maxAttempts {
            let lease = try #require(try await db.claimNextJob(workerId: "w", leaseSeconds: 30, now: now)?.lease)
            let state = try await db.retryJob(lease, error: "The store could not be reached.", errorCode: 40, now: now)
            #expect(state == (attempt < JobRecord.maxAttempts ? .queued : .failed))
            let wait = JobRecord.backoff(afterAttempt: attempt)
            if attempt < JobRecord.maxAttempts {
                #expect(try await db.claimNextJob(workerId: "w", leaseSeconds: 30, now: now.addingTimeInterval(wait - 0.5)) == nil,
                        "claimed before its backoff")
            }
            now.addTimeInterval(wait + 0.5)
        }
        let failed = try #require(try await db.job(id: id))
        #expect(failed.state == .failed && failed.error == "The store could not be reached." && failed.errorCode == 40)
    }

    @Test(arguments: Backend.covered)
    func aReleasedJobIsQueuedAgainWithoutCountingTheAttempt(_ backend: Backend) async throws {
        let db = try await backend.make()
        let id = try #require(try await db.enqueueJob(Self.job("e.mp4")).id)
        let lease = try #require(try await db.claimNextJob(workerId: "w", leaseSeconds: 30, now: Self.t0)?.lease)
        try await db.releaseJob(lease)
        let job = try #require(try await db.job(id: id))
        #expect(job.state == .queued && job.attempts == 0 && job.workerId == nil && job.leaseToken == nil)
        #expect(try await db.claimNextJob(workerId: "w", leaseSeconds: 30, now: Self.t0)?.attempts == 1)
    }

    @Test(arguments: Backend.covered)
    func cancellingEndsAQueuedJobAtOnceAndAsksARunningOne(_ backend: Backend) async throws {
        let db = try await backend.make()
        let running = try #require(try await db.enqueueJob(Self.job("r.mp4", at: 0)).id)
        let waiting = try #require(try await db.enqueueJob(Self.job("w.mp4", at: 1)).id)
        let lease = try #require(try await db.claimNextJob(workerId: "w", leaseSeconds: 30, now: Self.t0)?.lease)
        #expect(lease.jobId == running, "the oldest job is claimed first")
        #expect(try await db.cancelJob(id: waiting, now: Self.t0)?.state == .cancelled)
        #expect(try await db.cancelJob(id: running, now: Self.t0)?.cancelRequested == true)
        #expect(try await db.heartbeat(lease, stage: .detectingContacts, progress: 0.1, leaseSeconds: 30, now: Self.t0) == .cancelRequested)
        #expect(try await db.finishJob(lease, state: .cancelled, error: "The analysis was cancelled.", errorCode: 130, now: Self.t0) == true)
        #expect(try await db.job(id: running)?.state == .cancelled)
        #expect(try await db.cancelJob(id: 9999, now: Self.t0) == nil)
        // A job whose cancel was asked while its worker died is cancelled, not run again.
        let orphan = try #require(try await db.enqueueJob(Self.job("o.mp4", at: 2)).id)
        _ = try #require(try await db.claimNextJob(workerId: "dies", leaseSeconds: 5, now: Self.t0))
        _ = try await db.cancelJob(id: orphan, now: Self.t0)
        #expect(try await db.claimNextJob(workerId: "next", leaseSeconds: 5, now: Self.t0.addingTimeInterval(10)) == nil)
        #expect(try await db.job(id: orphan)?.state == .cancelled)
    }

    @Test(arguments: Backend.covered)
    func mediaIsInUseWhileAJobOrSessionNamesIt(_ backend: Backend) async throws {
        let db = try await backend.make()
        let job = try await db.enqueueJob(Self.job("m.mp4"))
        #expect(try await db.mediaInUse(path: "/media/m.mp4"))
        #expect(try await !db.mediaInUse(path: "/media/other.mp4"))
        try await db.recordPlaybackCopy(jobId: try #require(job.id), path: "/media/m.mp4.playback.mp4")
        #expect(try await db.playbackPath(forMedia: "/media/m.mp4") == "/media/m.mp4.playback.mp4")
        _ = try await db.cancelJob(id: try #require(job.id), now: Self.t0)
        #expect(try await !db.mediaInUse(path: "/media/m.mp4"))
        var session = Self.newSession("m.mp4", at: 1)
        session.record.filePath = "/media/m.mp4"
        _ = try await db.saveSession(session)
        #expect(try await db.mediaInUse(path: "/media/m.mp4"))
    }

    @Test(arguments: Backend.covered)
    func theQueueStatusCountsWaitingJobsAndTheOldestWait(_ backend: Backend) async throws {
        let db = try await backend.make()
        for n in 0..<3 { _ = try await db.enqueueJob(Self.job("\(n).mp4", at: Double(n))) }
        _ = try await db.claimNextJob(workerId: "w", leaseSeconds: 30, now: Self.t0.addingTimeInterval(10))
        let status = try await db.queueStatus(now: Self.t0.addingTimeInterval(10))
        #expect(status.queued == 2)
        #expect(abs(status.oldestQueuedSeconds - 9) < 0.01, "the oldest waiting job was queued at 1 s")
    }

    /// Two workers race for one job, 200 times: one wins each time, the other gets nothing.
    @Test(arguments: Backend.covered)
    func twoWorkersRacingForOneJobNeverBothWin(_ backend: Backend) async throws {
        let db = try await backend.make()
        for round in 0..<200 {
            let id = try #require(try await db.enqueueJob(Self.job("race\(round).mp4", at: Double(round))).id)
            async let a = db.claimNextJob(workerId: "a", leaseSeconds: 30, now: Self.t0.addingTimeInterval(1000))
            async let b = db.claimNextJob(workerId: "b", leaseSeconds: 30, now: Self.t0.addingTimeInterval(1000))
            let won = [try await a, try await b].compactMap { $0 }
            #expect(won.count == 1 && won.first?.id == id, "round \(round): \(won.count) winners")
            _ = try await db.completeJob(try #require(won.first?.lease), session: Self.newSession("race.mp4", at: Double(round), shots: 0),
                                         now: Self.t0.addingTimeInterval(1000))
        }
        #expect(try await db.sessions().count == 200)
    }

    /// Eight workers drain 40 jobs at once: every job is run exactly once.
    @Test(arguments: Backend.covered)
    func manyWorkersDrainTheQueueEachJobOnce(_ backend: Backend) async throws {
        let db = try await backend.make()
        for n in 0..<40 { _ = try await db.enqueueJob(Self.job("\(n).mp4", at: Double(n))) }
        let claimed = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for w in 0..<8 {
                group.addTask {
                    var mine: [Int64] = []
                    while let job = try await db.claimNextJob(workerId: "w\(w)", leaseSeconds: 30, now: Self.t0.addingTimeInterval(100)),
                          let lease = job.lease {
                        _ = try await db.completeJob(lease, session: Self.newSession("x.mp4", at: 1, shots: 0), now: Self.t0.addingTimeInterval(100))
                        mine.append(lease.jobId)
                    }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(claimed.count == 40 && Set(claimed).count == 40)
        #expect(try await db.jobCountsByState() == [.done: 40])
        #expect(try await db.sessions().count == 40)
    }

    @Test(arguments: Backend.covered)
    func aQueuedJobWakesAWaitingWorker(_ backend: Backend) async throws {
        let db = try await backend.make()
        let clock = ContinuousClock()
        let start = clock.now
        // Woken long before the timeout, which is generous: beside the suites that block Swift's few cooperative
        // threads (SQLite's synchronous calls, process waits) a wake-up was measured 9-22 s late, not missed.
        let timeout = Duration.seconds(90)
        async let woke: Void = db.waitForQueuedJob(timeout: timeout)
        try await Task.sleep(for: .milliseconds(300))
        _ = try await db.enqueueJob(Self.job("wake.mp4"))
        await woke
        #expect(start.duration(to: clock.now) < timeout / 3, "the worker slept until its timeout")
    }

    /// Processes starting together on a new PostgreSQL database migrate it once: every one opens, and
    /// each migration is recorded once, under the same names as SQLite's.
    @Test(.enabled(if: PostgresCluster.isAvailable || PostgresCluster.isRequired))
    func storesOpeningANewPostgresDatabaseTogetherMigrateItOnce() async throws {
        let url = try PostgresCluster.shared().newDatabase("together")
        let stores = try await withThrowingTaskGroup(of: PostgresStore.self) { group in
            for _ in 0..<6 { group.addTask { try await PostgresStore.connect(url: url) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(stores.count == 6)
        #expect(try await stores[0].appliedMigrations() == AppDatabase.migrator.migrations)
        for store in stores { store.close() }
    }

    @Test func aStoreAddressIsSqliteOrPostgresAndNothingElse() throws {
        #expect(try StoreAddress(parsing: "sqlite:/tmp/a.sqlite") == .sqlite(URL(fileURLWithPath: "/tmp/a.sqlite")))
        #expect(try StoreAddress(parsing: "postgres://u:secret@db:5433/s") == .postgres("postgres://u:secret@db:5433/s"))
        #expect(try StoreAddress(parsing: "postgres://u:secret@db:5433/s").description == "postgres://u:***@db:5433/s",
                "a password never reaches a message")
        for bad in ["", "mysql://db/x", "sqlite:", "postgres:///nohost", "/just/a/path"] {
            let error = #expect(throws: StoreError.self) { try StoreAddress(parsing: bad) }
            #expect(ErrorSentence.isWellFormed(error?.message ?? ""), "\(bad): \(error?.message ?? "")")
        }
        #expect(try StoreAddress.standard(environment: ["SWINGMASTER_DATABASE": "postgres://h/d"]) == .postgres("postgres://h/d"))
    }

    @Test func anUnreachablePostgresServerIsOneSentence() async throws {
        let port = try TestFiles.freePort()   // nobody listens there
        let error = await #expect(throws: StoreError.self) {
            try await PostgresStore.connect(url: "postgres://swingmaster@127.0.0.1:\(port)/none?sslmode=disable")
        }
        #expect(error?.kind == .databaseError)
        #expect(ErrorSentence.isWellFormed(error?.message ?? ""), "\(error?.message ?? "")")
        #expect(error?.message.contains("127.0.0.1:\(port)") == true, "the sentence names the server")
    }
}
