import Foundation
import SwingCore

/// Which frames the service runs the model on.
public enum ThrottlePolicy: Sendable, Equatable {
    /// Every submitted frame.
    case everyFrame
    /// The 1st, (n+1)-th, (2n+1)-th … frame of a run (`detect --vid-stride`, `analyze --detector-stride`).
    case everyNthFrame(Int)
    /// At most one frame per `seconds` of clock time (measured from the start of the last processed frame).
    case minimumInterval(Double)
}

/// Live statistics: what a detection view shows (docs/interpreters.md).
public struct DetectionStatistics: Sendable, Equatable, Codable {
    /// Frames submitted.
    public var framesSeen = 0
    /// Frames run through the model.
    public var framesProcessed = 0
    /// Frames skipped by throttling.
    public var framesSkipped = 0
    /// Detections over all processed frames.
    public var detectionCount = 0
    /// Detections in the last processed frame.
    public var lastDetectionCount = 0
    /// Processed frames per second of clock time since the first processed frame started.
    public var fps = 0.0
    /// Exponential moving averages (ms) of the predictor's stage timings, and of the wall time of a
    /// whole `predict` call as measured by the service's clock. The first sample initialises each.
    public var preMsEMA = 0.0
    public var inferenceMsEMA = 0.0
    public var postMsEMA = 0.0
    public var wallMsEMA = 0.0
    /// The predictor's stage timings summed over processed frames (their mean is this / `framesProcessed`).
    public var totalTimings = StageTimings()
    public init() {}
}

/// One processed frame.
public struct ServiceResult: Sendable, Equatable {
    public var frameIndex: Int
    public var time: Double
    /// What the model returned.
    public var prediction: FramePrediction
    /// Clock time from the frame's admission to the end of the `predict` call, ms.
    public var wallMs: Double

    public var detections: [Detection] { prediction.detections }
    public var timings: StageTimings { prediction.timings }
}

/// A frame offered to the service.
public struct ServiceFrame: Sendable {
    public var image: ImageBuffer
    public var frameIndex: Int
    public var time: Double
    public init(image: ImageBuffer, frameIndex: Int, time: Double) {
        self.image = image; self.frameIndex = frameIndex; self.time = time
    }
}

/// The one detection loop: frames are offered in order, the throttle picks the ones the model runs on,
/// and the statistics (counts, timings, FPS) are kept. `detect` on a video and `analyze --detector` run it
/// over decoded frames (asking ``admit()`` first, so a skipped frame is never converted to RGB), and
/// ``DetectionService`` runs it over live frames.
public struct DetectionLoop: Sendable {
    /// Options.
    public struct Configuration: Sendable, Equatable {
        /// Which frames to process. Default: every 3rd frame.
        public var throttle: ThrottlePolicy = .everyNthFrame(3)
        /// Weight of the newest sample in the latency EMAs, in (0, 1]. Default 0.1.
        public var emaAlpha: Double = 0.1
        public init(throttle: ThrottlePolicy = .everyNthFrame(3), emaAlpha: Double = 0.1) {
            self.throttle = throttle; self.emaAlpha = min(max(emaAlpha, 1e-6), 1)
        }
    }

    public let predictor: any FramePredictor
    public let configuration: Configuration
    /// Statistics so far.
    public private(set) var statistics = DetectionStatistics()
    let clock: any ServiceClock
    private var firstStart: Double?
    private var lastProcessedStart: Double?
    /// `framesSeen` when the current run of frames began (``startRun()``).
    private var runStart = 0
    /// When the frame last admitted was admitted.
    private var admittedAt: Double?

    /// - Parameters:
    ///   - predictor: the model.
    ///   - configuration: throttling and EMA weight.
    ///   - clock: time source (inject a manual clock in tests).
    public init(predictor: any FramePredictor, configuration: Configuration = .init(),
                clock: any ServiceClock = MonotonicClock()) {
        self.predictor = predictor; self.configuration = configuration; self.clock = clock
    }

    /// Begins a new run of frames (e.g. the next swing window): ``ThrottlePolicy/everyNthFrame(_:)`` counts
    /// from its first frame.
    public mutating func startRun() { runStart = statistics.framesSeen }

