import Foundation
import SwingCore
import SwingInference
import SwingMedia
import SwingPipeline
import SwingVision

/// The work behind `swingmaster detect`, callable from tests: load the model, resolve the class
/// filter, run every image/frame, optionally write an annotated copy, and build the JSON report.
struct DetectJob {
    var sourcePath: String
    var modelPath: String
    var options: PredictionOptions
    /// The raw `--classes` text (ids and/or names), resolved against the model's names.
    var classFilter: String?
    var videoStride: Int
    var savePath: String?
    var sessionOptions: SessionOptions

    /// - Parameter progress: Drawn while a video is processed (nil = silent).
    /// - Throws: `MediaError` (missing/unreadable source), `InferenceError` (runtime/model), `VisionError`
    ///   (not a YOLO model), `CLIError` (bad `--classes`).
    func run(progress: ProgressBar?) throws -> DetectReport {
        guard FileManager.default.fileExists(atPath: sourcePath) else {
            throw MediaError(.fileNotFound, "Source not found: \(sourcePath).")
        }
        let predictor = try YOLOPredictor(modelPath: modelPath, sessionOptions: sessionOptions)
        var options = self.options
        if let classFilter {
            options.classes = try DetectClassFilter.parse(classFilter, names: predictor.info.names)
        }
        let info = predictor.info
        let model = DetectReport.Model(
            task: info.task.rawValue,
            names: Dictionary(uniqueKeysWithValues: info.names.map { (String($0.key), $0.value) }),
            imgsz: info.imgsz)
        let frames = ImageIO.isImagePath(sourcePath)
            ? try runImage(predictor, options)
            : try runVideo(predictor, options, progress: progress)
        return DetectReport(model: model, results: frames)
    }

    private var sourceName: String { URL(fileURLWithPath: sourcePath).lastPathComponent }

    private func frame(_ result: YOLOResult, index: Int, time: Double) -> DetectReport.Frame {
        DetectReport.Frame(
            source: sourceName, frame: index, time: time, width: result.width, height: result.height,
            speed: .init(preMs: result.speed.preMs, inferenceMs: result.speed.inferenceMs, postMs: result.speed.postMs),
            detections: result.detections, classification: result.classification)
    }

    private func runImage(_ predictor: YOLOPredictor, _ options: PredictionOptions) throws -> [DetectReport.Frame] {
        let image = try ImageIO.load(sourcePath)
        let result = try predictor.predict(image, options: options)
        if let savePath {
            try ImageIO.save(Annotator.annotate(result, on: image), to: savePath)
        }
        return [frame(result, index: 0, time: 0)]
    }

    private func runVideo(_ predictor: YOLOPredictor, _ options: PredictionOptions,
                          progress: ProgressBar?) throws -> [DetectReport.Frame] {
        let reader = try VideoFrameReader(path: sourcePath)
        let fps = reader.info.frameRate > 0 ? reader.info.frameRate : 30
        let total = reader.info.frameCount ?? 0
        var writer: VideoWriter?
        if let savePath {
            // Only every stride-th frame is annotated, so the output plays at fps / stride.
            writer = try VideoWriter(path: savePath, width: reader.outputSize.width, height: reader.outputSize.height,
                                     fps: fps / Double(videoStride))
        }
        var frames: [DetectReport.Frame] = []
        var loop = DetectionLoop(predictor: YOLOFramePredictor(predictor: predictor, options: options),
                                 configuration: .init(throttle: .everyNthFrame(videoStride)))
        // A window end far past any real video: read to the end.
        _ = try loop.run(over: reader, ranges: [0...1e9]) { videoFrame, processed in
            guard let result = processed.prediction.yolo else { return false }   // a YOLO predictor always has it
            frames.append(frame(result, index: videoFrame.index, time: videoFrame.time))
            try writer?.append(Annotator.annotate(result, on: videoFrame.image))
            if total > 0 { progress?.update(stage: "detect", Double(videoFrame.index + 1) / Double(total)) }
            return true
        }
        if Task.isCancelled { throw InterruptWatcher.cancelled("detection") }
        try writer?.finish()
        progress?.update(stage: "detect", 1)
        return frames
    }
}

/// Human-readable lines for the non-JSON output (one per image, a summary per video).
enum DetectSummary {
    static func lines(_ report: DetectReport) -> [String] {
        guard let first = report.results.first else { return ["no frames decoded"] }
        if report.results.count == 1 {
            let f = first
            return ["\(f.source): \(f.width)x\(f.height) \(describe(f, task: report.model.task))",
                    String(format: "Speed: %.1fms preprocess, %.1fms inference, %.1fms postprocess",
                           f.speed.preMs, f.speed.inferenceMs, f.speed.postMs)]
        }
        let n = Double(report.results.count)
        let mean = { (k: KeyPath<DetectReport.Speed, Double>) in report.results.map { $0.speed[keyPath: k] }.reduce(0, +) / n }
        var counts: [String: Int] = [:]
        for f in report.results { for d in f.detections { counts[d.label, default: 0] += 1 } }
        let classes = counts.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        return ["\(first.source): \(report.results.count) frames processed, \(counts.values.reduce(0, +)) detections"
                + (classes.isEmpty ? "" : " (\(classes))"),
                String(format: "Speed (mean per frame): %.1fms preprocess, %.1fms inference, %.1fms postprocess",
                       mean(\.preMs), mean(\.inferenceMs), mean(\.postMs))]
    }

    private static func describe(_ f: DetectReport.Frame, task: String) -> String {
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
