import Foundation
import SwingCore
import SwingStore

/// Where the sessions, jobs, model records and racket sounds are kept, as `--database` and
/// `$SWINGMASTER_DATABASE` name it: `sqlite:PATH` or `postgres://user@host[:port]/database`. The adapters
/// (the CLI's commands, `serve`, `worker`) hold this and open a ``MediaLibrary`` from it; they never name
/// the store itself.
package struct DatabaseAddress: Sendable, Equatable, CustomStringConvertible {
    let store: StoreAddress

    init(_ store: StoreAddress) { self.store = store }

    /// `text` as an address (`sqlite:PATH`, a path ending in `.sqlite`, `postgres://…`); with `nil`,
    /// `$SWINGMASTER_DATABASE` when set, else the home's `swingmaster.sqlite`.
    /// - Throws: `StoreError` (exit 30) with one sentence naming the accepted forms when it is not one.
    package init(_ text: String?) throws {
        store = try text.map(StoreAddress.init(parsing:)) ?? StoreAddress.standard()
    }

    /// The address as ``init(_:)`` reads it back (with any password).
    package var text: String { store.text }

    /// The address for logs and messages: a PostgreSQL password as `***`.
    package var description: String { store.description }

    /// The SQLite file, `nil` for PostgreSQL (an output must never overwrite it).
    package var sqliteFile: String? {
        if case .sqlite(let url) = store { return url.path }
        return nil
    }

    /// Opens the store (created or migrated to this version) as a library whose uploads folder is `media`.
    /// - Throws: `StoreError` with one sentence when it cannot be reached or prepared.
    package func open(media: URL = MediaLibrary.defaultDirectory()) async throws -> MediaLibrary {
        MediaLibrary(directory: media, store: try await store.open())
    }

    /// Copies every session, model record, detection run and racket sound of this store into `target`
    /// (``StoreCopy``); safe to run again.
    package func copy(to target: DatabaseAddress, media: URL?,
                      progress: @escaping @Sendable (Int, Int) -> Void) async throws -> StoreCopy.Report {
        let (source, destination) = (try await store.open(), try await target.store.open())
        return try await StoreCopy.copy(from: source, to: destination, media: media, progress: progress)
    }
}
