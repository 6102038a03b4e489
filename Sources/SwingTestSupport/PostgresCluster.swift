import Foundation
import SwingCore

/// A throw-away PostgreSQL server for tests: `initdb` into a temporary folder, `pg_ctl start` on
/// 127.0.0.1 and a free port (no other address, trust authentication for its one local user), and
/// `stop()` removes it all. Debian's `postgresql` package (installed by `make setup`) provides the
/// programs; as root they run as the `postgres` user, since PostgreSQL refuses to run as root.
///
/// ``shared`` is one server for the whole test process (stopped when it exits); tests that restart the
/// server start their own.
package final class PostgresCluster: @unchecked Sendable {   // mutable state guarded by `lock`
    /// The folder holding the data directory, the socket and the log.
    package let directory: URL
    package let port: Int
    private let bin: URL
    private let lock = NSLock()
    private var running = false
    private var databases = 0

    /// The user the server knows (trust authentication on 127.0.0.1).
    package static let user = "swingmaster"

    /// Where PostgreSQL's programs are: `$SWINGMASTER_PG_BIN`, else Debian's newest
    /// `/usr/lib/postgresql/N/bin`, else the folder of `initdb` on `PATH`; `nil` when it is not installed.
    package static let binDirectory: URL? = {
        let fm = FileManager.default
        if let dir = ProcessInfo.processInfo.environment["SWINGMASTER_PG_BIN"], fm.fileExists(atPath: dir + "/initdb") {
            return URL(fileURLWithPath: dir)
        }
        let debian = ((try? fm.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .compactMap(Int.init).sorted().last.map { URL(fileURLWithPath: "/usr/lib/postgresql/\($0)/bin") }
        if let debian, fm.fileExists(atPath: debian.appendingPathComponent("initdb").path) { return debian }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") where fm.fileExists(atPath: "\(dir)/initdb") {
            return URL(fileURLWithPath: String(dir))
        }
        return nil
    }()

    /// Whether PostgreSQL's server programs are installed here.
    package static var isAvailable: Bool { binDirectory != nil }

    /// Whether the run must have PostgreSQL (`make test` sets `SWINGMASTER_REQUIRE_POSTGRES=1`): then a
    /// missing install fails instead of skipping.
    package static var isRequired: Bool { ProcessInfo.processInfo.environment["SWINGMASTER_REQUIRE_POSTGRES"] == "1" }

    private static let sharedResult: Result<PostgresCluster, any Error> = {
        Result {
            let cluster = try PostgresCluster.start()
            atexit { PostgresCluster.stopShared() }
            return cluster
        }
    }()

    /// The test process's one server, started on first use.
    package static func shared() throws -> PostgresCluster { try sharedResult.get() }

    private static func stopShared() { if case .success(let c) = sharedResult { c.stop() } }

    /// Starts a new server.
    /// - Throws: ``Subprocess/Failure`` with the program's own output when PostgreSQL is missing or refuses.
    package static func start() throws -> PostgresCluster {
        guard let bin = binDirectory else {
            throw Subprocess.Failure(description: "PostgreSQL is not installed (no initdb); run `make setup`.")
        }
        // Under /tmp, which the postgres user can reach whatever owns the checkout.
        let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("swingmaster-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let cluster = PostgresCluster(directory: directory, port: try TestFiles.freePort(), bin: bin)
        if getuid() == 0 { _ = try Subprocess.run("chown", ["-R", "postgres:postgres", directory.path], timeout: 30) }
        try cluster.pg("initdb", ["-D", cluster.data, "-U", user, "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"])
        try cluster.startServer()
        return cluster
    }

    private init(directory: URL, port: Int, bin: URL) {
        self.directory = directory
        self.port = port
        self.bin = bin
    }

    deinit { stop() }

    private var data: String { directory.appendingPathComponent("data").path }

    /// A new, empty database on this server, as the URL the store takes.
    package func newDatabase(_ tag: String = "test") throws -> String {
        let name = lock.withLock { databases += 1; return "\(tag)_\(databases)_\(UUID().uuidString.prefix(6).lowercased())" }
            .replacingOccurrences(of: "-", with: "_")
        try pg("createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, name])
        return url(database: name)
    }

    /// The store URL of `database` on this server.
    package func url(database: String) -> String {
        "postgres://\(Self.user)@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// Stops the server (fast shutdown: connections are closed) and starts it again on the same port, after
    /// `seconds` down; PostgreSQL's programs run on threads of their own.
    package func restart(downFor seconds: Double = 0) async throws {
        try await BlockingWork.run("swingmaster.pg") { [self] in
            try pg("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"])
            lock.withLock { running = false }
        }
        if seconds > 0 { try await Task.sleep(for: .seconds(seconds)) }
        try await BlockingWork.run("swingmaster.pg") { [self] in try startServer() }
    }

    /// Stops the server and removes its folder.
    package func stop() {
        let wasRunning = lock.withLock { () -> Bool in defer { running = false }; return running }
        if wasRunning { _ = try? pg("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]) }
        try? FileManager.default.removeItem(at: directory)
    }

    private func startServer() throws {
        let options = "-c listen_addresses=127.0.0.1 -p \(port) -k \(directory.path) -c fsync=off -c synchronous_commit=off -c max_connections=200"
        try pg("pg_ctl", ["-D", data, "-l", directory.appendingPathComponent("server.log").path, "-o", options, "-w", "-t", "60", "start"])
        lock.withLock { running = true }
    }

    /// Runs one of PostgreSQL's programs (as `postgres` when we are root).
    @discardableResult
    private func pg(_ program: String, _ arguments: [String]) throws -> Subprocess.Outcome {
        let path = bin.appendingPathComponent(program).path
        let command = (getuid() == 0 ? ["runuser", "-u", "postgres", "--"] : []) + [path] + arguments
        // Through Python's subprocess, which closes every descriptor but the three standard ones in the child: it
        // was needed while Foundation's `Process` heard an end only when a socket given to the child closed, which
        // the server `pg_ctl start` leaves behind held for its whole life. `Child` passes only those three and
        // waits with `wait4`, so it is belt and braces now.
        let outcome = try Subprocess.run("python3", ["-c", Self.closingFDs] + command, timeout: 120, currentDirectory: directory)
        guard outcome.succeeded else {
            let log = (try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
            throw Subprocess.Failure(description: "\(program) failed (\(outcome.status)): \(outcome.stderr)\(log.isEmpty ? "" : "\nserver log:\n" + log.suffix(2000))")
        }
        return outcome
    }

    /// Runs `argv[1:]` with every descriptor but 0, 1 and 2 closed, and exits with its status.
    private static let closingFDs = "import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:], close_fds=True).returncode)"
}
