import Foundation
import GRDB
import SwingCore

/// The Swingmaster database: player profile, analysed sessions with their shots, and the model
/// catalog's per-model records. One value owns one `DatabaseWriter` (GRDB's demo-app shape).
///
/// Production uses ``open(home:)`` (a WAL `DatabasePool` at `HOME/swingmaster.sqlite`); tests use
/// ``empty()`` (an in-memory queue). Both run the same named migrations.
package struct AppDatabase: Sendable {
    /// File name of the database inside the Swingmaster home directory.
    package static let fileName = "swingmaster.sqlite"

    let dbWriter: any DatabaseWriter
    /// Wakes this process's workers and job streams as jobs are written.
    let signals = JobSignals()

    /// Wraps an existing writer and migrates it to the current schema.
    /// - Throws: ``StoreError/databaseError(_:)`` when a migration fails.
    package init(_ dbWriter: any DatabaseWriter) throws {
        self.dbWriter = dbWriter
        do {
            try Self.migrator.migrate(dbWriter)
        } catch {
            throw StoreError.databaseError("Could not prepare the database: \(Self.describe(error)).")
        }
    }

    /// Read access for callers that want to run their own GRDB requests.
    package var reader: any DatabaseReader { dbWriter }

    /// Opens (creating if needed) the on-disk database at `home/swingmaster.sqlite` in WAL mode.
    /// - Parameter home: The Swingmaster home directory; `nil` means `SwingmasterHome.url()`.
    /// - Throws: ``StoreError/databaseError(_:)`` if the directory or file cannot be created or opened.
    package static func open(home: URL? = nil) throws -> AppDatabase {
        try open(file: (home ?? SwingmasterHome.url()).appendingPathComponent(fileName))
    }

    /// Opens (creating if needed, with its folder) the on-disk database `file` in WAL mode.
    /// - Throws: ``StoreError/databaseError(_:)`` if the folder or file cannot be created or opened.
    package static func open(file: URL) throws -> AppDatabase {
        let dir = file.deletingLastPathComponent()
        let path = file.path
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            // Processes started together on a new home would all see an empty schema and race to create
            // it ("duplicate column", "table already exists"). One exclusive lock around opening and
            // migrating makes the first create the schema and the others find it done.
            return try withFileLock(path + ".lock") {
                let pool = try DatabasePool(path: path, configuration: configuration)
                return try AppDatabase(pool)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.databaseError("Could not open the database at \(path): \(describe(error)).")
        }
    }

    /// An empty in-memory database with the current schema (for tests and previews).
    /// - Throws: ``StoreError/databaseError(_:)`` if SQLite cannot create it.
    package static func empty() throws -> AppDatabase {
        do {
            return try AppDatabase(DatabaseQueue(configuration: configuration))
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.databaseError("Could not create an in-memory database: \(describe(error)).")
        }
    }

    private static var configuration: Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true   // shots cascade with their session
        config.busyMode = .timeout(5)      // a second CLI process waits instead of failing
        return config
    }

    /// Runs a write transaction, mapping GRDB errors to ``StoreError``.
    func write<T: Sendable>(_ what: String, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await dbWriter.write(body)
        } catch let error as StoreError {
            throw error
        } catch {
            throw damaged(error) ?? StoreError.databaseError("Could not \(what): \(Self.describe(error)).")
        }
    }

    /// Runs a read, mapping GRDB errors to ``StoreError``.
    func read<T: Sendable>(_ what: String, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await dbWriter.read(body)
        } catch let error as StoreError {
            throw error
        } catch {
            throw damaged(error) ?? StoreError.databaseError("Could not \(what): \(Self.describe(error)).")
        }
    }

    /// When SQLite reports the file damaged, what its integrity check finds (first problems), as one
    /// sentence; `nil` for any other error. The file is never repaired or replaced here.
    private func damaged(_ error: any Error) -> StoreError? {
        guard let e = error as? DatabaseError, [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(e.resultCode.primaryResultCode) else { return nil }
        let problems = (try? dbWriter.read { try String.fetchAll($0, sql: "PRAGMA quick_check(3)") }) ?? []
        let found = problems.filter { $0 != "ok" }
        let detail = found.isEmpty ? Self.describe(error) : found.joined(separator: "; ")
        return StoreError.databaseError("The database at \(dbWriter.path) is damaged (SQLite's integrity check: \(detail)); it was left as it is: restore a backup, or move it away to start a new one.")
    }

    /// Runs `body` holding an exclusive `flock` on `path` (created if needed); waits for other holders.
    private static func withFileLock<T>(_ path: String, _ body: () throws -> T) throws -> T {
        let fd = Foundation.open(path, O_CREAT | O_RDWR, 0o644)
        guard fd >= 0 else {
            throw StoreError.databaseError("Could not open the lock file \(path): \(String(cString: strerror(errno))).")
        }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw StoreError.databaseError("Could not lock \(path): \(String(cString: strerror(errno))).")
            }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    static func describe(_ error: any Error) -> String {
        if let db = error as? DatabaseError { return db.message ?? "\(db.resultCode)" }
        return "\(error)"
    }
}
