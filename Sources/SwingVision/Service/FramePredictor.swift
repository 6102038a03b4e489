import Foundation
import SwingCore

/// What a predictor returns for one image.
package struct FramePrediction: Sendable, Equatable {
    package var detections: [Detection]
    /// Per-stage latency of the prediction, milliseconds.
    package var timings: StageTimings
    /// The YOLO model's whole answer (masks, keypoints, oriented boxes, classification) when the predictor
    /// is a YOLO model, for reports and drawings; `nil` for other predictors.
    package var yolo: YOLOResult?
    package init(detections: [Detection], timings: StageTimings, yolo: YOLOResult? = nil) {
        self.detections = detections; self.timings = timings; self.yolo = yolo
    }
}

/// Anything that turns an image into standardized detections — a YOLO predictor on ONNX Runtime in the
/// app, a scripted fake in tests. The detection service depends only on this.
package protocol FramePredictor: Sendable {
    /// Runs the model on one image.
    /// - Throws: the predictor's own (user-facing) error.
    func predict(_ image: ImageBuffer) throws -> FramePrediction
}

/// A monotonic time source in seconds, injectable so throttling and FPS are testable.
package protocol ServiceClock: Sendable {
    func now() -> Double
}

/// The system's monotonic clock.
package struct MonotonicClock: ServiceClock {
    package init() {}
    package func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
