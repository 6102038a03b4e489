import SwingCore

/// Why pose estimation failed.
package struct PoseError: CategorizedError {
    /// The kind of failure; each has its own exit status.
    package enum Kind: Sendable, Equatable {
        /// The image contains no person BlazePose can find.
        case noPerson
        /// The model files are missing or are not the expected BlazePose exports.
        case modelsUnavailable
        /// The image is empty or unusable.
        case invalidImage
    }

    /// The category of failure.
    package let kind: Kind
    /// One clear sentence.
    package let message: String

    /// Creates an error of `kind` saying `message`.
    package init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }

    package var statusCode: Int32 {
        switch kind {
        case .noPerson: StatusCode.noPerson
        case .modelsUnavailable: StatusCode.modelUnreadable
        case .invalidImage: StatusCode.imageUnreadable
        }
    }

    static let noPerson = PoseError(.noPerson, "No person was found in the image.")
}
