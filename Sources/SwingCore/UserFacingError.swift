/// An error a user can act on: one clear sentence (`description`) and a stable status code.
///
/// Every module's public error type conforms, and the CLI uses ``statusCode`` as its exit code,
/// so each kind of bad input is distinguishable by scripts. The codes are listed in ``StatusCode``
/// and in the README; never reuse or renumber a shipped code.
package protocol UserFacingError: Error, CustomStringConvertible, Sendable {
    /// Stable, distinct, non-zero process exit status for this kind of failure.
    var statusCode: Int32 { get }
}

/// The one shape of the project's errors: a `Kind` that decides the status code, and a sentence.
///
/// Each module has one such type (`MediaError`, `StoreError`, …): a struct with a nested `Kind` enum,
/// `kind`, `message`, `init(_:_:)` and a `statusCode` switch over the kinds. Where the same sentence is
/// built in several places the type offers a static factory named after the kind
/// (`CatalogError.modelNotFound(id)`). Callers branch on `kind`, never on the text.
///
/// The sentence style (checked by the CLI fault suite and the server's error tests): one sentence,
/// starting with a capital letter (or a quoted name, a flag, or the path it is about) and ending with a period, saying what
/// happened and, where it helps, what to do. A library's own text (FFmpeg, ONNX Runtime, SQLite) is
/// appended after a colon. Cancellation always reads ``cancelledSentence(_:)``.
package protocol CategorizedError: UserFacingError, Equatable {
    /// The categories of failure; each maps to one ``StatusCode``.
    associatedtype Kind: Sendable, Equatable
    /// The category of this failure.
    var kind: Kind { get }
    /// One clear sentence a user can act on.
    var message: String { get }
}

extension CategorizedError {
    /// The sentence, as printed after `error: ` and returned in the API's `{"error": …}`.
    package var description: String { message }
}

/// `text` (a reason, or a library's own message) trimmed and ending with a period, to close a sentence
/// built around it: `"The download failed: \(endingWithPeriod(reason))"`.
package func endingWithPeriod(_ text: String) -> String {
    let trimmed = text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
    guard let last = trimmed.last else { return "." }
    return ".!?".contains(last) ? String(trimmed) : String(trimmed) + "."
}

/// The one sentence of work stopped by Ctrl-C or by a cancelled job: "The analysis was cancelled;
/// nothing was stored." (`what` is "analysis", "detection", "video export", …).
/// - Parameters:
///   - what: The work that stopped, as a noun.
///   - kept: What was not kept: "stored" for the database, "written" for files.
package func cancelledSentence(_ what: String, nothing kept: String = "stored") -> String {
    "The \(what) was cancelled; nothing was \(kept)."
}

/// The registry of exit status codes (one place, so two modules never pick the same number).
package enum StatusCode {
    // 1–9: generic
    package static let failure: Int32 = 1
    package static let cancelled: Int32 = 130
    // 10–19: media input
    package static let fileNotFound: Int32 = 10
    package static let unreadableMedia: Int32 = 11
    package static let noAudioTrack: Int32 = 12
    package static let mediaTooShort: Int32 = 13
    package static let mediaTooLong: Int32 = 14
    package static let noVideoTrack: Int32 = 15
    package static let invalidTimeRange: Int32 = 16
    package static let outputWriteFailed: Int32 = 17
    // 20–29: models and inference
    package static let runtimeUnavailable: Int32 = 20
    package static let modelUnreadable: Int32 = 21
    package static let modelUnsupported: Int32 = 22
    package static let inferenceFailed: Int32 = 23
    package static let invalidClassFilter: Int32 = 24
    package static let imageUnreadable: Int32 = 25
    // 30–39: analysis
    package static let noPerson: Int32 = 30
    package static let noContacts: Int32 = 31
    package static let invalidTrack: Int32 = 32
    /// An edit of a session's contacts that cannot be made (outside the video, no such contact, nothing
    /// to undo, too many contacts, a session stored before editing existed).
    package static let invalidEdit: Int32 = 33
    /// Too few confirmed contacts (or no other sounds) in the recordings given to learn a contact model from.
    package static let tooFewToLearn: Int32 = 34
    // 40–49: storage
    package static let databaseError: Int32 = 40
    package static let notFound: Int32 = 41
    /// The session changed while an edit was being made (another edit won); nothing was stored.
    package static let conflict: Int32 = 42
    // 50–59: model catalog
    package static let downloadFailed: Int32 = 50
    package static let checksumMismatch: Int32 = 51
    package static let catalogError: Int32 = 52
    package static let invalidInterpreterInput: Int32 = 53
    package static let invalidParameter: Int32 = 60  // 60–69: parameters
    /// Bad command-line usage (also a numeric flag out of range, an output that is an input, and
    /// `serve` settings it refuses), as swift-argument-parser reports it.
    package static let usage: Int32 = 64

    /// Whose a failure is, as the web API answers it (the server maps each to its HTTP status).
    package enum Blame: Sendable, Equatable {
        /// The request's own input cannot be used: media, a model, a threshold, interpreter input (422).
        case input
        /// Something the request names is not there (404).
        case missing
        /// The request lost a race with another change of the same thing (409).
        case conflict
        /// Anything else (500).
        case server
    }

    /// The blame of the failure with exit code `code`: the one table from exit codes to HTTP statuses.
    package static func blame(of code: Int32) -> Blame {
        switch code {
        case fileNotFound, notFound:
            return .missing
        case conflict:
            return .conflict
        case unreadableMedia...invalidTimeRange, modelUnreadable, modelUnsupported, invalidClassFilter, imageUnreadable,
             noPerson, noContacts, invalidEdit, tooFewToLearn, checksumMismatch, invalidInterpreterInput, invalidParameter...69:
            return .input
        default:
            return .server
        }
    }
}
