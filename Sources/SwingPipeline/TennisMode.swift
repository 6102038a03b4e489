import Dispatch
import Foundation
import SwingCore
import SwingInference
import SwingMedia
import SwingPose
import SwingVision

/// The player's pose in one tennis-mode frame of the studio (docs/studio.md): BlazePose's 33 landmarks.
package struct StudioPose: Codable, Equatable, Sendable {
    /// The landmark model's pose-presence score, 0…1.
    package var score: Double
    /// 33 × `[x, y, visibility]` in ``PoseSkeleton/names`` order: `x` and `y` divided by the picture's width
    /// and height (0…1, origin top-left; a landmark outside the picture goes past 0 or 1), visibility 0…1.
    package var landmarks: [[Double]]
    /// Whether the person detector ran on this frame (`false`: the region was tracked from the frame before).
    package var detectorRan: Bool

    /// The pose of `frame`, rounded to 4 decimals (a tenth of a pixel on a 1280-pixel picture).
    package init(_ frame: PoseFrame) {
        func r(_ v: Double) -> Double { v.isFinite ? (v * 10_000).rounded() / 10_000 : 0 }
        score = r(frame.score)
        landmarks = frame.landmarks.map { [r($0.nx), r($0.ny), r($0.visibility)] }
        detectorRan = frame.detectorRan
    }

    package init(score: Double, landmarks: [[Double]], detectorRan: Bool) {
        self.score = score; self.landmarks = landmarks; self.detectorRan = detectorRan
    }
}

/// How a tennis-mode pose is drawn: BlazePose's landmark names and the bones between them.
package struct PoseSkeleton: Codable, Equatable, Sendable {
    /// The 33 landmark names (``BodyLandmark/name``), in the order of ``StudioPose/landmarks``.
    package var names: [String]
    /// Bones as pairs of landmark indices: the shot view's 17-joint skeleton (``SkeletonJoints/boneLandmarks``, the list
    /// the sessions pages hand to skeleton.js) mapped to BlazePose's landmarks, so both pages draw one body.
    package var bones: [[Int]]

    /// BlazePose's skeleton.
    package static let blazePose = PoseSkeleton(
        names: BodyLandmark.allCases.map(\.name),
        bones: SkeletonJoints.boneLandmarks.map { [$0.index, $1.index] })
}

/// How a tennis-mode frame runs its two models.
///
/// The studio runs them side by side with one ONNX Runtime thread each (``standard``). Measured with
/// `swingbench tennis` on this project's 2-core machine (shared with other builds, load average 4.5),
/// YOLO11n at 640 and BlazePose tracking on one 1280×720 frame with a player, medians of 30 frames:
///
/// | schedule | ms per frame | YOLO ms | pose ms |
/// |---|---|---|---|
/// | one after the other, default threads (two per model) | 200.7 | 152.1 | 43.1 |
/// | side by side, one thread each | 99.3 | 96.9 | 43.4 |
/// | side by side, default threads | 195.3 | 191.8 | 80.1 |
/// | one after the other, one thread each | 107.5 | 80.8 | 18.9 |
///
/// Alone in the same run, YOLO took 79.3 ms with one thread and 117.1 with two, BlazePose 18.9 and 38.6: on two
/// cores a model's two threads meet at every operator, and whenever the other core is busy (another camera's
/// decode, the HTTP server, a neighbour) one waits for the other, so two threads are slower than one. Side by
/// side, each model has a core of its own and never waits for the other; BlazePose's time hides behind
/// YOLO's. In the quietest run of the session (YOLO alone 45.7 ms with two threads, 79.8 with one) the order
/// was the same: 80.4 ms per frame side by side against 97.9 one after the other.
package enum TennisSchedule: String, Sendable, CaseIterable {
    /// YOLO, then BlazePose, each with ONNX Runtime's default threads (one per core).
    case sequential
    /// YOLO and BlazePose at the same time, one thread each.
    case concurrent

    /// ONNX Runtime threads per model on this schedule (0 = one per core).
    package var threads: Int { self == .concurrent ? 1 : 0 }

    /// The session options for a YOLO model run on this schedule.
    package var sessionOptions: SessionOptions {
        var options = SessionOptions()
        options.intraOpThreads = threads
        return options
    }

    /// The schedule the studio uses (the faster one on 2 cores: see the type's documentation).
    package static let standard = TennisSchedule.concurrent
}

/// The BlazePose models, loaded once for every tennis-mode client of the studio. ``PoseEstimator`` is
/// immutable, so the sockets share one; each keeps its own ``TennisMode`` (its own tracker).
package actor LoadedPose {
    private let modelsDirectory: URL?
    private let threads: Int
    private var estimator: PoseEstimator?

    /// - Parameters:
    ///   - modelsDirectory: The folder with BlazePose's ONNX files (`nil`: ``PoseModels/defaultDirectory()``).
    ///   - threads: ONNX Runtime threads per model (0 = one per core).
    package init(modelsDirectory: URL? = nil, threads: Int = 0) {
        self.modelsDirectory = modelsDirectory
        self.threads = threads
    }

    /// The estimator, loaded on first use.
    /// - Throws: ``PoseError`` (`modelsUnavailable`) when the models are missing; `InferenceError` when ONNX
    ///   Runtime cannot load them.
    package func get() throws -> PoseEstimator {
        if let estimator { return estimator }
        var options = PoseOptions()
        options.threads = threads
        let loaded = try PoseEstimator(modelsDirectory: modelsDirectory, options: options)
        estimator = loaded
        return loaded
    }

    /// A tennis mode of its own (its own tracker) over the shared estimator, for one socket or one picture.
    /// - Throws: as ``get()``.
    package func mode(schedule: TennisSchedule = .standard) throws -> TennisMode {
        TennisMode(estimator: try get(), schedule: schedule)
    }
}

