import SwingCore

/// Adapts a ``YOLOPredictor`` (any catalog model on ONNX Runtime) to the detection service.
public struct YOLOFramePredictor: FramePredictor {
    public let predictor: YOLOPredictor
    public let options: PredictionOptions

    /// - Parameters:
    ///   - predictor: a loaded model.
    ///   - options: thresholds etc. (e.g. the per-model conf/IoU stored by `models set`).
    public init(predictor: YOLOPredictor, options: PredictionOptions = PredictionOptions()) {
        self.predictor = predictor; self.options = options
    }

    public func predict(_ image: ImageBuffer) throws -> FramePrediction {
        let r = try predictor.predict(image, options: options)
        return FramePrediction(detections: r.detections, timings: r.speed, yolo: r)
    }
}
