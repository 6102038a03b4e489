import SwingCore

/// A request the application turns down before or while doing its work: something it names is not there,
/// a value is out of range, the work is busy or not finished. The web server answers each kind with its
/// HTTP status (400, 404, 422, 429, 409, 410); a CLI would exit with ``statusCode``.
///
/// The engine's own failures (unreadable media, a model that cannot run) keep their own error types; this
/// one is for the application's rules about requests (the studio's limits, a job that is still running).
package struct RequestError: CategorizedError {
    /// Why the request is turned down.
    package enum Kind: Sendable, Equatable {
        /// A value in the request is missing or out of range (HTTP 400).
        case invalid
        /// Something the request names does not exist (404).
        case notFound
        /// The request is well-formed but what it sends cannot be used (422).
        case unprocessable
        /// Too much work is waiting or running; try again later (429).
        case busy
        /// The thing named is not in a state to do this yet (409).
        case conflict
        /// The thing named existed but its results are gone (410).
        case gone
    }
    /// Why the request is turned down.
    package var kind: Kind
    /// One clear sentence.
    package var message: String
    /// The exit code of the same failure where one exists (e.g. ``StatusCode/unreadableMedia``); the web
    /// API's `code` is this, else the HTTP status.
    package var code: Int32?

    /// Creates an error of `kind` saying `message`, with the exit code `code` where the failure has one.
    package init(_ kind: Kind, _ message: String, code: Int32? = nil) {
        self.kind = kind; self.message = message; self.code = code
    }

    package var statusCode: Int32 {
        if let code { return code }
        return kind == .notFound ? StatusCode.notFound : StatusCode.invalidParameter
    }
}
