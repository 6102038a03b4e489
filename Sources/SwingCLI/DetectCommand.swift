import ArgumentParser
import Foundation
import SwingCore
import SwingInference
import SwingMedia
import SwingPipeline
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
            record (usage, last used, a detection session) unless --no-store is given. With --track (videos \
            only) objects are followed from frame to frame by ByteTrack: every reported detection carries a \
            trackId, and --save tags each box with #id and draws its trail.
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

    @Option(name: .customLong("max-det"), help: "Maximum detections per image. Default: the model's stored default, else \(PredictionOptions().maxDet).")
    var maxDet: Int?

    @Option(help: "Keep only these classes: comma-separated ids and/or names, e.g. 0,32 or \"person,sports ball\".")
    var classes: String?

    @Flag(help: "Class-agnostic NMS (boxes of different classes also suppress each other).")
    var agnostic = false

    @Option(name: .customLong("vid-stride"), help: "Video only: process every N-th frame.")
    var vidStride: Int = DetectCommand.defaultVideoStride

    @Flag(help: ArgumentHelp("Video only: track objects across the processed frames (ByteTrack, Ultralytics' defaults) and give each reported detection a trackId; without --conf or a stored default the confidence threshold is \(ByteTracker.Configuration().trackLowThreshold), as `yolo track` uses, so low-confidence boxes can extend tracks."))
    var track = false

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

    @Option(help: "Video frames run through the model at once, each on its own session (0 = one per core, at most \(DetectionRun.maxAutomaticWorkers), when --threads is 0; else 1). The frames come out in order whatever the number.")
    var workers: Int = 0

    func validate() throws {
        try OptionCheck.number(conf, "--conf", 0...1)
        try OptionCheck.number(iou, "--iou", 0...1)
        try OptionCheck.integer(maxDet, "--max-det", 1...OptionCheck.maxFrames)
        try OptionCheck.integer(vidStride, "--vid-stride", 1...OptionCheck.maxFrames)
        try OptionCheck.threads(threads, "--threads")
        try OptionCheck.threads(workers, "--workers")
        try OutputFile.refuseInputs([("--save", save)], inputs: [source, model])
        if track && ImageIO.isImagePath(source) {
            throw ValidationError("--track follows objects from frame to frame, so it needs a video, and \(URL(fileURLWithPath: source).lastPathComponent) is an image.")
        }
    }

    func run() async throws {
        try OutputFile.checkWritable([("--save", save)])
        var sessionOptions = SessionOptions()
        sessionOptions.intraOpThreads = threads
        // A catalog model is recorded in the database; a plain file never opens it.
        let (resolved, db) = try await ResolvedModel.resolveOpeningStore(model, store: !noStore)
        let job = DetectionRun(
            sourcePath: source, modelPath: resolved.reference.path,
            options: PredictionOptions(conf: resolved.conf(conf, fallback: track ? ByteTracker.Configuration().trackLowThreshold : PredictionOptions().conf),
                                       iou: resolved.iou(iou), maxDet: resolved.maxDet(maxDet), agnostic: agnostic),
            classFilter: classes, videoStride: vidStride, savePath: save, sessionOptions: sessionOptions,
            tracker: track ? ByteTracker.Configuration() : nil, workers: workers)
        // Resolve the interpreter first so a wrong name fails before inference runs.
        let interpreter = try interpret.map {
            try InterpreterRegistry.standard.interpreter(named: $0, configuration: resolved.interpreterConfig(interpreterConfig))
        }
        let startedAt = Date()
        let (save, json) = (self.save, self.json)
        let report = try await OutputFile.write(optional: save) { temporary in
            var job = job
            job.savePath = temporary
            return try await InterruptWatcher.cancellable("detection") { [job] in
                try job.run(progress: json ? nil : ProgressBar.stagedHandler())
            }
        }
        // The interpreter reads the frames in memory, as `interpret` reads them from `detect --json`.
        let interpretation = interpreter.map { $0.interpretVideo(report.interpreterFrames) }
        try await resolved.recordUse(report.runStats(startedAt: startedAt, endedAt: Date(),
                                               source: URL(fileURLWithPath: source).lastPathComponent,
                                               interpreter: interpreter, videoResult: interpretation), in: db)
        if json {
            try Console.write(try InterpretedDetections(document: report, interpretation: interpretation).jsonData(), to: "-")
        } else {
            for line in DetectSummary.lines(report) { try Console.line(line) }
            if let interpretation, let name = interpret {
                try Console.line("interpretation (\(name)):")
                try Console.line(String(decoding: try InterpretedDetections.encode(AnyEncodable(interpretation)), as: UTF8.self))
            }
        }
    }
}

/// Human-readable lines for the non-JSON output (one per image, a summary per video).
enum DetectSummary {
    static func lines(_ report: DetectionDocument) -> [String] {
        guard let first = report.results.first else { return ["no frames decoded"] }
        if report.results.count == 1 {
            let f = first
            return ["\(f.source): \(f.width)x\(f.height) \(describe(f, task: report.model.task))",
                    String(format: "Speed: %.1fms preprocess, %.1fms inference, %.1fms postprocess",
                           f.speed.preMs, f.speed.inferenceMs, f.speed.postMs)]
        }
        let n = Double(report.results.count)
        let mean = { (k: KeyPath<DetectionDocument.Speed, Double>) in report.results.map { $0.speed[keyPath: k] }.reduce(0, +) / n }
        var counts: [String: Int] = [:]
        for f in report.results { for d in f.detections { counts[d.label, default: 0] += 1 } }
        let classes = counts.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        let tracks = Set(report.results.flatMap { $0.detections.compactMap(\.trackId) }).count
        return ["\(first.source): \(report.results.count) frames processed, \(counts.values.reduce(0, +)) detections"
                + (classes.isEmpty ? "" : " (\(classes))") + (tracks > 0 ? ", \(tracks) track\(tracks == 1 ? "" : "s")" : ""),
                String(format: "Speed (mean per frame): %.1fms preprocess, %.1fms inference, %.1fms postprocess",
                       mean(\.preMs), mean(\.inferenceMs), mean(\.postMs))]
    }

    private static func describe(_ f: DetectionDocument.Frame, task: String) -> String {
        if let top = f.classification {
            return top.map { $0.label + " " + String(format: "%.2f", $0.confidence) }.joined(separator: ", ")
        }
        guard !f.detections.isEmpty else { return "(no detections)" }
        var counts: [(String, Int)] = []
        for d in f.detections {
            if let i = counts.firstIndex(where: { $0.0 == d.label }) { counts[i].1 += 1 } else { counts.append((d.label, 1)) }
        }
        return counts.map { "\($0.1) \($0.0)" }.joined(separator: ", ")
    }
}
