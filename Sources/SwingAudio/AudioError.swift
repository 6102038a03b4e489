import SwingCore

/// Errors of the audio contact detector, each one clear sentence with a distinct exit code (the
/// ``CategorizedError`` shape).
package struct AudioError: CategorizedError {
    /// What went wrong.
    package enum Kind: Sendable, Equatable {
        /// A detector parameter is out of range (e.g. `lowHz >= highHz`, a corner above Nyquist).
        case invalidParameter
        /// The sample rate is not a usable positive number (≥ 8 kHz).
        case invalidSampleRate
        /// The samples contain NaN or infinity.
        case nonFiniteSamples
        /// A contact model file is missing, unreadable, damaged, or made for other features.
        case contactModelUnreadable
        /// The recordings given to learn a contact model from hold too few confirmed contacts or no other sounds.
        case tooFewToLearn
    }

    /// The category of failure.
    package let kind: Kind
    /// One clear sentence.
    package let message: String

    /// Creates an error of `kind` saying `message`.
    package init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }

    /// A parameter named as on the command line (`--name`) failed validation because of `reason`.
    package static func invalidParameter(name: String, reason: String) -> AudioError {
        AudioError(.invalidParameter, "Invalid contact-detector parameter --\(name): \(reason).")
    }

    /// The sample rate is unusable.
    package static func invalidSampleRate(_ rate: Double) -> AudioError {
        AudioError(.invalidSampleRate, "Invalid audio sample rate \(rate) Hz: it must be at least 8000 Hz.")
    }

    /// The sample at `index` is NaN or infinite.
    package static func nonFiniteSamples(index: Int) -> AudioError {
        AudioError(.nonFiniteSamples, "The audio contains an invalid (NaN or infinite) sample at index \(index).")
    }

    package var statusCode: Int32 {
        switch kind {
        case .invalidParameter, .invalidSampleRate: StatusCode.invalidParameter
        case .nonFiniteSamples: StatusCode.unreadableMedia
        case .contactModelUnreadable: StatusCode.modelUnreadable
        case .tooFewToLearn: StatusCode.tooFewToLearn
        }
    }
}
