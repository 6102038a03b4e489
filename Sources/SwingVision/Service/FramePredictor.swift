import Foundation
import SwingCore

/// What a predictor returns for one image.
public struct FramePrediction: Sendable, Equatable {
    public var detections: [Detection]
    /// Per-stage latency of the prediction, milliseconds.
    public var timings: StageTimings
    /// The YOLO model's whole answer (masks, keypoints, oriented boxes, classification) when the predictor
    /// is a YOLO model, for reports and drawings; `nil` for other predictors.
    public var yolo: YOLOResult?
    public init(detections: [Detection], timings: StageTimings, yolo: YOLOResult? = nil) {
        self.detections = detections; self.timings = timings; self.yolo = yolo
    }
}

/// Anything that turns an image into standardized detections — a YOLO predictor on ONNX Runtime in the
/// app, a scripted fake in tests. The detection service depends only on this.
public protocol FramePredictor: Sendable {
    /// Runs the model on one image.
    /// - Throws: the predictor's own (user-facing) error.
    func predict(_ image: ImageBuffer) throws -> FramePrediction
}

/// A monotonic time source in seconds, injectable so throttling and FPS are testable.
public protocol ServiceClock: Sendable {
    func now() -> Double
}

/// The system's monotonic clock.
public struct MonotonicClock: ServiceClock {
    public init() {}
    public func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
