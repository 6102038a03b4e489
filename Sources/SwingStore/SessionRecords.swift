import Foundation
import GRDB
import SwingBiomech
import SwingCore

/// The dominant hand is stored as its raw value (`right` / `left`).
extension Hand: DatabaseValueConvertible {}


/// A session row: made by the caller with `id == nil`, saved by ``AppDatabase/saveSession(_:shots:document:)``,
/// which sets ``id``.
package struct SessionRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    package static let databaseTableName = "session"
    /// The row id; `nil` until inserted.
    package var id: Int64?
    /// Path of the analysed video as stored (the CLI's path, or the server's media file).
    package var filePath: String
    /// The name listings show (the file name the user gave).
    package var fileName: String
    /// Lower-case hex SHA-256 of the file's bytes.
    package var fileSHA256: String
    package var createdAt: Date
    /// Length of the analysed part, seconds.
    package var durationSeconds: Double
    package var fps: Double
    package var hand: Hand
    /// The session statistics (the `stats` object of the session document; a JSON column).
    package var stats: SessionStats
    /// The session document's exact bytes (`analyze --json`); `nil` for sessions stored before it existed.
    /// Kept as text on purpose: every reader returns these bytes unchanged.
    package var documentJSON: String?
    /// How many times the session was stored: 0 when analysed, one more after each edit.
    package var revision: Int = 0

    package enum Columns {
        package static let id = Column(CodingKeys.id)
        package static let createdAt = Column(CodingKeys.createdAt)
    }

    /// A session to be saved (`fileName` defaults to the last component of `filePath`).
    package init(filePath: String, fileName: String? = nil, fileSHA256: String, createdAt: Date = Date(),
                durationSeconds: Double, fps: Double, hand: Hand, stats: SessionStats, documentJSON: String? = nil) {
        id = nil
        self.filePath = filePath
        self.fileName = fileName ?? URL(fileURLWithPath: filePath).lastPathComponent
        self.fileSHA256 = fileSHA256; self.createdAt = createdAt; self.durationSeconds = durationSeconds
        self.fps = fps; self.hand = hand; self.stats = stats; self.documentJSON = documentJSON
    }

    package mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// What a session was measured on, kept so an edit re-measures it in place (issue #27): the pose track
/// (``TrackArchive`` bytes), the video frame of each of its samples, the factors from pose pixels to
/// display pixels, and the biomechanics' parameters as JSON.
package struct SessionTrackRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    package static let databaseTableName = "sessionTrack"
    package var sessionId: Int64
    /// ``TrackArchive`` bytes.
    package var track: Data
    /// The video frame (0-based; −1 when unknown) of each track sample.
    package var videoFrames: [Int]
    package var poseToDisplayX: Double
    package var poseToDisplayY: Double
    /// The ``BiomechParameters`` the session was measured with, as JSON (see ``BiomechParameters/json``).
    package var parameters: String

    package init(sessionId: Int64 = 0, track: Data, videoFrames: [Int], poseToDisplayX: Double, poseToDisplayY: Double,
                parameters: String) {
        self.sessionId = sessionId; self.track = track; self.videoFrames = videoFrames
        self.poseToDisplayX = poseToDisplayX; self.poseToDisplayY = poseToDisplayY; self.parameters = parameters
    }
}

/// A shot row: the one ``Shot`` and its swing window's posed frames, each a JSON column. The table's
/// `index` column is generated from the shot (it keys the row with ``sessionId``), and the schema checks
/// the shot's enum values. ``sessionId`` is set when its session is saved.
package struct ShotRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    package static let databaseTableName = "shot"
    /// The row id; `nil` until inserted.
    package var id: Int64?
    /// The session's id; 0 until the session is saved.
    package var sessionId: Int64
    /// The shot as in the session document.
    package var shot: Shot
    /// The posed frames of the swing window (what the shot view shows); `nil` for shots stored before
    /// they were kept.
    package var frames: [ShotFrame]?

    package enum Columns {
        package static let sessionId = Column(CodingKeys.sessionId)
        /// Generated from ``Shot/index``.
        package static let index = Column("index")
    }

    /// A shot to be saved with its session.
    package init(_ shot: Shot, frames: [ShotFrame]? = nil) {
        id = nil; sessionId = 0
        self.shot = shot; self.frames = frames
    }

    package mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A session with its shots in index order.
package struct SessionDetail: Sendable, Equatable {
    package var session: SessionRecord
    package var shots: [ShotRecord]
}

/// The single player profile.
struct PlayerRecord: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "player"
    var id: Int64?
    var dominantHand: Hand
    var createdAt: Date
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
