import Foundation
import GRDB

/// Per-model preferences and usage kept by the model catalog (one row per catalog model id).
public struct ModelRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "modelRecord"

    /// The catalog's model id (primary key).
    public var modelId: String
    /// Shown first in `models list`.
    public var isFavorite: Bool
    /// Hidden from `models list` unless asked for.
    public var isHidden: Bool
    /// Per-model confidence threshold override (`nil` = the model's default).
    public var confThreshold: Double?
    /// Per-model NMS IoU threshold override (`nil` = the model's default).
    public var iouThreshold: Double?
    /// When the model was downloaded (`nil` for bundled/local models).
    public var downloadedAt: Date?
    /// When the model was last used for detection.
    public var lastUsedAt: Date?
    /// How many times the model was used.
    public var usageCount: Int
    /// The interpreter configuration for this model, as JSON text (opaque to the store).
    public var interpreterConfigJSON: String?
    /// Per-model cap on detections per image (`nil` = the default).
    public var maxDetections: Int?
    /// Per-model line width of the drawing, pixels (`nil` = the default).
    public var lineWidth: Int?
    /// The interpreter the studio runs on this model's detections (`nil` = none).
    public var interpreter: String?

    /// A record with no preferences set.
    public init(modelId: String, isFavorite: Bool = false, isHidden: Bool = false,
                confThreshold: Double? = nil, iouThreshold: Double? = nil,
                downloadedAt: Date? = nil, lastUsedAt: Date? = nil, usageCount: Int = 0,
                interpreterConfigJSON: String? = nil, maxDetections: Int? = nil, lineWidth: Int? = nil,
                interpreter: String? = nil) {
        self.modelId = modelId; self.isFavorite = isFavorite; self.isHidden = isHidden
        self.confThreshold = confThreshold; self.iouThreshold = iouThreshold
        self.downloadedAt = downloadedAt; self.lastUsedAt = lastUsedAt; self.usageCount = usageCount
        self.interpreterConfigJSON = interpreterConfigJSON
        self.maxDetections = maxDetections; self.lineWidth = lineWidth; self.interpreter = interpreter
    }

    /// Column names, for callers writing their own GRDB requests.
    public enum Columns {
        public static let modelId = Column(CodingKeys.modelId)
        public static let isFavorite = Column(CodingKeys.isFavorite)
        public static let lastUsedAt = Column(CodingKeys.lastUsedAt)
    }
}

/// One run of the detection service with a model: what it processed and how fast.
public struct DetectionSessionRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "detectionSession"

    /// Row id; `nil` until saved.
    public var id: Int64?
    /// The catalog model id used.
    public var modelId: String
    public var startedAt: Date
    public var endedAt: Date
    /// Frames run through the model.
    public var frameCount: Int
    /// Detections returned over all frames.
    public var detectionCount: Int
    /// Mean model inference time per frame, milliseconds.
    public var averageInferenceMs: Double
    /// What the model ran on: a file name, `image` or `camera` (`nil` in runs stored before the studio).
    public var source: String?
    /// The interpreter that read the detections, if any.
    public var interpreter: String?
    /// What the interpreter saw over the run, in one line ("peak 3× person", "2 contacts"); `nil` without one.
    public var summary: String?

    public init(id: Int64? = nil, modelId: String, startedAt: Date, endedAt: Date,
                frameCount: Int, detectionCount: Int, averageInferenceMs: Double,
                source: String? = nil, interpreter: String? = nil, summary: String? = nil) {
        self.id = id; self.modelId = modelId; self.startedAt = startedAt; self.endedAt = endedAt
        self.frameCount = frameCount; self.detectionCount = detectionCount
        self.averageInferenceMs = averageInferenceMs
        self.source = source; self.interpreter = interpreter; self.summary = summary
    }

    /// Frames per second of clock time over the run (0 for a run of no measurable length).
    public var meanFps: Double {
        let seconds = endedAt.timeIntervalSince(startedAt)
        return seconds > 0 ? Double(frameCount) / seconds : 0
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Column names, for callers writing their own GRDB requests.
    public enum Columns {
        public static let modelId = Column(CodingKeys.modelId)
        public static let startedAt = Column(CodingKeys.startedAt)
    }
}
