/// An error a user can act on: one clear sentence (`description`) and a stable status code.
///
/// Every module's public error type conforms, and the CLI uses ``statusCode`` as its exit code,
/// so each kind of bad input is distinguishable by scripts. The codes are listed in ``StatusCode``
/// and in the README; never reuse or renumber a shipped code.
public protocol UserFacingError: Error, CustomStringConvertible, Sendable {
    /// Stable, distinct, non-zero process exit status for this kind of failure.
    var statusCode: Int32 { get }
}

/// The registry of exit status codes (one place, so two modules never pick the same number).
public enum StatusCode {
    // 1–9: generic
    public static let failure: Int32 = 1
    public static let cancelled: Int32 = 130
    // 10–19: media input
    public static let fileNotFound: Int32 = 10
    public static let unreadableMedia: Int32 = 11
    public static let noAudioTrack: Int32 = 12
    public static let mediaTooShort: Int32 = 13
    public static let mediaTooLong: Int32 = 14
    public static let noVideoTrack: Int32 = 15
    public static let invalidTimeRange: Int32 = 16
    public static let outputWriteFailed: Int32 = 17
    // 20–29: models and inference
    public static let runtimeUnavailable: Int32 = 20
    public static let modelUnreadable: Int32 = 21
    public static let modelUnsupported: Int32 = 22
    public static let inferenceFailed: Int32 = 23
    public static let invalidClassFilter: Int32 = 24
    public static let imageUnreadable: Int32 = 25
    // 30–39: analysis
    public static let noPerson: Int32 = 30
    public static let noContacts: Int32 = 31
    public static let invalidTrack: Int32 = 32
    // 40–49: storage
    public static let databaseError: Int32 = 40
    public static let notFound: Int32 = 41
    // 50–59: model catalog
    public static let downloadFailed: Int32 = 50
    public static let checksumMismatch: Int32 = 51
    public static let catalogError: Int32 = 52
    public static let invalidInterpreterInput: Int32 = 53
    public static let invalidParameter: Int32 = 60  // 60–69: parameters
    /// Bad command-line usage (also a numeric flag out of range, an output that is an input, and
    /// `serve` settings it refuses), as swift-argument-parser reports it.
    public static let usage: Int32 = 64
}
