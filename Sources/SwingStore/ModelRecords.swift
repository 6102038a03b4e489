import Foundation
import GRDB

/// Per-model preferences and usage kept by the model catalog (one row per catalog model id).
package struct ModelRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    package static let databaseTableName = "modelRecord"

    /// The catalog's model id (primary key).
    package var modelId: String
    /// Shown first in `models list`.
    package var isFavorite: Bool
    /// Hidden from `models list` unless asked for.
    package var isHidden: Bool
    /// Per-model confidence threshold override (`nil` = the model's default).
    package var confThreshold: Double?
    /// Per-model NMS IoU threshold override (`nil` = the model's default).
    package var iouThreshold: Double?
    /// When the model was downloaded (`nil` for bundled/local models).
    package var downloadedAt: Date?
    /// When the model was last used for detection.
    package var lastUsedAt: Date?
    /// How many times the model was used.
    package var usageCount: Int
    /// The interpreter configuration for this model, as JSON text (opaque to the store).
    package var interpreterConfigJSON: String?
    /// Per-model cap on detections per image (`nil` = the default).
    package var maxDetections: Int?
    /// Per-model line width of the drawing, pixels (`nil` = the default).
    package var lineWidth: Int?
    /// The interpreter the studio runs on this model's detections (`nil` = none).
    package var interpreter: String?

    /// A record with no preferences set.
    package init(modelId: String, isFavorite: Bool = false, isHidden: Bool = false,
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
    package enum Columns {
        package static let modelId = Column(CodingKeys.modelId)
        package static let isFavorite = Column(CodingKeys.isFavorite)
        package static let lastUsedAt = Column(CodingKeys.lastUsedAt)
    }
}

/// One run of the detection service with a model: what it processed and how fast.
package struct DetectionSessionRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    package static let databaseTableName = "detectionSession"

    /// Row id; `nil` until saved.
    package var id: Int64?
    /// The catalog model id used.
    package var modelId: String
    package var startedAt: Date
    package var endedAt: Date
    /// Frames run through the model.
    package var frameCount: Int
    /// Detections returned over all frames.
    package var detectionCount: Int
    /// Mean model inference time per frame, milliseconds.
    package var averageInferenceMs: Double
    /// What the model ran on: a file name, `image` or `camera` (`nil` in runs stored before the studio).
    package var source: String?
    /// The interpreter that read the detections, if any.
    package var interpreter: String?
    /// What the interpreter saw over the run, in one line ("peak 3× person", "2 contacts"); `nil` without one.
    package var summary: String?

    package init(id: Int64? = nil, modelId: String, startedAt: Date, endedAt: Date,
                frameCount: Int, detectionCount: Int, averageInferenceMs: Double,
                source: String? = nil, interpreter: String? = nil, summary: String? = nil) {
        self.id = id; self.modelId = modelId; self.startedAt = startedAt; self.endedAt = endedAt
        self.frameCount = frameCount; self.detectionCount = detectionCount
        self.averageInferenceMs = averageInferenceMs
        self.source = source; self.interpreter = interpreter; self.summary = summary
    }

    /// Frames per second of clock time over the run (0 for a run of no measurable length).
    package var meanFps: Double {
        let seconds = endedAt.timeIntervalSince(startedAt)
        return seconds > 0 ? Double(frameCount) / seconds : 0
    }

    package mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Column names, for callers writing their own GRDB requests.
    package enum Columns {
        package static let modelId = Column(CodingKeys.modelId)
        package static let startedAt = Column(CodingKeys.startedAt)
    }
}
