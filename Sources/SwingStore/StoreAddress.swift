import Foundation
import SwingCore

/// Which store a process uses: `sqlite:PATH` (a file, the embedded default) or a PostgreSQL URL
/// (`postgres://user[:password]@host[:port]/database`), from `--database` or `SWINGMASTER_DATABASE`.
package enum StoreAddress: Sendable, Equatable, CustomStringConvertible {
    /// A SQLite file (created with its folder when missing).
    case sqlite(URL)
    /// A PostgreSQL database, as its URL.
    case postgres(String)

    /// The environment variable that names the store when no `--database` is given.
    package static let environmentVariable = "SWINGMASTER_DATABASE"

    /// The default: `$SWINGMASTER_DATABASE` when set, else `$SWINGMASTER_HOME/swingmaster.sqlite`.
    /// - Throws: ``StoreError`` when the variable holds something that is not a store address.
    package static func standard(environment: [String: String] = ProcessEnvironment.current) throws -> StoreAddress {
        if let text = environment[environmentVariable], !text.isEmpty { return try StoreAddress(parsing: text) }
        return .sqlite(SwingmasterHome.url(environment: environment).appendingPathComponent(AppDatabase.fileName))
    }

    /// Parses `sqlite:PATH` (or a path ending in `.sqlite`) and `postgres://…` / `postgresql://…`.
    /// - Throws: ``StoreError/databaseError(_:)`` naming the accepted forms.
    package init(parsing text: String) throws {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            guard URLComponents(string: text)?.host?.isEmpty == false else {
                throw StoreError.databaseError("'\(text)' is not a PostgreSQL URL: write postgres://user@host[:port]/database.")
            }
            self = .postgres(text)
        } else if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw StoreError.databaseError("'sqlite:' needs a file path, as in sqlite:/var/lib/swingmaster/swingmaster.sqlite.") }
            self = .sqlite(URL(fileURLWithPath: (path as NSString).expandingTildeInPath))
        } else {
            throw StoreError.databaseError("'\(text)' is not a database: write sqlite:PATH or postgres://user@host[:port]/database.")
        }
    }

    package var description: String {
        switch self {
        case .sqlite(let url): "sqlite:\(url.path)"
        case .postgres(let url): Self.redacted(url)
        }
    }

    /// The address as ``init(parsing:)`` reads it back (with the password, unlike ``description``).
    package var text: String {
        switch self {
        case .sqlite(let url): "sqlite:\(url.path)"
        case .postgres(let url): url
        }
    }

    /// `url` with any password replaced by `***` (for logs and messages).
    static func redacted(_ url: String) -> String {
        guard var c = URLComponents(string: url), c.password != nil else { return url }
        c.password = "***"
        return c.string ?? url
    }

    /// Opens the store (migrating it to the current schema).
    /// - Throws: ``StoreError/databaseError(_:)`` with one sentence when it cannot be reached or prepared.
    package func open() async throws -> any Store {
        switch self {
        case .sqlite(let url): return try AppDatabase.open(file: url)
        case .postgres(let url): return try await PostgresStore.connect(url: url)
        }
    }
}
