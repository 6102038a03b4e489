import ArgumentParser
import SwingStore

/// `--database sqlite:PATH | postgres://user@host/db`: where sessions, jobs and model records are kept
/// (default `$SWINGMASTER_DATABASE`, else `$SWINGMASTER_HOME/swingmaster.sqlite`).
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("database"),
            help: "sqlite:PATH or postgres://user@host[:port]/database (default: $SWINGMASTER_DATABASE, else the home's swingmaster.sqlite).")
    var database: String?

    /// The store address the flags and environment name.
    func address() throws -> StoreAddress {
        if let database { return try StoreAddress(parsing: database) }
        return try StoreAddress.standard()
    }

    /// Opens the store.
    func open() async throws -> any Store { try await address().open() }
}
