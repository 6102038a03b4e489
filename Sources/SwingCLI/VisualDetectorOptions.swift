import ArgumentParser
import Foundation
import SwingCore
import SwingInference
import SwingPipeline
import SwingVision

extension DetectorScope: ExpressibleByArgument {}

/// `analyze --detector MODEL` and its knobs: a racket/ball YOLO model whose contacts are fused with the
/// audio contacts (docs/fusion.md). Every knob but `--detector` is optional so that giving one without a
/// detector is an error instead of being silently ignored.
struct VisualDetectorOptions: ParsableArguments {
    private static let defaults = VisualContactOptions()

    @Option(name: .customLong("detector"),
            help: ArgumentHelp("A racket/ball YOLO model (file path or catalog id, see `swingmaster models list`): its racket–ball contacts are fused with the audio contacts.", valueName: "model"))
    var detector: String?

    @Option(name: .customLong("detector-stride"), help: ArgumentHelp("Run the detector on every N-th frame (default \(Self.defaults.stride)).", valueName: "n"))
    var stride: Int?

    @Option(name: .customLong("detector-scope"),
            help: ArgumentHelp("all: every stride-th frame of the analysed range (finds hits the microphone missed); windows: only the audio contacts' swing windows (cheaper; confirms and re-times). Default \(Self.defaults.scope.rawValue).", valueName: "all|windows"))
    var scope: DetectorScope?

    @Option(name: .customLong("detector-conf"), help: "Detector confidence threshold (0…1). Default: the model's `models set --conf`, else \(PredictionOptions().conf).")
    var conf: Double?

    @Option(name: .customLong("detector-iou"), help: "Detector NMS IoU threshold (0…1). Default: the model's `models set --iou`, else \(PredictionOptions().iou).")
    var iou: Double?

    @Option(name: .customLong("fusion-tolerance"),
            help: ArgumentHelp("Largest audio–visual time difference (seconds) for one hit. Default \(Int(Self.defaults.toleranceIntervals)) processed-frame intervals = \(Int(Self.defaults.toleranceIntervals)) × stride / fps (0.1 s at 60 fps, stride 3).", valueName: "seconds"))
    var tolerance: Double?

    @Option(name: .customLong("visual-only-min-confidence"),
            help: "Keep a contact seen but not heard only at or above this confidence (default \(Self.defaults.fusion.visualOnlyMinimumConfidence); above 1 drops them all).")
    var visualOnlyMinimumConfidence: Double?

    @Option(name: .customLong("detector-threads"), help: "ONNX Runtime intra-op threads for the detector (0 = let ONNX Runtime choose).")
    var threads: Int?

    func validate() throws {
        if detector == nil {
            let given: [(String, Bool)] = [
                ("--detector-stride", stride != nil), ("--detector-scope", scope != nil), ("--detector-conf", conf != nil),
                ("--detector-iou", iou != nil), ("--fusion-tolerance", tolerance != nil),
                ("--visual-only-min-confidence", visualOnlyMinimumConfidence != nil), ("--detector-threads", threads != nil),
            ]
            if let flag = given.first(where: \.1)?.0 { throw ValidationError("\(flag) needs --detector MODEL.") }
        }
        try OptionCheck.integer(stride, "--detector-stride", 1...OptionCheck.maxFrames)
        try OptionCheck.number(conf, "--detector-conf", 0...1)
        try OptionCheck.number(iou, "--detector-iou", 0...1)
        try OptionCheck.number(tolerance, "--fusion-tolerance", 0...60)
        try OptionCheck.number(visualOnlyMinimumConfidence, "--visual-only-min-confidence", 0...2)
        try OptionCheck.threads(threads, "--detector-threads")
    }

    /// Resolves and loads the detector (so a bad model fails before any analysis work) and builds the
    /// stage's options from the flags, the model's stored preferences, and the defaults — in that order.
    /// - Parameter db: the database the session will be stored in (`nil` with `--no-store`).
    /// - Returns: `nil` without `--detector`.
    /// - Throws: `CatalogError.unresolvedModel` (exit 21), `InferenceError`/`VisionError` when the file is not
    ///   a loadable YOLO model, `CLIError` for a stored interpreter configuration that does not decode.
    func load(db: MediaLibrary?) async throws -> (options: VisualContactOptions, predictor: any FramePredictor, model: ResolvedModel)? {
        guard let detector else { return nil }
        let model = try await ResolvedModel.resolve(detector, library: db)
        var session = SessionOptions()
        if let threads { session.intraOpThreads = threads }
        let predictor = try YOLOPredictor(modelPath: model.reference.path, sessionOptions: session)
        var prediction = PredictionOptions()
        prediction.conf = model.conf(conf)
        prediction.iou = model.iou(iou)
        var options = VisualContactOptions(modelName: model.displayName)
        if let stride { options.stride = stride }
        if let scope { options.scope = scope }
        options.fusionTolerance = tolerance
        if let visualOnlyMinimumConfidence { options.fusion.visualOnlyMinimumConfidence = visualOnlyMinimumConfidence }
        if let json = model.interpreterConfig(nil) {
            do {
                options.interpreter = try JSONDecoder().decode(TennisContactInterpreter.Configuration.self, from: json)
            } catch {
                throw CLIError(.invalidParameter,
                               "The stored interpreter configuration of model '\(model.displayName)' is not a tennis-contact configuration (\(error.localizedDescription)); change it with `swingmaster models set \(model.displayName) --interpreter-config`.")
            }
        }
        return (options, YOLOFramePredictor(predictor: predictor, options: prediction), model)
    }
}

extension VisualContactReport {
    /// The numbers the model's detection session record keeps.
    var runStats: DetectionRunStats {
        DetectionRunStats(startedAt: startedAt, endedAt: endedAt, frames: summary.framesProcessed,
                          detections: summary.detectionCount, averageInferenceMs: summary.inferenceMs)
    }
}
