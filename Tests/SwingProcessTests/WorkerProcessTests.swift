import Foundation
import Testing
import SwingCore
import SwingStore
import SwingTestSupport

/// The deployment of docs/deploy.md, for real on loopback: one PostgreSQL server (started by the test),
/// one `swingmaster serve --workers 0`, and `swingmaster worker` processes; uploads over HTTP. Then the
/// ways workers die or stall, and the database restarting under them. What must hold every time: each
/// job ends once, with exactly one session.
@Suite(.serialized, .enabled(if: PostgresCluster.isAvailable || PostgresCluster.isRequired))
struct WorkerProcessTests {
    struct Refused: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A `swingmaster` process running in the background (a ``Child``); its stdout and stderr go to `log`.
    final class Running: Sendable {
        let child: Child
        let log: URL

        init(_ arguments: [String], home: URL, name: String) throws {
            log = home.appendingPathComponent("\(name).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            child = try Child(SwingmasterBinary.path, arguments, environment: ["SWINGMASTER_HOME": home.path],
                              output: .handle(handle), errors: .handle(handle))
        }

        var text: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        var isRunning: Bool { child.isRunning }

        func signal(_ signal: Int32) { child.signal(signal) }

        /// Sends SIGTERM and waits for the exit (SIGKILL after `seconds`); returns the status.
        @discardableResult
        func stop(within seconds: Double = 30) async -> Int32 {
            await child.stop(SIGTERM, grace: .seconds(seconds)).status
        }
    }

    /// One deployment: a database on the shared server (or `cluster`), a home and a media folder, the web
    /// app, and the workers the test starts.
    final class Deployment: @unchecked Sendable {
        let url: String
        let home: URL
        let media: URL
        let port: Int
        var server: Running?
        var workers: [Running] = []
        let store: PostgresStore

        init(cluster: PostgresCluster? = nil) async throws {
            let cluster = try cluster ?? PostgresCluster.shared()
            url = try cluster.newDatabase("workers")
            home = try TestFiles.temporaryDirectory("workers-home")
            media = home.appendingPathComponent("shared-media")
            try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
            port = try TestFiles.freePort()
            store = try await PostgresStore.connect(url: url)
        }

        func startServer() async throws {
            server = try Running(["serve", "--port", "\(port)", "--database", url, "--media", media.path, "--workers", "0"],
                                 home: home, name: "serve")
            let port = port, server = server
            let answered = await Poll.holds(within: .seconds(60), every: .milliseconds(100)) {
                guard server?.isRunning == true else { return true }   // it exited: stop waiting
                return (try? await Subprocess.run("curl", ["-sf", "http://127.0.0.1:\(port)/healthz"], timeout: 5))?.succeeded == true
            }
            guard answered, server?.isRunning == true else { throw Refused("serve did not answer: \(server?.text ?? "")") }
        }

        @discardableResult
        func startWorker(_ extra: [String] = []) throws -> Running {
            let worker = try Running(["worker", "--database", url, "--media", media.path] + extra, home: home, name: "worker\(workers.count)")
            workers.append(worker)
            return worker
        }

        /// Uploads the demo clip as `name`; returns the job id.
        func upload(_ name: String) async throws -> Int64 {
            let out = try await Subprocess.output("curl", ["-sf", "-X", "POST", "--data-binary", "@\(TestFiles.packageRoot.path)/Samples/demo_session.mp4",
                                                     "-H", "Content-Type: video/mp4", "-H", "X-Filename: \(name)",
                                                     "http://127.0.0.1:\(port)/api/uploads"], timeout: 60)
            let body = try JSONSerialization.jsonObject(with: out) as? [String: Any]
            guard let id = (body?["job"] as? [String: Any])?["id"] as? Int else {
                throw Refused("no job in \(String(decoding: out, as: UTF8.self))")
            }
            return Int64(id)
        }

        /// Waits until no job is queued or running (or `seconds` pass).
        func drain(within seconds: Double) async throws -> [JobState: Int] {
            let store = store
            let drained = try await Poll.until(within: .seconds(seconds), every: .milliseconds(200)) { () -> [JobState: Int]? in
                let counts = try await store.jobCountsByState()
                return (counts[.queued] ?? 0) + (counts[.running] ?? 0) == 0 ? counts : nil
            }
            if let drained { return drained }
            return try await store.jobCountsByState()
        }

        /// Waits until job `id` is running and returns it.
        func running(_ id: Int64, within seconds: Double = 60) async throws -> JobRecord? {
            let store = store
            return try await Poll.until(within: .seconds(seconds)) { () -> JobRecord? in
                guard let job = try await store.job(id: id), job.state == .running else { return nil }
                return job
            }
        }

        var logs: String { ([server].compactMap { $0 } + workers).map { "\($0.log.lastPathComponent):\n\($0.text.suffix(3000))" }.joined(separator: "\n") }

        /// Runs `body` on a new deployment and stops it after, whether `body` threw or not.
        static func with(cluster: PostgresCluster? = nil, _ body: (Deployment) async throws -> Void) async throws {
            let d = try await Deployment(cluster: cluster)
            do { try await body(d) } catch { await d.stop(); throw error }
            await d.stop()
        }

        func stop() async {
            for w in workers { await w.stop() }
            await server?.stop()
            store.close()
            try? FileManager.default.removeItem(at: home)
        }
    }

