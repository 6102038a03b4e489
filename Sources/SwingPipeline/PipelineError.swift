import SwingCore

/// Failures of a whole session analysis that are not one module's error.
package struct PipelineError: CategorizedError {
    /// The category of failure.
    package enum Kind: Sendable, Equatable {
        /// The audio held no racket–ball contact.
        case noContacts
        /// No contact had a person in its swing window.
        case noPerson
        /// The user cancelled (Ctrl-C); nothing was stored.
        case cancelled
        /// The options ask for something the analyzer was not given (e.g. visual contacts without a model).
        case invalidOptions
        /// An edit of a session's contacts that cannot be made (``SessionEditor``).
        case invalidEdit
        /// Work stopped by an error no module describes (a library's unexpected failure).
        case failed
    }
    /// The category of failure.
    package var kind: Kind
    /// One clear sentence.
    package var message: String

    /// Creates an error of `kind` saying `message`.
    package init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }

    /// The analysis (or `what`) stopped on Ctrl-C or a cancelled job; nothing was stored (or written).
    package static func cancelled(_ what: String = "analysis", nothing kept: String = "stored") -> PipelineError {
        PipelineError(.cancelled, cancelledSentence(what, nothing: kept))
    }

    package var statusCode: Int32 {
        switch kind {
        case .noContacts: StatusCode.noContacts
        case .noPerson: StatusCode.noPerson
        case .cancelled: StatusCode.cancelled
        case .invalidOptions: StatusCode.invalidParameter
        case .invalidEdit: StatusCode.invalidEdit
        case .failed: StatusCode.failure
        }
    }
}
