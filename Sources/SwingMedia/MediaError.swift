import Foundation
import SwingCore

/// Why a media operation failed, with one sentence a user can act on.
///
/// Each ``Kind`` maps to a distinct ``StatusCode`` so scripts can tell the failures apart.
package struct MediaError: CategorizedError {
    /// The category of failure.
    package enum Kind: Sendable, Equatable {
        /// The path does not exist.
        case fileNotFound
        /// The file exists but is not readable media (zero bytes, truncated, not a media file, undecodable).
        case unreadable
        /// Audio is required but the file has no audio stream.
        case noAudioTrack
        /// Video is required but the file has no video stream.
        case noVideoTrack
        /// The media (or the selected range) is shorter than the minimum.
        case tooShort
        /// The media (or the selected range) is longer than the maximum.
        case tooLong
        /// The requested time range is negative, empty or outside the media.
        case invalidTimeRange
        /// Encoding or writing an output file failed.
        case encodeFailed
        /// An image file could not be read or decoded.
        case imageUnreadable
    }

    /// The category of failure.
    package let kind: Kind
    /// One clear sentence describing the problem.
    package let message: String
    /// The FFmpeg error text behind the failure, when there is one (for logs, not users).
    package let underlying: String?

    /// Creates an error.
    /// - Parameters:
    ///   - kind: The category of failure.
    ///   - message: One clear user-facing sentence.
    ///   - underlying: Optional low-level detail (e.g. FFmpeg's error string).
    package init(_ kind: Kind, _ message: String, underlying: String? = nil) {
        self.kind = kind; self.message = message; self.underlying = underlying
    }

    package var statusCode: Int32 {
        switch kind {
        case .fileNotFound: StatusCode.fileNotFound
        case .unreadable: StatusCode.unreadableMedia
        case .noAudioTrack: StatusCode.noAudioTrack
        case .noVideoTrack: StatusCode.noVideoTrack
        case .tooShort: StatusCode.mediaTooShort
        case .tooLong: StatusCode.mediaTooLong
        case .invalidTimeRange: StatusCode.invalidTimeRange
        case .encodeFailed: StatusCode.outputWriteFailed
        case .imageUnreadable: StatusCode.imageUnreadable
        }
    }
}

/// Formats a duration for messages: "3.2 s" below a minute, "12 min 4 s" above.
func formatDuration(_ seconds: Double) -> String {
    if seconds < 60 {
        let whole = seconds.rounded()
        return abs(seconds - whole) < 0.05 ? "\(Int(whole)) s" : String(format: "%.1f s", seconds)
    }
    let total = Int(seconds.rounded(.down))
    let s = total % 60
    return s == 0 ? "\(total / 60) min" : "\(total / 60) min \(s) s"
}
