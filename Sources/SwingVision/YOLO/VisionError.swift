import SwingCore

/// Errors from SwingVision's YOLO predictor and decoders.
package struct VisionError: CategorizedError {
    /// What went wrong.
    package enum Kind: Sendable, Equatable {
        /// The model's outputs (or metadata) are not those of an Ultralytics YOLO export.
        case modelUnsupported
        /// A `classes` filter names classes the model does not have.
        case invalidClassFilter
        /// The image cannot be used (e.g. empty).
        case invalidImage
        /// Options out of range (thresholds outside [0, 1], negative caps).
        case invalidOptions
    }

    /// The category of failure.
    package let kind: Kind
    /// One clear sentence.
    package let message: String

    /// Creates an error of `kind` saying `message`.
    package init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }

    package var statusCode: Int32 {
        switch kind {
        case .modelUnsupported: return StatusCode.modelUnsupported
        case .invalidClassFilter: return StatusCode.invalidClassFilter
        case .invalidImage: return StatusCode.imageUnreadable
        case .invalidOptions: return StatusCode.invalidParameter
        }
    }
}
