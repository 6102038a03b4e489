import SwingCore
import SwingInference

/// Runs any Ultralytics YOLO ONNX export (detect, segment, classify, pose, obb; raw or end-to-end outputs)
/// on ONNX Runtime: letterbox → inference → decode, with per-stage timing.
///
/// Thread-safe: one predictor may serve concurrent `predict` calls (ORT sessions allow concurrent runs).
package final class YOLOPredictor: Sendable {
    /// What the model is (task, names, input size, output layout).
    package let info: YOLOModelInfo
    /// The underlying ONNX Runtime session.
    package let session: InferenceSession
    let inputName: String
    let outputNames: [String]
    let decoder: YOLODecoder

    /// Loads a YOLO ONNX model.
    /// - Parameters:
    ///   - modelPath: Path to the `.onnx` file.
    ///   - sessionOptions: ONNX Runtime settings (threads, graph optimisation).
    /// - Throws: `InferenceError` when the runtime or file cannot be loaded; ``VisionError`` (`modelUnsupported`)
    ///   when the model's inputs/outputs are not a YOLO layout (the message names the shapes found).
    package init(modelPath: String, sessionOptions: SessionOptions = .init()) throws {
        let session = try InferenceSession(modelPath: modelPath, options: sessionOptions)
        guard session.inputs.count == 1, let input = session.inputs.first else {
            throw VisionError(.modelUnsupported,
                              "A YOLO model has one image input; this one has \(session.inputs.map(\.shape)).")
        }
        self.session = session
        inputName = input.name
        outputNames = session.outputs.map(\.name)
        info = try YOLOModelInfo(metadata: session.metadata, inputShape: input.shape,
                                 outputShapes: session.outputs.map(\.shape))
        decoder = YOLODecoder(info: info)
    }

    /// Runs the model on one image.
    /// - Parameters:
    ///   - image: An RGB image of any size.
    ///   - options: Thresholds, caps and class filter.
    /// - Returns: Detections (or top-k classes) in original-image pixels, with stage timings.
    /// - Throws: ``VisionError`` for invalid options/class filter or unexpected outputs; `InferenceError` when
    ///   ONNX Runtime fails.
    package func predict(_ image: ImageBuffer, options: PredictionOptions = PredictionOptions()) throws -> YOLOResult {
        try options.validate(classCount: info.classCount)
        let clock = ContinuousClock()
        let t0 = clock.now
        let h = info.imgsz[0], w = info.imgsz[1]
        let geometry = LetterboxGeometry(sourceWidth: image.width, sourceHeight: image.height,
                                         targetWidth: w, targetHeight: h)
        var input: [Float] = []
        if info.task == .classify {
            input = ClassifyTransform.tensor(image, targetWidth: w, targetHeight: h)
        } else {
            Letterbox.tensor(image, geometry: geometry, into: &input)
        }
        let t1 = clock.now
        let outputs = try input.withUnsafeBufferPointer { buf in
            try session.run(inputName: inputName, shape: [1, 3, h, w], data: buf)
        }
        let t2 = clock.now
        let raw = try outputNames.map { name -> RawTensor in
            guard let t = outputs[name] else {
                throw VisionError(.modelUnsupported, "The model did not return its output '\(name)'.")
            }
            return RawTensor(shape: t.shape, data: t.data)
        }
        let decoded = try decoder.decode(raw, letterbox: geometry, options: options)
        let t3 = clock.now
        return YOLOResult(width: image.width, height: image.height, detections: decoded.detections,
                          classification: decoded.classification,
                          speed: StageTimings(preMs: ms(t1 - t0), inferenceMs: ms(t2 - t1), postMs: ms(t3 - t2)))
    }

    func ms(_ d: Duration) -> Double {
        let c = d.components
        return Double(c.seconds) * 1000 + Double(c.attoseconds) / 1e15
    }
}