/// The studio's tennis mode for one client: BlazePose and a YOLO model (a racket and a ball) on the same
/// decoded frame, the pose tracked from frame to frame as MediaPipe does (``PoseTracker``), and the
/// detections interpreted (`tennis-contact` by default).
///
/// One per camera socket (the tracker follows one person through one stream); a single picture uses a
/// fresh one. Frames must come in time order from one task at a time.
package final class TennisMode: @unchecked Sendable {
    /// How the two models share the machine.
    package let schedule: TennisSchedule
    // Only touched inside `run`'s queued work, one frame at a time (the lock makes misuse safe, not fast).
    private let tracker: PoseTracker
    private let lock = NSLock()

    /// - Parameters:
    ///   - estimator: The loaded BlazePose models.
    ///   - schedule: Sequential or concurrent (``TennisSchedule/standard`` unless measuring).
    package init(estimator: PoseEstimator, schedule: TennisSchedule = .standard) {
        tracker = PoseTracker(estimator: estimator)
        self.schedule = schedule
    }

    /// Decodes `image`, runs `predictor` and BlazePose on it through `queue` (one turn: the frame holds the
    /// machine for both models), and interprets the detections.
    /// - Parameters:
    ///   - image: An encoded picture.
    ///   - predictor: The loaded YOLO model (a detect model).
    ///   - settings: Checked settings.
    ///   - interpreter: The configured interpreter, if any.
    ///   - queue: Where the models wait their turn.
    ///   - source: How the document names the picture.
    ///   - frameIndex: The frame's number in its stream.
    ///   - time: Seconds since the stream began (increasing; the pose smoothing and the contact's time use it).
    /// - Returns: The prediction with ``DetectionDocument/Frame/pose`` set when a person was found, and the
    ///   models' times in ``StudioPrediction/poseMs`` and ``StudioPrediction/yoloMs``.
    /// - Throws: ``MediaError`` for bytes that are not a picture, ``VisionError`` and `InferenceError` from
    ///   the models.
    package func run(image: Data, predictor: YOLOPredictor, settings: DetectionSettings,
                    interpreter: AnyDetectionInterpreter?, queue: InferenceQueue,
                    source: String, frameIndex: Int = 0, time: Double = 0) async throws -> StudioPrediction {
        let clock = ContinuousClock()
        let start = clock.now
        let picture = try ImageIO.decode(image)
        let decodeMs = (clock.now - start).milliseconds
        let options = settings.prediction
        let out = try await queue.run { try self.both(picture, predictor: predictor, options: options, time: time, index: frameIndex) }
        var frame = DetectionDocument.Frame(out.yolo, source: source, frame: frameIndex, time: time)
        frame.pose = out.pose.map(StudioPose.init)
        let interpretation = interpreter.map {
            StudioPrediction.Interpretation(interpreter: $0.name, result: $0.interpret(frame.interpreterFrame))
        }
        var p = StudioPrediction(frame: frame, interpretation: interpretation, decodeMs: decodeMs)
        p.poseMs = out.poseMs
        p.yoloMs = out.yoloMs
        return p
    }

    private struct Both: Sendable {
        var yolo: YOLOResult
        var pose: PoseFrame?
        var yoloMs: Double
        var poseMs: Double
    }

    /// Both models on one frame, on the calling thread (and, concurrently, one more).
    private func both(_ picture: ImageBuffer, predictor: YOLOPredictor, options: PredictionOptions,
                      time: Double, index: Int) throws -> Both {
        lock.lock(); defer { lock.unlock() }
        let clock = ContinuousClock()
        var yolo: Result<YOLOResult, any Error> = .failure(CancellationError())
        var pose: Result<PoseFrame?, any Error> = .success(nil)
        var yoloMs = 0.0, poseMs = 0.0
        let runYOLO = {
            let t = clock.now
            yolo = Result { try predictor.predict(picture, options: options) }
            yoloMs = (clock.now - t).milliseconds
        }
        let runPose = {
            let t = clock.now
            pose = Result { try self.tracker.process(frame: picture, time: time, index: index) }
            poseMs = (clock.now - t).milliseconds
        }
        switch schedule {
        case .sequential:
            runYOLO()
            runPose()
        case .concurrent:
            // Each iteration writes only its own result; concurrentPerform returns after both.
            withoutActuallyEscaping(runYOLO) { y in
                withoutActuallyEscaping(runPose) { p in
                    let work = UnsafeWork(first: y, second: p)
                    DispatchQueue.concurrentPerform(iterations: 2) { i in i == 0 ? work.first() : work.second() }
                }
            }
        }
        return Both(yolo: try yolo.get(), pose: try pose.get(), yoloMs: yoloMs, poseMs: poseMs)
    }
}

/// Two closures handed to `concurrentPerform`, which runs them on two threads and waits for both: each
/// writes only its own variables, and the caller reads them after the wait.
private struct UnsafeWork: @unchecked Sendable {
    let first: () -> Void
    let second: () -> Void
}
