import SwingCore

/// A failure of the session / model-record database.
///
/// `databaseError` wraps SQLite and I/O failures (the sentence names the operation and SQLite's own
/// message); `notFound` is a missing session or record asked for by id.
public enum StoreError: UserFacingError, Equatable {
    /// The database could not be opened, migrated, read or written.
    case databaseError(String)
    /// No row with the given id exists.
    case notFound(String)

    public var description: String {
        switch self {
        case .databaseError(let message): return message
        case .notFound(let message): return message
        }
    }

    public var statusCode: Int32 {
        switch self {
        case .databaseError: return StatusCode.databaseError
        case .notFound: return StatusCode.notFound
        }
    }
}
