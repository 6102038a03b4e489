import SwingCore

/// A failure of the session / model-record database (the ``CategorizedError`` shape).
///
/// `databaseError` wraps SQLite and I/O failures (the sentence names the operation and SQLite's own
/// message); `notFound` is a missing session or record asked for by id; `conflict` a row changed by
/// someone else; `leaseLost` a job another worker took over.
public struct StoreError: CategorizedError {
    /// The category of failure.
    public enum Kind: Sendable, Equatable {
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
    public let kind: Kind
    /// One clear sentence.
    public let message: String

    /// Creates an error of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }

    /// The database could not be opened, migrated, read or written.
    public static func databaseError(_ message: String) -> StoreError { StoreError(.databaseError, message) }
    /// No row with the asked-for id exists.
    public static func notFound(_ message: String) -> StoreError { StoreError(.notFound, message) }
    /// The row changed since it was read.
    public static func conflict(_ message: String) -> StoreError { StoreError(.conflict, message) }
    /// The job's lease no longer holds.
    public static func leaseLost(_ message: String) -> StoreError { StoreError(.leaseLost, message) }

    public var statusCode: Int32 {
        switch kind {
        case .databaseError: StatusCode.databaseError
        case .notFound: StatusCode.notFound
        case .conflict, .leaseLost: StatusCode.conflict
        }
    }
}
