import Foundation
import SwingCore
import SwingInference
import SwingMedia
import SwingVision

/// One run of a YOLO model over a file (`swingmaster detect`): load the model, resolve the class filter,
/// run every image/frame, optionally write an annotated copy, and build the detection document.
public struct DetectionRun: Sendable {
    public var sourcePath: String
    public var modelPath: String
    public var options: PredictionOptions
    /// The class filter as typed (ids and/or names), resolved against the model's names.
    public var classFilter: String?
    public var videoStride: Int
    public var savePath: String?
    public var sessionOptions: SessionOptions
    /// Track objects across a video's processed frames with these thresholds (`detect --track`): each frame's
    /// detections become the tracked ones with a `trackId`, and the annotated video tags boxes `#id` and draws
    /// trails. `nil` (the default): no tracking.
    public var tracker: ByteTracker.Configuration?
    /// When set, each frame's inference waits its turn here (the studio's queue, shared with the cameras).
    public var inferenceQueue: InferenceQueue?
    /// Asked before every frame besides `Task.isCancelled` (a run on a thread of its own has no task):
    /// `true` stops the run with the cancellation error.
    public var isCancelled: @Sendable () -> Bool = { false }

    public init(sourcePath: String, modelPath: String, options: PredictionOptions, classFilter: String?,
                videoStride: Int, savePath: String?, sessionOptions: SessionOptions,
                tracker: ByteTracker.Configuration? = nil) {
        self.sourcePath = sourcePath; self.modelPath = modelPath; self.options = options
        self.classFilter = classFilter; self.videoStride = videoStride; self.savePath = savePath
        self.sessionOptions = sessionOptions; self.tracker = tracker
    }

    /// - Parameter progress: Called as a video's frames are processed (stage `detect`); `nil` = silent.
    /// - Throws: `MediaError` (missing/unreadable source), `InferenceError` (runtime/model), `VisionError`
    ///   (not a YOLO model, bad class filter), `PipelineError` when cancelled, or (`invalidOptions`) when
    ///   tracking is asked of an image or of a classification model.
    public func run(progress: ProgressHandler?) throws -> DetectionDocument {
        guard FileManager.default.fileExists(atPath: sourcePath) else {
            throw MediaError(.fileNotFound, "Source not found: \(sourcePath).")
        }
        if tracker != nil && ImageIO.isImagePath(sourcePath) {
            throw PipelineError(.invalidOptions, "Tracking follows objects from frame to frame, so it needs a video; \(sourceName) is an image.")
        }
        let predictor = try YOLOPredictor(modelPath: modelPath, sessionOptions: sessionOptions)
        if tracker != nil && predictor.info.task == .classify {
            throw PipelineError(.invalidOptions, "Tracking needs a model that finds boxes (detect, segment, pose or obb); this one classifies whole images.")
        }
        var options = self.options
        if let classFilter {
            options.classes = try ClassFilter.parse(classFilter, names: predictor.info.names)
        }
        let frames = ImageIO.isImagePath(sourcePath)
            ? try runImage(predictor, options)
            : try runVideo(predictor, options, progress: progress)
        return DetectionDocument(model: .init(predictor.info), results: frames)
    }

    private var sourceName: String { URL(fileURLWithPath: sourcePath).lastPathComponent }

    private func frame(_ result: YOLOResult, index: Int, time: Double) -> DetectionDocument.Frame {
        DetectionDocument.Frame(result, source: sourceName, frame: index, time: time)
    }

    private func runImage(_ predictor: YOLOPredictor, _ options: PredictionOptions) throws -> [DetectionDocument.Frame] {
        let image = try ImageIO.load(sourcePath)
        let result = try predictor.predict(image, options: options)
        if let savePath {
            try ImageIO.save(Annotator.annotate(result, on: image), to: savePath)
        }
        return [frame(result, index: 0, time: 0)]
    }

    private func runVideo(_ predictor: YOLOPredictor, _ options: PredictionOptions,
                          progress: ProgressHandler?) throws -> [DetectionDocument.Frame] {
        let reader = try VideoFrameReader(path: sourcePath)
        let fps = reader.info.frameRate > 0 ? reader.info.frameRate : 30
        let total = reader.info.frameCount ?? 0
        var writer: VideoWriter?
        if let savePath {
            // Only every stride-th frame is annotated, so the output plays at fps / stride.
            writer = try VideoWriter(path: savePath, width: reader.outputSize.width, height: reader.outputSize.height,
                                     fps: fps / Double(videoStride), faststart: true)
        }
        var frames: [DetectionDocument.Frame] = []
        var model: any FramePredictor = YOLOFramePredictor(predictor: predictor, options: options)
        if let inferenceQueue { model = QueuedFramePredictor(model, queue: inferenceQueue) }
        var loop = DetectionLoop(predictor: model, configuration: .init(throttle: .everyNthFrame(videoStride)))
        let isCancelled = self.isCancelled
        var stopped = false
        // The tracker sees the processed frames only, so its buffer counts them at fps / stride.
        var objects = tracker.map { ByteTracker(configuration: $0, frameRate: fps / Double(videoStride)) }
        // A window end far past any real video: read to the end.
        _ = try loop.run(over: reader, ranges: [0...1e9]) { videoFrame, processed in
            guard let result = processed.prediction.yolo else { return false }   // a YOLO predictor always has it
            if isCancelled() { stopped = true; return false }
            if let tracked = objects?.update(result.detections, time: videoFrame.time) {
                frames.append(DetectionDocument.Frame(result, tracked: tracked, source: sourceName,
                                                      frame: videoFrame.index, time: videoFrame.time))
                try writer?.append(Annotator.annotate(tracks: tracked, on: videoFrame.image))
            } else {
                frames.append(frame(result, index: videoFrame.index, time: videoFrame.time))
                try writer?.append(Annotator.annotate(result, on: videoFrame.image))
            }
            if total > 0 { progress?("detect", Double(videoFrame.index + 1) / Double(total)) }
            return true
        }
        if stopped || Task.isCancelled || isCancelled() { throw PipelineError.cancelled("detection", nothing: "written") }
        try writer?.finish()
        progress?("detect", 1)
        return frames
    }
}

