import Foundation
import SwingCore
import SwingInference
import SwingMedia
import SwingVision

/// One run of a YOLO model over a file (`swingmaster detect`): load the model, resolve the class filter,
/// run every image/frame, optionally write an annotated copy, and build the detection document.
package struct DetectionRun: Sendable {
    package var sourcePath: String
    package var modelPath: String
    package var options: PredictionOptions
    /// The class filter as typed (ids and/or names), resolved against the model's names.
    package var classFilter: String?
    package var videoStride: Int
    package var savePath: String?
    package var sessionOptions: SessionOptions
    /// Track objects across a video's processed frames with these thresholds (`detect --track`): each frame's
    /// detections become the tracked ones with a `trackId`, and the annotated video tags boxes `#id` and draws
    /// trails. `nil` (the default): no tracking.
    package var tracker: ByteTracker.Configuration?
    /// Video frames run through the model at once (`detect --workers`), each on its own ONNX Runtime
    /// session; 0 picks ``automaticWorkers(threads:cores:)``. Frames come out in order whatever the number;
    /// a session's thread count can change ONNX Runtime's summation order, so scores may differ in the last digits.
    package var workers: Int
    /// When set, each frame's inference waits its turn here (the studio's queue, shared with the cameras);
    /// the queue runs one inference at a time, so such a run uses one worker.
    package var inferenceQueue: InferenceQueue?

    package init(sourcePath: String, modelPath: String, options: PredictionOptions, classFilter: String?,
                videoStride: Int, savePath: String?, sessionOptions: SessionOptions,
                tracker: ByteTracker.Configuration? = nil, workers: Int = 0) {
        self.sourcePath = sourcePath; self.modelPath = modelPath; self.options = options
        self.classFilter = classFilter; self.videoStride = videoStride; self.savePath = savePath
        self.sessionOptions = sessionOptions; self.tracker = tracker; self.workers = workers
    }

    /// The most workers chosen automatically: each holds its own copy of the model.
    package static let maxAutomaticWorkers = 4

    /// Workers for a video when none are asked for: one per core (at most ``maxAutomaticWorkers``) when
    /// ONNX Runtime picks its own thread count, else one (the user chose the threads of one session).
    /// Two single-threaded sessions on two cores ran YOLO11n 1.2× faster than one two-threaded session
    /// (bench/results/detect_video.txt): intra-op threads wait on each other at every layer, whole frames do not.
    package static func automaticWorkers(threads: Int, cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        threads == 0 ? min(max(1, cores), maxAutomaticWorkers) : 1
    }

    /// - Parameter progress: Called as a video's frames are processed (stage `detect`); `nil` = silent.
    /// - Throws: `MediaError` (missing/unreadable source), `InferenceError` (runtime/model), `VisionError`
    ///   (not a YOLO model, bad class filter), `PipelineError` when cancelled, or (`invalidOptions`) when
    ///   tracking is asked of an image or of a classification model.
    package func run(progress: ProgressHandler?) throws -> DetectionDocument {
        guard FileManager.default.fileExists(atPath: sourcePath) else {
            throw MediaError(.fileNotFound, "Source not found: \(sourcePath).")
        }
        if tracker != nil && ImageIO.isImagePath(sourcePath) {
            throw PipelineError(.invalidOptions, "Tracking follows objects from frame to frame, so it needs a video; \(sourceName) is an image.")
        }
        let predictor = try YOLOPredictor(modelPath: modelPath, sessionOptions: videoSessionOptions)
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

    /// Workers for this run: one for a picture or behind a shared inference queue, else ``workers`` or the
    /// automatic choice.
    private var workerCount: Int {
        if ImageIO.isImagePath(sourcePath) || inferenceQueue != nil { return 1 }
        return workers > 0 ? workers : Self.automaticWorkers(threads: sessionOptions.intraOpThreads)
    }

    /// Several workers share the cores: each session gets its share of threads unless the user chose them.
    private var videoSessionOptions: SessionOptions {
        var o = sessionOptions
        let n = workerCount
        if n > 1 && o.intraOpThreads == 0 {
            o.intraOpThreads = max(1, ProcessInfo.processInfo.activeProcessorCount / n)
        }
        return o
    }

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
        // With several inference workers on the cores, one decoding thread keeps up and wastes none on
        // frame-threading hand-offs (as the pose workers decode).
        let reader = try VideoFrameReader(path: sourcePath, decoderThreads: workerCount > 1 ? 1 : 0)
        let fps = reader.info.frameRate > 0 ? reader.info.frameRate : 30
        let total = reader.info.frameCount ?? 0
        var writer: VideoWriter?
        if let savePath {
            // Only every stride-th frame is annotated, so the output plays at fps / stride; each keeps its
            // own time (phone footage drops and stretches frames).
            writer = try VideoWriter(path: savePath, width: reader.outputSize.width, height: reader.outputSize.height,
                                     fps: fps / Double(videoStride), faststart: true, frameTimes: true)
        }
        var frames: [DetectionDocument.Frame] = []
        // The tracker sees the processed frames only, so its buffer counts them at fps / stride.
        var objects = tracker.map { ByteTracker(configuration: $0, frameRate: fps / Double(videoStride)) }
        // Each worker runs whole frames on a session of its own; this thread decodes the next frames
        // meanwhile and takes the results back in frame order (tracking and the written video need it).
        let n = workerCount
        let predictors = try [predictor] + (1..<max(1, n)).map { _ in
            try YOLOPredictor(modelPath: modelPath, sessionOptions: videoSessionOptions)
        }
        let queue = inferenceQueue
        let pool = OrderedWorkers<VideoFrame, (VideoFrame, YOLOResult)>(workers: n) { frame, worker in
            let run = { try predictors[worker].predict(frame.image, options: options) }
            return (frame, try queue.map { try $0.runBlocking(run) } ?? run())
        }
        defer { pool.close() }
        func handle(_ videoFrame: VideoFrame, _ result: YOLOResult) throws {
            if let tracked = objects?.update(result.detections, time: videoFrame.time) {
                frames.append(DetectionDocument.Frame(result, tracked: tracked, source: sourceName,
                                                      frame: videoFrame.index, time: videoFrame.time))
                try writer?.append(Annotator.annotate(tracks: tracked, on: videoFrame.image), at: videoFrame.time)
            } else {
                frames.append(frame(result, index: videoFrame.index, time: videoFrame.time))
                try writer?.append(Annotator.annotate(result, on: videoFrame.image), at: videoFrame.time)
            }
            if total > 0 { progress?("detect", Double(videoFrame.index + 1) / Double(total)) }
        }
        // A window end far past any real video: read to the end. Frames the stride skips are decoded (the
        // codec needs them) but never converted to RGB.
        try reader.frames(from: 0, to: 1e9, stride: videoStride) { frame in
            guard !Cancellation.isRequested else { return false }
            pool.submit(frame)
            for (f, r) in try pool.ready() { try handle(f, r) }
            return true
        }
        for (f, r) in try pool.finish() { try handle(f, r) }
        if Cancellation.isRequested { throw PipelineError.cancelled("detection", nothing: "written") }
        try writer?.finish()
        progress?("detect", 1)
        return frames
    }
}

