import Foundation
import GRDB
import SwingCore

/// The dominant hand is stored as its raw value (`right` / `left`).
extension Hand: DatabaseValueConvertible {}

/// Enum columns are stored as their raw values; the schema's CHECK constraints list the same values.
extension ShotStatus: DatabaseValueConvertible {}
extension ContactClassification: DatabaseValueConvertible {}
extension ContactSource: DatabaseValueConvertible {}

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
    /// The session statistics as JSON text (the `stats` object of the session document).
    public var statsJSON: String
    /// Number of shots with a person (the ones in the statistics).
    public var shotCount: Int
    /// Consistency score 0…100; `nil` when no shot had a person.
    public var consistency: Double?
    /// The session document's exact bytes (`analyze --json`); `nil` for sessions stored before it existed.
    public var documentJSON: String?

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let createdAt = Column(CodingKeys.createdAt)
    }

    /// A session to be saved (`fileName` defaults to the last component of `filePath`).
    public init(filePath: String, fileName: String? = nil, fileSHA256: String, createdAt: Date = Date(),
                durationSeconds: Double, fps: Double, hand: Hand, statsJSON: String,
                shotCount: Int, consistency: Double?, documentJSON: String? = nil) {
        id = nil
        self.filePath = filePath
        self.fileName = fileName ?? URL(fileURLWithPath: filePath).lastPathComponent
        self.fileSHA256 = fileSHA256; self.createdAt = createdAt; self.durationSeconds = durationSeconds
        self.fps = fps; self.hand = hand; self.statsJSON = statsJSON; self.shotCount = shotCount
        self.consistency = consistency; self.documentJSON = documentJSON
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A shot row. Metric fields are `nil` for a "no person" shot; ``sessionId`` is set when its session is
/// saved.
public struct ShotRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "shot"
    /// The row id; `nil` until inserted.
    public var id: Int64?
    /// The session's id; 0 until the session is saved.
    public var sessionId: Int64
    /// 1-based position in the session.
    public var index: Int
    /// Contact time, seconds from the start of the media.
    public var time: Double
    /// Contact confidence 0…1.
    public var confidence: Double
    public var status: ShotStatus
    public var forwardCm: Double?
    public var lateralCm: Double?
    public var heightCm: Double?
    public var wristSpeedCmS: Double?
    public var classification: ContactClassification?
    /// The video frame (0-based) used as the contact frame (the document's `contactVideoFrame`).
    public var contactVideoFrame: Int?
    /// The swing arc as JSON text.
    public var arcJSON: String?
    /// The joints of every swing-window frame as JSON text (sessions stored before v3 only).
    public var jointsJSON: String?
    /// Where the contact came from with `analyze --detector`; `nil` when analysed from the sound alone.
    public var source: ContactSource?
    /// Visual − audio contact time for `both` shots, milliseconds.
    public var visualOffsetMs: Double?
    /// The posed frames of the swing window as JSON text; `nil` for shots stored before it existed.
    public var framesJSON: String?

    public enum Columns {
        public static let sessionId = Column(CodingKeys.sessionId)
        public static let index = Column(CodingKeys.index)
    }

    /// A shot to be saved with its session.
    public init(index: Int, time: Double, confidence: Double, status: ShotStatus,
                forwardCm: Double? = nil, lateralCm: Double? = nil, heightCm: Double? = nil,
                wristSpeedCmS: Double? = nil, classification: ContactClassification? = nil, contactVideoFrame: Int? = nil,
                arcJSON: String? = nil, jointsJSON: String? = nil, source: ContactSource? = nil,
                visualOffsetMs: Double? = nil, framesJSON: String? = nil) {
        id = nil; sessionId = 0
        self.index = index; self.time = time; self.confidence = confidence; self.status = status
        self.forwardCm = forwardCm; self.lateralCm = lateralCm; self.heightCm = heightCm
        self.wristSpeedCmS = wristSpeedCmS; self.classification = classification
        self.contactVideoFrame = contactVideoFrame; self.arcJSON = arcJSON; self.jointsJSON = jointsJSON
        self.source = source; self.visualOffsetMs = visualOffsetMs; self.framesJSON = framesJSON
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