    /// Real analyses of the demo clip (not stand-ins), 12 of them: four for each worker if they shared them evenly
    /// (30 took 90 s of CI on 2 cores and showed nothing 12 do not).
    @Test func threeWorkersAndAServerDrainTwelveJobs() async throws {
        try await Deployment.with { d in
            try await d.startServer()
            for _ in 0..<3 { try d.startWorker() }
            var ids: [Int64] = []
            for n in 0..<12 { ids.append(try await d.upload("clip\(n).mp4")) }
            let counts = try await d.drain(within: 600)
            #expect(counts == [.done: 12], "\(counts)\n\(d.logs)")
            let jobs = try await d.store.recentJobs(limit: 100)
            let sessions = try await d.store.sessions()
            #expect(sessions.count == 12, "exactly one session per job")
            #expect(Set(jobs.compactMap(\.sessionId)) == Set(sessions.compactMap(\.id)))
            #expect(Set(jobs.compactMap(\.workerId)).count >= 2, "one worker did everything: \(Set(jobs.compactMap(\.workerId)))")
            // The web app reads the workers' sessions from the shared store.
            let list = try await Subprocess.output("curl", ["-sf", "http://127.0.0.1:\(d.port)/api/sessions"], timeout: 30)
            let listed = (try JSONSerialization.jsonObject(with: list) as? [String: Any])?["sessions"] as? [Any]
            #expect(listed?.count == 12)
            for w in d.workers { #expect(await w.stop() == 0, "a worker did not stop cleanly on SIGTERM:\n\(w.text.suffix(2000))") }
        }
    }

    @Test func aWorkerKilledMidJobLosesItToAnotherAfterTheLeaseAndTheJobCompletesOnce() async throws {
        try await Deployment.with { d in
            try await d.startServer()
            let doomed = try d.startWorker(["--stand-in-ms", "4000", "--lease-seconds", "2"])
            let id = try await d.upload("killed.mp4")
            let first = try #require(try await d.running(id), "\(d.logs)")
            doomed.signal(SIGKILL)
            try d.startWorker(["--stand-in-ms", "500", "--lease-seconds", "2"])
            #expect(try await d.drain(within: 60) == [.done: 1], "\(d.logs)")
            let job = try #require(try await d.store.job(id: id))
            #expect(job.attempts == 2 && job.expiries == 1 && job.workerId != first.workerId)
            #expect(try await d.store.sessions().count == 1)
        }
    }

    @Test func aWorkerPausedPastItsLeaseCannotWriteWhenItWakes() async throws {
        try await Deployment.with { d in
            try await d.startServer()
            let sleeper = try d.startWorker(["--stand-in-ms", "2000", "--lease-seconds", "1"])
            let id = try await d.upload("paused.mp4")
            _ = try #require(try await d.running(id), "\(d.logs)")
            sleeper.signal(SIGSTOP)
            try d.startWorker(["--stand-in-ms", "300", "--lease-seconds", "1"])
            #expect(try await d.drain(within: 60) == [.done: 1], "\(d.logs)")
            let done = try #require(try await d.store.job(id: id))
            // The paused worker wakes up with its analysis finished and tries to store it.
            sleeper.signal(SIGCONT)
            _ = await Poll.holds(within: .seconds(20), every: .milliseconds(100)) { sleeper.text.contains("lease lost") }
            #expect(sleeper.text.contains("lease lost"), "\(sleeper.text)")
            #expect(try await d.store.sessions().count == 1, "the late worker stored a second session")
            #expect(try await d.store.job(id: id) == done, "the late worker changed the finished job")
        }
    }

    @Test func postgresRestartingMidRunLosesNoJobAndDoublesNone() async throws {
        let cluster = try PostgresCluster.start()   // its own server: this test restarts it
        defer { cluster.stop() }
        try await Deployment.with(cluster: cluster) { d in
            try await d.startServer()
            for _ in 0..<2 { try d.startWorker(["--stand-in-ms", "400", "--lease-seconds", "5"]) }
            var ids: [Int64] = []
            for n in 0..<12 { ids.append(try await d.upload("restart\(n).mp4")) }
            try await Task.sleep(for: .seconds(1))
            try await cluster.restart(downFor: 2)
            // The web app reconnects: uploads work again.
            let late = await Poll.until(within: .seconds(30), every: .milliseconds(250)) { try? await d.upload("after.mp4") }
            #expect(late != nil, "the web app did not recover from the restart:\n\(d.logs)")
            #expect(try await d.drain(within: 120) == [.done: ids.count + (late == nil ? 0 : 1)], "\(d.logs)")
            let sessions = try await d.store.sessions()
            #expect(sessions.count == ids.count + (late == nil ? 0 : 1), "a job was lost or stored twice")
        }
    }

    @Test func sigtermGivesARunningJobBackToTheQueue() async throws {
        try await Deployment.with { d in
            try await d.startServer()
            let worker = try d.startWorker(["--stand-in-ms", "30000"])
            let id = try await d.upload("stopped.mp4")
            _ = try #require(try await d.running(id), "\(d.logs)")
            #expect(await worker.stop() == 0, "\(worker.text)")
            let job = try #require(try await d.store.job(id: id))
            #expect(job.state == .queued && job.attempts == 0, "after SIGTERM the job is \(job.state), attempt \(job.attempts)")
            try d.startWorker(["--stand-in-ms", "100"])
            #expect(try await d.drain(within: 60) == [.done: 1], "\(d.logs)")
        }
    }
}
