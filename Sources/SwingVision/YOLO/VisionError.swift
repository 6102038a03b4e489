import SwingCore

/// Errors from SwingVision's YOLO predictor and decoders.
public struct VisionError: CategorizedError {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
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
    public let kind: Kind
    /// One clear sentence.
    public let message: String

    /// Creates an error of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }

    public var statusCode: Int32 {
        switch kind {
        case .modelUnsupported: return StatusCode.modelUnsupported
        case .invalidClassFilter: return StatusCode.invalidClassFilter
        case .invalidImage: return StatusCode.imageUnreadable
        case .invalidOptions: return StatusCode.invalidParameter
        }
    }
}
