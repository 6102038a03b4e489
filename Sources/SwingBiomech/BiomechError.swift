import SwingCore

/// Why a measurement could not be made: one sentence and a distinct status (the ``CategorizedError``
/// shape).
public struct BiomechError: CategorizedError {
    /// The category of failure.
    public enum Kind: Sendable, Equatable {
        /// The pose track (or contacts file) is malformed: bad JSON, wrong landmark count, bad times.
        case invalidTrack
        /// Every contact fell outside the track or had no pose in its swing window.
        case noPerson
        /// There were no contacts to measure.
        case noContacts
    }

    /// The category of failure.
    public let kind: Kind
    /// One clear sentence.
    public let message: String

    /// Creates an error of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }

    /// The track or contacts file is malformed.
    public static func invalidTrack(_ message: String) -> BiomechError { BiomechError(.invalidTrack, message) }
    /// No contact had a pose to measure.
    public static func noPerson(_ message: String) -> BiomechError { BiomechError(.noPerson, message) }
    /// There were no contacts.
    public static func noContacts(_ message: String) -> BiomechError { BiomechError(.noContacts, message) }

    public var statusCode: Int32 {
        switch kind {
        case .invalidTrack: StatusCode.invalidTrack
        case .noPerson: StatusCode.noPerson
        case .noContacts: StatusCode.noContacts
        }
    }
}
