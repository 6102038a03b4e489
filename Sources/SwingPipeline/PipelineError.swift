import SwingCore

/// Failures of a whole session analysis that are not one module's error.
public struct PipelineError: UserFacingError, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The audio held no racket–ball contact.
        case noContacts
        /// No contact had a person in its swing window.
        case noPerson
        /// The user cancelled (Ctrl-C); nothing was stored.
        case cancelled
        /// The options ask for something the analyzer was not given (e.g. visual contacts without a model).
        case invalidOptions
    }
    public var kind: Kind
    public var description: String

    public init(_ kind: Kind, _ description: String) { self.kind = kind; self.description = description }

    public var statusCode: Int32 {
        switch kind {
        case .noContacts: StatusCode.noContacts
        case .noPerson: StatusCode.noPerson
        case .cancelled: StatusCode.cancelled
        case .invalidOptions: StatusCode.invalidParameter
        }
    }
}
