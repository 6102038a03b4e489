import ArgumentParser
import Foundation
import SwingCore
import SwingPipeline

/// `--database sqlite:PATH | postgres://user@host/db`: where sessions, jobs and model records are kept
/// (default `$SWINGMASTER_DATABASE`, else `$SWINGMASTER_HOME/swingmaster.sqlite`).
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("database"),
            help: "sqlite:PATH or postgres://user@host[:port]/database (default: $SWINGMASTER_DATABASE, else the home's swingmaster.sqlite).")
    var database: String?

    /// A malformed address is a usage error (exit 64), refused before anything runs.
    func validate() throws { _ = try Self.parse(database) }

    /// `text` as a database address, or `nil`; a malformed one is a usage error with the store's sentence.
    static func parse(_ text: String?) throws -> DatabaseAddress? {
        guard let text else { return nil }
        do { return try DatabaseAddress(text) } catch let error as any UserFacingError { throw ValidationError(error.description) }
    }

    /// The database the flags and environment name.
    func address() throws -> DatabaseAddress { try DatabaseAddress(database) }

    /// Opens the database, with the uploads folder `media` (used only to delete a session's files).
    func open(media: URL = MediaLibrary.defaultDirectory()) async throws -> MediaLibrary { try await address().open(media: media) }
}
