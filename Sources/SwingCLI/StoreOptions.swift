import ArgumentParser
import SwingStore

/// `--database sqlite:PATH | postgres://user@host/db`: where sessions, jobs and model records are kept
/// (default `$SWINGMASTER_DATABASE`, else `$SWINGMASTER_HOME/swingmaster.sqlite`).
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("database"),
            help: "sqlite:PATH or postgres://user@host[:port]/database (default: $SWINGMASTER_DATABASE, else the home's swingmaster.sqlite).")
    var database: String?

    /// A malformed address is a usage error (exit 64), refused before anything runs.
    func validate() throws { _ = try Self.parse(database) }

    /// `text` as a store address, or `nil`; a malformed one is a usage error with the store's sentence.
    static func parse(_ text: String?) throws -> StoreAddress? {
        guard let text else { return nil }
        do { return try StoreAddress(parsing: text) } catch let error as StoreError { throw ValidationError(error.message) }
    }

    /// The store address the flags and environment name.
    func address() throws -> StoreAddress {
        if let database { return try StoreAddress(parsing: database) }
        return try StoreAddress.standard()
    }

    /// Opens the store.
    func open() async throws -> any Store { try await address().open() }
}
