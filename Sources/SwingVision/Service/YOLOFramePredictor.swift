import SwingCore

/// Adapts a ``YOLOPredictor`` (any catalog model on ONNX Runtime) to the detection service.
package struct YOLOFramePredictor: FramePredictor {
    package let predictor: YOLOPredictor
    package let options: PredictionOptions

    /// - Parameters:
    ///   - predictor: a loaded model.
    ///   - options: thresholds etc. (e.g. the per-model conf/IoU stored by `models set`).
    package init(predictor: YOLOPredictor, options: PredictionOptions = PredictionOptions()) {
        self.predictor = predictor; self.options = options
    }

    package func predict(_ image: ImageBuffer) throws -> FramePrediction {
        let r = try predictor.predict(image, options: options)
        return FramePrediction(detections: r.detections, timings: r.speed, yolo: r)
    }
}