    /// Counts the next frame and says whether the model should run on it; a frame it turns down is counted
    /// as skipped and needs no picture.
    public mutating func admit() -> Bool {
        let seen = statistics.framesSeen - runStart
        statistics.framesSeen += 1
        let now = clock.now()
        let take: Bool
        switch configuration.throttle {
        case .everyFrame: take = true
        case .everyNthFrame(let n): take = seen % max(n, 1) == 0
        case .minimumInterval(let s): take = lastProcessedStart.map { now - $0 >= s } ?? true
        }
        if take { admittedAt = now } else { statistics.framesSkipped += 1 }
        return take
    }

    /// Runs the model on a frame ``admit()`` accepted.
    /// - Throws: the predictor's error (statistics are left as before the frame).
    public mutating func run(_ frame: ServiceFrame) throws -> ServiceResult {
        let start = admittedAt ?? clock.now()
        admittedAt = nil
        let prediction = try predictor.predict(frame.image)
        let end = clock.now()
        let wallMs = (end - start) * 1000
        record(prediction, wallMs: wallMs, start: start, end: end)
        return ServiceResult(frameIndex: frame.frameIndex, time: frame.time, prediction: prediction, wallMs: wallMs)
    }

    /// Offers one frame; runs the model unless the throttle skips it.
    /// - Returns: the result, or `nil` when the frame was skipped.
    /// - Throws: the predictor's error.
    public mutating func submit(_ frame: ServiceFrame) throws -> ServiceResult? {
        admit() ? try run(frame) : nil
    }

    private mutating func record(_ p: FramePrediction, wallMs: Double, start: Double, end: Double) {
        let a = configuration.emaAlpha
        let first = statistics.framesProcessed == 0
        func ema(_ old: Double, _ x: Double) -> Double { first ? x : a * x + (1 - a) * old }
        statistics.preMsEMA = ema(statistics.preMsEMA, p.timings.preMs)
        statistics.inferenceMsEMA = ema(statistics.inferenceMsEMA, p.timings.inferenceMs)
        statistics.postMsEMA = ema(statistics.postMsEMA, p.timings.postMs)
        statistics.wallMsEMA = ema(statistics.wallMsEMA, wallMs)
        statistics.totalTimings.preMs += p.timings.preMs
        statistics.totalTimings.inferenceMs += p.timings.inferenceMs
        statistics.totalTimings.postMs += p.timings.postMs
        statistics.framesProcessed += 1
        statistics.lastDetectionCount = p.detections.count
        statistics.detectionCount += p.detections.count
        if firstStart == nil { firstStart = start }
        lastProcessedStart = start
        let elapsed = end - (firstStart ?? start)
        statistics.fps = elapsed > 0 ? Double(statistics.framesProcessed) / elapsed : 0
    }
}

/// ``DetectionLoop`` for frames that arrive over time (a camera, a browser): an actor, so frames can be
/// submitted from any task, with a stream runner that stops when its task is cancelled.
public actor DetectionService {
    public typealias Configuration = DetectionLoop.Configuration

    private var loop: DetectionLoop
    public nonisolated let configuration: Configuration
    /// Current statistics.
    public var statistics: DetectionStatistics { loop.statistics }

    /// Creates a service.
    /// - Parameters:
    ///   - predictor: the model.
    ///   - configuration: throttling and EMA weight.
    ///   - clock: time source (inject a manual clock in tests).
    public init(predictor: any FramePredictor, configuration: Configuration = .init(),
                clock: any ServiceClock = MonotonicClock()) {
        loop = DetectionLoop(predictor: predictor, configuration: configuration, clock: clock)
        self.configuration = configuration
    }

    /// Offers one frame; runs the model unless throttling skips it.
    /// - Returns: the result, or `nil` when the frame was skipped.
    /// - Throws: the predictor's error (statistics are left as before the frame).
    public func submit(_ frame: ServiceFrame) throws -> ServiceResult? { try loop.submit(frame) }

    /// Runs over a stream of frames until it ends or the task is cancelled.
    /// - Parameters:
    ///   - frames: the frames, in order.
    ///   - onResult: called with each processed frame's result.
    /// - Returns: the final statistics.
    /// - Throws: `CancellationError` when cancelled (results so far were delivered), or the predictor's error.
    public func run<S: AsyncSequence & Sendable>(_ frames: S, onResult: @Sendable (ServiceResult) -> Void)
        async throws -> DetectionStatistics where S.Element == ServiceFrame {
        for try await frame in frames {
            try Task.checkCancellation()
            if let r = try loop.submit(frame) { onResult(r) }
        }
        return loop.statistics
    }

    /// Clears statistics and throttling state.
    public func reset() {
        loop = DetectionLoop(predictor: loop.predictor, configuration: configuration, clock: loop.clock)
    }
}
