import SwingCore

/// Errors of the audio contact detector, each one clear sentence with a distinct exit code.
public struct AudioError: UserFacingError, Equatable {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// A detector parameter is out of range (e.g. `lowHz >= highHz`, a corner above Nyquist).
        case invalidParameter(name: String, reason: String)
        /// The sample rate is not a usable positive number (≥ 8 kHz).
        case invalidSampleRate(Double)
        /// The samples contain NaN or infinity.
        case nonFiniteSamples(index: Int)
    }

    /// The failure.
    public var kind: Kind

    /// Wraps a kind.
    public init(_ kind: Kind) { self.kind = kind }

    /// A parameter named as on the command line (`--name`) failed validation.
    public static func invalidParameter(name: String, reason: String) -> AudioError {
        AudioError(.invalidParameter(name: name, reason: reason))
    }

    /// The sample rate is unusable.
    public static func invalidSampleRate(_ rate: Double) -> AudioError { AudioError(.invalidSampleRate(rate)) }

    public var description: String {
        switch kind {
        case let .invalidParameter(name, reason):
            return "Invalid contact-detector parameter --\(name): \(reason)."
        case let .invalidSampleRate(rate):
            return "Invalid audio sample rate \(rate) Hz: it must be at least 8000 Hz."
        case let .nonFiniteSamples(index):
            return "The audio contains an invalid (NaN or infinite) sample at index \(index)."
        }
    }

    public var statusCode: Int32 {
        switch kind {
        case .invalidParameter, .invalidSampleRate: return StatusCode.invalidParameter
        case .nonFiniteSamples: return StatusCode.unreadableMedia
        }
    }
}
