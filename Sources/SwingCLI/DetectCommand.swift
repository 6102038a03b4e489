import ArgumentParser
import Foundation
import SwingCore
import SwingInference
import SwingStore
import SwingVision

/// `swingmaster detect SOURCE --model M.onnx …` — any Ultralytics YOLO export on an image or a video.
struct DetectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Run an Ultralytics YOLO ONNX model (detect, segment, classify, pose, obb) on an image or a video.",
        discussion: """
            SOURCE is an image (JPEG, PNG, WebP, BMP) or a video; for a video every --vid-stride-th frame is \
            processed. Prints one line per image (or a summary per video), or the full results with --json. \
            --model takes a file path or a catalog model id (`swingmaster models list`); a catalog model's \
            `models set` thresholds and interpreter options are the defaults, and each run is counted in its \
            record (usage, last used, a detection session) unless --no-store is given.
            """
    )

    /// Every 3rd video frame by default, as the visual contact stage.
    static let defaultVideoStride = 3

    @Argument(help: "An image (JPEG/PNG/WebP/BMP) or a video file.")
    var source: String

    @Option(help: "An Ultralytics YOLO ONNX export (`yolo export format=onnx`): a file path, or a catalog model id (`swingmaster models list`).")
    var model: String

    @Option(help: "Keep detections whose confidence is above this (0…1). Default: the model's `models set --conf`, else \(PredictionOptions().conf).")
    var conf: Double?

    @Option(help: "NMS IoU threshold: a box overlapping a better one by more than this is dropped (0…1). Default: the model's `models set --iou`, else \(PredictionOptions().iou).")
    var iou: Double?

    @Option(name: .customLong("max-det"), help: "Maximum detections per image.")
    var maxDet: Int = PredictionOptions().maxDet

    @Option(help: "Keep only these classes: comma-separated ids and/or names, e.g. 0,32 or \"person,sports ball\".")
    var classes: String?

    @Flag(help: "Class-agnostic NMS (boxes of different classes also suppress each other).")
    var agnostic = false

    @Option(name: .customLong("vid-stride"), help: "Video only: process every N-th frame.")
    var vidStride: Int = DetectCommand.defaultVideoStride

    @Flag(help: "Print the results as JSON on stdout.")
    var json = false

    @Option(help: "Write an annotated image (.png/.jpg) or, for a video source, an annotated .mp4 here.")
    var save: String?

    @Option(help: "Also run an interpreter on the detections: \(InterpreterRegistry.standard.names.joined(separator: ", ")).")
    var interpret: String?

    @Option(name: .customLong("interpreter-config"), help: "JSON configuration for --interpret (every key optional). Default: the model's `models set --interpreter-config`.")
    var interpreterConfig: String?

    @Flag(name: .customLong("no-store"), help: "Do not record the run in the catalog model's usage and detection sessions.")
    var noStore = false

    @Option(help: "ONNX Runtime intra-op threads (0 = let ONNX Runtime choose).")
    var threads: Int = SessionOptions().intraOpThreads

    func validate() throws {
        try OptionCheck.number(conf, "--conf", 0...1)
        try OptionCheck.number(iou, "--iou", 0...1)
        try OptionCheck.integer(maxDet, "--max-det", 1...OptionCheck.maxFrames)
        try OptionCheck.integer(vidStride, "--vid-stride", 1...OptionCheck.maxFrames)
        try OptionCheck.threads(threads, "--threads")
        try OutputFile.refuseInputs([("--save", save)], inputs: [source, model])
    }

    func run() async throws {
        try OutputFile.checkWritable([("--save", save)])
        var sessionOptions = SessionOptions()
        sessionOptions.intraOpThreads = threads
        // A catalog model is recorded in the database; a plain file never opens it.
        let (resolved, db) = try ResolvedModel.resolveOpeningStore(model, store: !noStore)
        let job = DetectJob(
            sourcePath: source, modelPath: resolved.reference.path,
            options: PredictionOptions(conf: resolved.conf(conf), iou: resolved.iou(iou), maxDet: maxDet, agnostic: agnostic),
            classFilter: classes, videoStride: vidStride, savePath: save, sessionOptions: sessionOptions)
        // Resolve the interpreter first so a wrong name fails before inference runs.
        let interpreter = try interpret.map {
            try InterpreterRegistry.standard.interpreter(named: $0, configuration: resolved.interpreterConfig(interpreterConfig))
        }
        let startedAt = Date()
        let (save, json) = (self.save, self.json)
        let report = try await InterruptWatcher.cancellable("detection") {
            try OutputFile.write(optional: save) { temporary in
                var job = job
                job.savePath = temporary
                return try job.run(progress: json ? nil : ProgressBar())
            }
        }
        try resolved.recordUse(report.runStats(startedAt: startedAt, endedAt: Date()), in: db)
        // The interpreter reads the frames in memory, as `interpret` reads them from `detect --json`.
        let interpretation = interpreter.map { $0.interpretVideo(report.interpreterFrames) }
        if json {
            try Console.write(try DetectOutput(report: report, interpretation: interpretation).jsonData(), to: "-")
        } else {
            for line in DetectSummary.lines(report) { try Console.line(line) }
            if let interpretation, let name = interpret {
                try Console.line("interpretation (\(name)):")
                try Console.line(String(decoding: try DetectOutput.encode(DetectOutput.Value(interpretation)), as: UTF8.self))
            }
        }
    }
}

/// `detect --json`: the report, plus the interpretation under `interpretation` with `--interpret`.
struct DetectOutput: Encodable {
    var report: DetectReport
    var interpretation: (any Encodable & Sendable)?

    /// Encodes an interpreter's result through its concrete type.
    struct Value: Encodable {
        let value: any Encodable
        init(_ value: any Encodable) { self.value = value }
        func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    }

    private enum Key: String, CodingKey { case interpretation }

    func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)
        if let interpretation {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(Value(interpretation), forKey: .interpretation)
        }
    }

    static var encoder: JSONEncoder {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return enc
    }

    /// Pretty-printed, sorted keys: the bytes `detect --json` prints.
    /// - Throws: ``InterpreterError/encodingFailed(_:)`` when a number cannot be written (e.g. NaN).
    func jsonData() throws -> Data { try Self.encode(self) }

    /// Encodes `value` with ``encoder``, reporting failure as the interpreters do.
    static func encode(_ value: some Encodable) throws -> Data {
        do { return try encoder.encode(value) } catch {
            throw InterpreterError.encodingFailed(String(describing: error))
        }
    }
}

extension DetectReport {
    /// The frames as interpreters read them: what `interpret --detections` parses from `detect --json`
    /// (boxes, labels, confidences; task extras are not used by any interpreter).
    var interpreterFrames: [InterpreterFrame] {
        results.map { f in
            InterpreterFrame(detections: f.detections.map {
                                 Detection(classId: $0.classId, label: $0.label, confidence: $0.confidence,
                                           box: Rect(x1: $0.box.x1, y1: $0.box.y1, x2: $0.box.x2, y2: $0.box.y2))
                             },
                             frameIndex: f.frame, time: f.time, width: f.width, height: f.height)
        }
    }

    /// The numbers a detection session record keeps.
    func runStats(startedAt: Date, endedAt: Date) -> DetectionRunStats {
        let inference = results.map(\.speed.inferenceMs).reduce(0, +)
        return DetectionRunStats(startedAt: startedAt, endedAt: endedAt, frames: results.count,
                                 detections: results.map(\.detections.count).reduce(0, +),
                                 averageInferenceMs: results.isEmpty ? 0 : inference / Double(results.count))
    }
}
