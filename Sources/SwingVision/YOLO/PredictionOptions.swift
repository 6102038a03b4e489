import SwingCore

/// Settings for one YOLO prediction. Defaults are Ultralytics' (docs/engine.md).
package struct PredictionOptions: Sendable, Equatable {
    /// Minimum confidence: a detection is kept when its score is **greater** than this (0.25).
    package var conf: Double = 0.25
    /// NMS IoU threshold: overlapping boxes are kept when IoU `≤ iou` (0.45).
    package var iou: Double = 0.45
    /// Maximum detections returned per image (300).
    package var maxDet: Int = 300
    /// Keep only these class ids (`nil` keeps all). Ids the model does not have are an error.
    package var classes: Set<Int>? = nil
    /// Class-agnostic NMS (suppress overlapping boxes of different classes too).
    package var agnostic: Bool = false
    /// Candidates kept for NMS, best first (Ultralytics' `max_nms`, 30000).
    package var maxCandidates: Int = 30_000
    /// Number of classification results returned (top-5).
    package var topK: Int = 5

    package init(conf: Double = 0.25, iou: Double = 0.45, maxDet: Int = 300, classes: Set<Int>? = nil,
                agnostic: Bool = false, maxCandidates: Int = 30_000, topK: Int = 5) {
        self.conf = conf; self.iou = iou; self.maxDet = maxDet; self.classes = classes
        self.agnostic = agnostic; self.maxCandidates = maxCandidates; self.topK = topK
    }

    /// Checks ranges and the class filter against the model's classes.
    /// - Throws: ``VisionError`` (`invalidOptions` or `invalidClassFilter`).
    package func validate(classCount: Int) throws {
        guard (0...1).contains(conf) else { throw VisionError(.invalidOptions, "The confidence threshold (conf) must be in [0, 1], not \(conf).") }
        guard (0...1).contains(iou) else { throw VisionError(.invalidOptions, "The IoU threshold must be in [0, 1], not \(iou).") }
        guard maxDet >= 0 else { throw VisionError(.invalidOptions, "Max-det must not be negative, got \(maxDet).") }
        if let c = classes {
            let bad = c.filter { $0 < 0 || $0 >= classCount }.sorted()
            guard bad.isEmpty else {
                throw VisionError(.invalidClassFilter,
                                  "Class ids \(bad) are not in this model (it has classes 0…\(max(classCount - 1, 0))).")
            }
        }
    }

    var nms: NMSOptions {
        NMSOptions(iouThreshold: iou, maxDetections: maxDet, agnostic: agnostic, maxCandidates: maxCandidates)
    }
}

/// Milliseconds spent in each stage of a prediction.
package struct StageTimings: Sendable, Codable, Equatable {
    package var preMs: Double
    package var inferenceMs: Double
    package var postMs: Double
    package init(preMs: Double = 0, inferenceMs: Double = 0, postMs: Double = 0) {
        self.preMs = preMs; self.inferenceMs = inferenceMs; self.postMs = postMs
    }
    /// pre + inference + post.
    package var totalMs: Double { preMs + inferenceMs + postMs }
}

/// The result of one YOLO prediction, in original-image pixels (origin top-left).
package struct YOLOResult: Sendable, Equatable {
    /// Original image size.
    package var width: Int
    package var height: Int
    /// Detections (empty for classification models), best first.
    package var detections: [Detection]
    /// Top-k classes for classification models, best first; `nil` for other tasks.
    package var classification: [Classification]?
    /// Per-stage timing.
    package var speed: StageTimings

    package init(width: Int, height: Int, detections: [Detection], classification: [Classification]? = nil,
                speed: StageTimings = StageTimings()) {
        self.width = width; self.height = height; self.detections = detections
        self.classification = classification; self.speed = speed
    }

    /// A detection's box normalised to [0, 1] by the image size (top-left origin);
    /// use `VisionCoordinates.visionRect(fromTopLeft:)` for Apple Vision's bottom-left convention.
    package func normalizedBox(_ d: Detection) -> Rect {
        VisionCoordinates.normalized(d.box, width: width, height: height)
    }
}

/// A raw float tensor as the decoders take it (row-major), independent of the inference runtime.
package struct RawTensor: Sendable, Equatable {
    package var shape: [Int]
    package var data: [Float]
    package init(shape: [Int], data: [Float]) { self.shape = shape; self.data = data }
    var count: Int { shape.reduce(1, *) }
}
