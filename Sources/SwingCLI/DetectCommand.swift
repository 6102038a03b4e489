import ArgumentParser
import Foundation
import SwingCore
import SwingInference
import SwingVision

/// `swingmaster detect SOURCE --model M.onnx …` — any Ultralytics YOLO export on an image or a video.
struct DetectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Run an Ultralytics YOLO ONNX model (detect, segment, classify, pose, obb) on an image or a video.",
        discussion: """
            SOURCE is an image (JPEG, PNG, WebP, BMP) or a video; for a video every --vid-stride-th frame is \
            processed. Prints one line per image (or a summary per video), or the full results with --json.
            """
    )

    /// The spec processes every 3rd video frame.
    static let defaultVideoStride = 3

    @Argument(help: "An image (JPEG/PNG/WebP/BMP) or a video file.")
    var source: String

    @Option(help: "An Ultralytics YOLO ONNX export (`yolo export format=onnx`).")
    var model: String

    @Option(help: "Keep detections whose confidence is above this (0…1).")
    var conf: Double = PredictionOptions().conf

    @Option(help: "NMS IoU threshold: a box overlapping a better one by more than this is dropped (0…1).")
    var iou: Double = PredictionOptions().iou

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

    @Option(name: .customLong("interpreter-config"), help: "JSON configuration for --interpret (every key optional).")
    var interpreterConfig: String?

    @Option(help: "ONNX Runtime intra-op threads (0 = let ONNX Runtime choose).")
    var threads: Int = SessionOptions().intraOpThreads

    func validate() throws {
        guard (0...1).contains(conf) else { throw ValidationError("--conf must be between 0 and 1, got \(conf).") }
        guard (0...1).contains(iou) else { throw ValidationError("--iou must be between 0 and 1, got \(iou).") }
        guard maxDet >= 1 else { throw ValidationError("--max-det must be at least 1, got \(maxDet).") }
        guard vidStride >= 1 else { throw ValidationError("--vid-stride must be at least 1, got \(vidStride).") }
        guard threads >= 0 else { throw ValidationError("--threads must not be negative, got \(threads).") }
    }

    func run() async throws {
        var sessionOptions = SessionOptions()
        sessionOptions.intraOpThreads = threads
        let job = DetectJob(
            sourcePath: source, modelPath: model,
            options: PredictionOptions(conf: conf, iou: iou, maxDet: maxDet, agnostic: agnostic),
            classFilter: classes, videoStride: vidStride, savePath: save, sessionOptions: sessionOptions)
        // Resolve the interpreter first so a wrong name fails before inference runs.
        let interpreter = try interpret.map {
            try InterpreterRegistry.standard.interpreter(named: $0, configuration: interpreterConfig.map { Data($0.utf8) })
        }
        let report = try job.run(progress: json ? nil : ProgressBar())
        // The interpreter reads the same document `detect --json` prints, exactly as `interpret` does.
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let reportJSON = try enc.encode(report)
        let interpretation = try interpreter.map {
            try $0.interpretVideoJSON(DetectionsDocument.frames(from: reportJSON))
        }
        if json {
            if let interpretation, var doc = try JSONSerialization.jsonObject(with: reportJSON) as? [String: Any] {
                doc["interpretation"] = try JSONSerialization.jsonObject(with: interpretation)
                try Console.write(JSONSerialization.data(withJSONObject: doc, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]), to: "-")
            } else {
                try Console.write(reportJSON, to: "-")
            }
        } else {
            DetectSummary.lines(report).forEach { print($0) }
            if let interpretation, let name = interpret {
                print("interpretation (\(name)):")
                print(String(decoding: interpretation, as: UTF8.self))
            }
        }
    }
}
