import SwingCore

/// Why a measurement could not be made. Conforms to ``UserFacingError`` so the CLI prints one sentence
/// and exits with a distinct status.
public enum BiomechError: UserFacingError, Equatable {
    /// The pose track (or contacts file) is malformed: bad JSON, wrong landmark count, bad times.
    case invalidTrack(String)
    /// Every contact fell outside the track or had no pose in its swing window.
    case noPerson(String)
    /// There were no contacts to measure.
    case noContacts(String)

    public var description: String {
        switch self {
        case .invalidTrack(let m), .noPerson(let m), .noContacts(let m): return m
        }
    }

    public var statusCode: Int32 {
        switch self {
        case .invalidTrack: return StatusCode.invalidTrack
        case .noPerson: return StatusCode.noPerson
        case .noContacts: return StatusCode.noContacts
        }
    }
}
