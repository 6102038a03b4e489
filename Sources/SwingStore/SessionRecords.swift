import Foundation
import GRDB
import SwingCore

/// The dominant hand is stored as its raw value (`right` / `left`).
extension Hand: DatabaseValueConvertible {}

/// An analysed session to be saved (see ``AppDatabase/saveSession(_:shots:)``).
public struct NewSession: Codable, Sendable, Equatable {
    /// Path of the analysed video as given by the user.
    public var filePath: String
    /// Last path component of ``filePath`` (what listings show).
    public var fileName: String
    /// Lower-case hex SHA-256 of the file's bytes.
    public var fileSHA256: String
    public var createdAt: Date
    public var durationSeconds: Double
    public var fps: Double
    public var hand: Hand
    /// The session statistics as JSON text (the `stats` object of `analyze --json`).
    public var statsJSON: String
    /// Number of shots with a person (the ones in the statistics).
    public var shotCount: Int
    /// Consistency score 0…100; `nil` when no shot had a person.
    public var consistency: Double?

    public init(filePath: String, fileName: String? = nil, fileSHA256: String, createdAt: Date = Date(),
                durationSeconds: Double, fps: Double, hand: Hand, statsJSON: String,
                shotCount: Int, consistency: Double?) {
        self.filePath = filePath
        self.fileName = fileName ?? URL(fileURLWithPath: filePath).lastPathComponent
        self.fileSHA256 = fileSHA256; self.createdAt = createdAt; self.durationSeconds = durationSeconds
        self.fps = fps; self.hand = hand; self.statsJSON = statsJSON; self.shotCount = shotCount
        self.consistency = consistency
    }
}

/// A saved session row.
public struct SessionRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "session"
    public var id: Int64
    public var filePath: String
    public var fileName: String
    public var fileSHA256: String
    public var createdAt: Date
    public var durationSeconds: Double
    public var fps: Double
    public var hand: Hand
    public var statsJSON: String
    public var shotCount: Int
    public var consistency: Double?
    /// The session document's exact bytes (`analyze --json`); `nil` for sessions stored before it existed.
    public var documentJSON: String?

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let createdAt = Column(CodingKeys.createdAt)
    }
}

/// One shot of a session to be saved. Metric fields are `nil` for a "no person" shot.
public struct NewShot: Codable, Sendable, Equatable {
    /// 1-based position in the session.
    public var index: Int
    /// Contact time, seconds from the start of the media.
    public var time: Double
    /// Contact detector confidence 0…1.
    public var confidence: Double
    /// `"ok"` or `"noPerson"`.
    public var status: String
    public var forwardCm: Double?
    public var lateralCm: Double?
    public var heightCm: Double?
    public var wristSpeedCmS: Double?
    /// `"late"`, `"optimal"` or `"early"`.
    public var classification: String?
    /// Frame index used as the contact frame.
    public var contactFrame: Int?
    /// The swing arc as JSON text.
    public var arcJSON: String?
    /// The joints of every swing-window frame as JSON text.
    public var jointsJSON: String?
    /// Where the contact came from with `analyze --detector`: `"both"`, `"audio"` or `"visual"`;
    /// `nil` when the session was analysed from the sound alone.
    public var source: String?
    /// Visual − audio contact time for `"both"` shots, milliseconds.
    public var visualOffsetMs: Double?
    /// The posed frames of the swing window as JSON text (the shot view's skeleton and overlay).
    public var framesJSON: String?

    public init(index: Int, time: Double, confidence: Double, status: String,
                forwardCm: Double? = nil, lateralCm: Double? = nil, heightCm: Double? = nil,
                wristSpeedCmS: Double? = nil, classification: String? = nil, contactFrame: Int? = nil,
                arcJSON: String? = nil, jointsJSON: String? = nil, source: String? = nil,
                visualOffsetMs: Double? = nil, framesJSON: String? = nil) {
        self.framesJSON = framesJSON
        self.index = index; self.time = time; self.confidence = confidence; self.status = status
        self.forwardCm = forwardCm; self.lateralCm = lateralCm; self.heightCm = heightCm
        self.wristSpeedCmS = wristSpeedCmS; self.classification = classification
        self.contactFrame = contactFrame; self.arcJSON = arcJSON; self.jointsJSON = jointsJSON
        self.source = source; self.visualOffsetMs = visualOffsetMs
    }
}

/// A saved shot row.
public struct ShotRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "shot"
    public var id: Int64?
    public var sessionId: Int64
    public var index: Int
    public var time: Double
    public var confidence: Double
    public var status: String
    public var forwardCm: Double?
    public var lateralCm: Double?
    public var heightCm: Double?
    public var wristSpeedCmS: Double?
    public var classification: String?
    public var contactFrame: Int?
    public var arcJSON: String?
    public var jointsJSON: String?
    /// `"both"`, `"audio"`, `"visual"` (analysed with a detector) or `nil` (sound alone).
    public var source: String?
    /// Visual − audio contact time for `"both"` shots, milliseconds.
    public var visualOffsetMs: Double?
    /// The posed frames of the swing window as JSON text; `nil` for shots stored before it existed.
    public var framesJSON: String?

    public enum Columns {
        public static let sessionId = Column(CodingKeys.sessionId)
        public static let index = Column(CodingKeys.index)
    }

    init(sessionId: Int64, shot s: NewShot) {
        id = nil; self.sessionId = sessionId; index = s.index; time = s.time; confidence = s.confidence
        status = s.status; forwardCm = s.forwardCm; lateralCm = s.lateralCm; heightCm = s.heightCm
        wristSpeedCmS = s.wristSpeedCmS; classification = s.classification; contactFrame = s.contactFrame
        arcJSON = s.arcJSON; jointsJSON = s.jointsJSON; source = s.source; visualOffsetMs = s.visualOffsetMs
        framesJSON = s.framesJSON
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
