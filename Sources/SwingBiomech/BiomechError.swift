import SwingCore

/// Why a measurement could not be made: one sentence and a distinct status (the ``CategorizedError``
/// shape).
package struct BiomechError: CategorizedError {
    /// The category of failure.
    package enum Kind: Sendable, Equatable {
        /// The pose track (or contacts file) is malformed: bad JSON, wrong landmark count, bad times.
        case invalidTrack
        /// Every contact fell outside the track or had no pose in its swing window.
        case noPerson
        /// There were no contacts to measure.
        case noContacts
    }

    /// The category of failure.
    package let kind: Kind
    /// One clear sentence.
    package let message: String

    /// Creates an error of `kind` saying `message`.
    package init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }

    /// The track or contacts file is malformed.
    package static func invalidTrack(_ message: String) -> BiomechError { BiomechError(.invalidTrack, message) }
    /// No contact had a pose to measure.
    package static func noPerson(_ message: String) -> BiomechError { BiomechError(.noPerson, message) }
    /// There were no contacts.
    package static func noContacts(_ message: String) -> BiomechError { BiomechError(.noContacts, message) }

    package var statusCode: Int32 {
        switch kind {
        case .invalidTrack: StatusCode.invalidTrack
        case .noPerson: StatusCode.noPerson
        case .noContacts: StatusCode.noContacts
        }
    }
}
