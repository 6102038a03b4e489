import Foundation
import GRDB
import SwingBiomech
import SwingCore

/// The dominant hand is stored as its raw value (`right` / `left`).
extension Hand: DatabaseValueConvertible {}


/// A session row: made by the caller with `id == nil`, saved by ``AppDatabase/saveSession(_:shots:document:)``,
/// which sets ``id``.
public struct SessionRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "session"
    /// The row id; `nil` until inserted.
    public var id: Int64?
    /// Path of the analysed video as stored (the CLI's path, or the server's media file).
    public var filePath: String
    /// The name listings show (the file name the user gave).
    public var fileName: String
    /// Lower-case hex SHA-256 of the file's bytes.
    public var fileSHA256: String
    public var createdAt: Date
    /// Length of the analysed part, seconds.
    public var durationSeconds: Double
    public var fps: Double
    public var hand: Hand
    /// The session statistics (the `stats` object of the session document; a JSON column).
    public var stats: SessionStats
    /// The session document's exact bytes (`analyze --json`); `nil` for sessions stored before it existed.
    /// Kept as text on purpose: every reader returns these bytes unchanged.
    public var documentJSON: String?
    /// How many times the session was stored: 0 when analysed, one more after each edit.
    public var revision: Int = 0

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let createdAt = Column(CodingKeys.createdAt)
    }

    /// A session to be saved (`fileName` defaults to the last component of `filePath`).
    public init(filePath: String, fileName: String? = nil, fileSHA256: String, createdAt: Date = Date(),
                durationSeconds: Double, fps: Double, hand: Hand, stats: SessionStats, documentJSON: String? = nil) {
        id = nil
        self.filePath = filePath
        self.fileName = fileName ?? URL(fileURLWithPath: filePath).lastPathComponent
        self.fileSHA256 = fileSHA256; self.createdAt = createdAt; self.durationSeconds = durationSeconds
        self.fps = fps; self.hand = hand; self.stats = stats; self.documentJSON = documentJSON
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// What a session was measured on, kept so an edit re-measures it in place (issue #27): the pose track
/// (``TrackArchive`` bytes), the video frame of each of its samples, the factors from pose pixels to
/// display pixels, and the biomechanics' parameters as JSON.
public struct SessionTrackRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "sessionTrack"
    public var sessionId: Int64
    /// ``TrackArchive`` bytes.
    public var track: Data
    /// The video frame (0-based; −1 when unknown) of each track sample.
    public var videoFrames: [Int]
    public var poseToDisplayX: Double
    public var poseToDisplayY: Double
    /// The ``BiomechParameters`` the session was measured with, as JSON (see ``BiomechParameters/json``).
    public var parameters: String

    public init(sessionId: Int64 = 0, track: Data, videoFrames: [Int], poseToDisplayX: Double, poseToDisplayY: Double,
                parameters: String) {
        self.sessionId = sessionId; self.track = track; self.videoFrames = videoFrames
        self.poseToDisplayX = poseToDisplayX; self.poseToDisplayY = poseToDisplayY; self.parameters = parameters
    }
}

/// A shot row: the one ``Shot`` and its swing window's posed frames, each a JSON column. The table's
/// `index` column is generated from the shot (it keys the row with ``sessionId``), and the schema checks
/// the shot's enum values. ``sessionId`` is set when its session is saved.
public struct ShotRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "shot"
    /// The row id; `nil` until inserted.
    public var id: Int64?
    /// The session's id; 0 until the session is saved.
    public var sessionId: Int64
    /// The shot as in the session document.
    public var shot: Shot
    /// The posed frames of the swing window (what the shot view shows); `nil` for shots stored before
    /// they were kept.
    public var frames: [ShotFrame]?

    public enum Columns {
        public static let sessionId = Column(CodingKeys.sessionId)
        /// Generated from ``Shot/index``.
        public static let index = Column("index")
    }

    /// A shot to be saved with its session.
    public init(_ shot: Shot, frames: [ShotFrame]? = nil) {
        id = nil; sessionId = 0
        self.shot = shot; self.frames = frames
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A session with its shots in index order.
public struct SessionDetail: Sendable, Equatable {
    public var session: SessionRecord
    public var shots: [ShotRecord]
}

/// The single player profile.
struct PlayerRecord: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "player"
    var id: Int64?
    var dominantHand: Hand
    var createdAt: Date
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
