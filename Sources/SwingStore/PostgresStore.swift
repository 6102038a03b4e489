import Foundation
import Logging
import NIOSSL
import PostgresNIO
import SwingBiomech
import SwingCore

/// The shared store: one PostgreSQL database that a web app and any number of `swingmaster worker`
/// processes on any number of machines use at once (postgres-nio's connection pool).
///
/// The same records and named migrations as ``AppDatabase``; the job queue claims with
/// `SELECT … FOR UPDATE SKIP LOCKED` and finishes a job only while the claim's lease token holds. Writes
/// to a job send `NOTIFY swingmaster_jobs`; every store `LISTEN`s on one connection and wakes its own
/// waiting workers and event streams from there (they also poll, so a lost connection only slows them).
package final class PostgresStore: Store {
    let client: PostgresClient
    let logger: Logger
    let signals = JobSignals()
    private let tasks: [Task<Void, Never>]
    /// Where it is, with any password hidden (for messages).
    package let address: String

    /// How long opening waits for the server to answer and the schema to be ready.
    static let openTimeout: Duration = .seconds(30)

    /// The notification channel job writes are announced on.
    static let channel = "swingmaster_jobs"

    private init(client: PostgresClient, address: String, logger: Logger) {
        self.client = client
        self.address = address
        self.logger = logger
        let run = Task { await client.run() }
        let signals = self.signals
        let listen = Task { await Self.listen(client: client, signals: signals, logger: logger) }
        tasks = [run, listen]
    }

    deinit { for task in tasks { task.cancel() } }

    /// Connects to the database at `url` (`postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require]`)
    /// and migrates it to the current schema (safely when several processes start at once).
    /// - Throws: ``StoreError/databaseError(_:)`` with one sentence when the server cannot be reached, refuses
    ///   the login, or the schema cannot be prepared.
    package static func connect(url: String, logger: Logger = Logger(label: "swingmaster.store")) async throws -> PostgresStore {
        let address = StoreAddress.redacted(url)
        guard let c = URLComponents(string: url), let host = c.host, !host.isEmpty else {
            throw StoreError.databaseError("'\(address)' is not a PostgreSQL URL: write postgres://user@host[:port]/database.")
        }
        let database = c.path.hasPrefix("/") ? String(c.path.dropFirst()) : c.path
        let user = c.user ?? ProcessEnvironment.current["USER"] ?? "postgres"
        let mode = c.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        let tls: PostgresClient.Configuration.TLS
        switch mode {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(.makeClientConfiguration())
        case "require": tls = .require(.makeClientConfiguration())
        default: throw StoreError.databaseError("sslmode=\(mode) is not one of disable, prefer, require.")
        }
        var configuration = PostgresClient.Configuration(host: host, port: c.port ?? 5432, username: user,
                                                         password: c.password, database: database.isEmpty ? nil : database, tls: tls)
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.maximumConnections = 8
        // One plain connection first: the pool keeps retrying a server that refuses or rejects the login
        // (so a running worker rides out a restart), but opening should say why at once.
        do {
            var probe = PostgresConnection.Configuration(host: host, port: c.port ?? 5432, username: user, password: c.password,
                                                         database: database.isEmpty ? nil : database,
                                                         tls: mode == "disable" ? .disable
                                                            : mode == "require" ? .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                                                            : .prefer(try NIOSSLContext(configuration: .makeClientConfiguration())))
            probe.options.connectTimeout = .seconds(5)
            let connection = try await PostgresConnection.connect(configuration: probe, id: 0, logger: logger)
            try await connection.close()
        } catch {
            throw StoreError.databaseError("Could not open the PostgreSQL database \(address): \(describe(error)).")
        }
        let store = PostgresStore(client: PostgresClient(configuration: configuration), address: address, logger: logger)
        do {
            // The pool keeps trying a server that does not answer (so a running worker rides out a restart);
            // opening gives up after a while instead, with a sentence.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await store.migrate() }
                group.addTask {
                    try await Task.sleep(for: openTimeout)
                    throw StoreError.databaseError("no answer within \(openTimeout.components.seconds) s")
                }
                try await group.next()
                group.cancelAll()
            }
        } catch {
            store.close()
            throw StoreError.databaseError("Could not open the PostgreSQL database \(address): \(describe(error)).")
        }
        return store
    }

    /// Stops the connection pool and the listener.
    package func close() { for task in tasks { task.cancel() } }

    // MARK: Running statements

    /// Runs `body` on a pooled connection, mapping failures to ``StoreError`` naming `what`.
    func run<T: Sendable>(_ what: String, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await client.withConnection { try await body($0) }
        } catch {
            throw Self.storeError(error, what)
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<T: Sendable>(_ what: String, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await client.withConnection { connection in
                try await connection.withTransaction(logger: logger) { try await body($0) }
            }
        } catch {
            throw Self.storeError(error, what)
        }
    }

    static func storeError(_ error: any Error, _ what: String) -> any Error {
        if let t = error as? PostgresTransactionError, let inner = t.closureError ?? t.beginError ?? t.commitError {
            return storeError(inner, what)
        }
        if error is StoreError || error is CancellationError { return error }
        return StoreError.databaseError("Could not \(what): \(describe(error)).")
    }

    /// One sentence for a PostgreSQL or connection failure (postgres-nio hides the server's message from
    /// its own description).
    static func describe(_ error: any Error) -> String {
        if let t = error as? PostgresTransactionError, let inner = t.closureError ?? t.beginError ?? t.commitError ?? t.rollbackError {
            return describe(inner)
        }
        if let e = error as? PSQLError {
            if let message = e.serverInfo?[.message] {
                return message + (e.serverInfo?[.detail].map { " (\($0))" } ?? "")
            }
            if e.code == .connectionError {
                let detail = e.underlying.map { "\($0)" } ?? ""
                let reason = detail.contains("refused") ? "connection refused"
                    : detail.lowercased().contains("timed out") || detail.contains("Timeout") ? "no answer"
                    : detail.contains("resolve") || detail.contains("NXDOMAIN") ? "unknown host" : "cannot connect"
                return "the server cannot be reached (\(reason))"
            }
            if let underlying = e.underlying { return "\(e.code): \(underlying)" }
            return "\(e.code)"
        }
        if let e = error as? StoreError { return e.message }
        return "\(error)"
    }

    /// Announces a change of job `id` (or the queue, `nil`) to every listening store, at commit.
    func notify(_ connection: PostgresConnection, job id: Int64?) async throws {
        let payload = id.map { "\($0)" } ?? "queue"
        try await connection.query("SELECT pg_notify(\(Self.channel), \(payload))", logger: logger)
    }

    /// Listens for job notifications until cancelled, reconnecting after a lost connection.
    private static func listen(client: PostgresClient, signals: JobSignals, logger: Logger) async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        // Listening from now on. A job queued before (by this process before its listener was up,
                        // or by another machine while this one reconnected) was announced to no one: wake the
                        // waiters so they look at the queue again rather than sleep to their timeout.
                        signals.signal(.queue)
                        for try await note in notifications {
                            if let id = Int64(note.payload) { signals.signal(.job(id)) } else { signals.signal(.queue) }
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.debug("job notifications interrupted: \(describe(error)); listening again")
            }
            // Whatever was announced while not listening is found by the waiters' polling.
            signals.signal(.queue)
            try? await Task.sleep(for: .milliseconds(500))
        }
    }
}
