import SwingCore

/// A failure of the session / model-record database (the ``CategorizedError`` shape).
///
/// `databaseError` wraps SQLite and I/O failures (the sentence names the operation and SQLite's own
/// message); `notFound` is a missing session or record asked for by id; `conflict` a row changed by
/// someone else; `leaseLost` a job another worker took over.
package struct StoreError: CategorizedError {
    /// The category of failure.
    package enum Kind: Sendable, Equatable {
        /// The database could not be opened, migrated, read or written.
        case databaseError
        /// No row with the given id exists.
        case notFound
        /// The row changed since it was read (two edits of one session at once).
        case conflict
        /// A worker's lease on a job ran out and another took it: its result is not stored.
        case leaseLost
    }

    /// The category of failure.
    package let kind: Kind
    /// One clear sentence.
    package let message: String

    /// Creates an error of `kind` saying `message`.
    package init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }

    /// The database could not be opened, migrated, read or written.
    package static func databaseError(_ message: String) -> StoreError { StoreError(.databaseError, message) }
    /// No row with the asked-for id exists.
    package static func notFound(_ message: String) -> StoreError { StoreError(.notFound, message) }
    /// The row changed since it was read.
    package static func conflict(_ message: String) -> StoreError { StoreError(.conflict, message) }
    /// The job's lease no longer holds.
    package static func leaseLost(_ message: String) -> StoreError { StoreError(.leaseLost, message) }

    package var statusCode: Int32 {
        switch kind {
        case .databaseError: StatusCode.databaseError
        case .notFound: StatusCode.notFound
        case .conflict, .leaseLost: StatusCode.conflict
        }
    }
}
