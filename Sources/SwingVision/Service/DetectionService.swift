import Foundation
import SwingCore

/// Which frames the service runs the model on.
package enum ThrottlePolicy: Sendable, Equatable {
    /// Every submitted frame.
    case everyFrame
    /// The 1st, (n+1)-th, (2n+1)-th … frame of a run (`detect --vid-stride`, `analyze --detector-stride`).
    case everyNthFrame(Int)
    /// At most one frame per `seconds` of clock time (measured from the start of the last processed frame).
    case minimumInterval(Double)
}

/// Live statistics: what a detection view shows (docs/interpreters.md).
package struct DetectionStatistics: Sendable, Equatable, Codable {
    /// Frames submitted.
    package var framesSeen = 0
    /// Frames run through the model.
    package var framesProcessed = 0
    /// Frames skipped by throttling.
    package var framesSkipped = 0
    /// Detections over all processed frames.
    package var detectionCount = 0
    /// Detections in the last processed frame.
    package var lastDetectionCount = 0
    /// Processed frames per second of clock time since the first processed frame started.
    package var fps = 0.0
    /// Exponential moving averages (ms) of the predictor's stage timings, and of the wall time of a
    /// whole `predict` call as measured by the service's clock. The first sample initialises each.
    package var preMsEMA = 0.0
    package var inferenceMsEMA = 0.0
    package var postMsEMA = 0.0
    package var wallMsEMA = 0.0
    /// The predictor's stage timings summed over processed frames (their mean is this / `framesProcessed`).
    package var totalTimings = StageTimings()
    package init() {}
}

/// One processed frame.
package struct ServiceResult: Sendable, Equatable {
    package var frameIndex: Int
    package var time: Double
    /// What the model returned.
    package var prediction: FramePrediction
    /// Clock time from the frame's admission to the end of the `predict` call, ms.
    package var wallMs: Double

    package var detections: [Detection] { prediction.detections }
    package var timings: StageTimings { prediction.timings }
}

/// A frame offered to the service.
package struct ServiceFrame: Sendable {
    package var image: ImageBuffer
    package var frameIndex: Int
    package var time: Double
    package init(image: ImageBuffer, frameIndex: Int, time: Double) {
        self.image = image; self.frameIndex = frameIndex; self.time = time
    }
}

/// The one detection loop: frames are offered in order, the throttle picks the ones the model runs on,
/// and the statistics (counts, timings, FPS) are kept. `detect` on a video and `analyze --detector` run it
/// over decoded frames (asking ``admit()`` first, so a skipped frame is never converted to RGB), and
/// ``DetectionService`` runs it over live frames.
package struct DetectionLoop: Sendable {
    /// Options.
    package struct Configuration: Sendable, Equatable {
        /// Which frames to process. Default: every 3rd frame.
        package var throttle: ThrottlePolicy = .everyNthFrame(3)
        /// Weight of the newest sample in the latency EMAs, in (0, 1]. Default 0.1.
        package var emaAlpha: Double = 0.1
        package init(throttle: ThrottlePolicy = .everyNthFrame(3), emaAlpha: Double = 0.1) {
            self.throttle = throttle; self.emaAlpha = min(max(emaAlpha, 1e-6), 1)
        }
    }

    package let predictor: any FramePredictor
    package let configuration: Configuration
    /// Statistics so far.
    package private(set) var statistics = DetectionStatistics()
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
    package init(predictor: any FramePredictor, configuration: Configuration = .init(),
                clock: any ServiceClock = MonotonicClock()) {
        self.predictor = predictor; self.configuration = configuration; self.clock = clock
    }

    /// Begins a new run of frames (e.g. the next swing window): ``ThrottlePolicy/everyNthFrame(_:)`` counts
    /// from its first frame.
    package mutating func startRun() { runStart = statistics.framesSeen }

    /// Counts the next frame and says whether the model should run on it; a frame it turns down is counted
    /// as skipped and needs no picture.
    package mutating func admit() -> Bool {
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
    package mutating func run(_ frame: ServiceFrame) throws -> ServiceResult {
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
    package mutating func submit(_ frame: ServiceFrame) throws -> ServiceResult? {
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
package actor DetectionService {
    package typealias Configuration = DetectionLoop.Configuration

    private var loop: DetectionLoop
    package nonisolated let configuration: Configuration
    /// Current statistics.
    package var statistics: DetectionStatistics { loop.statistics }

    /// Creates a service.
    /// - Parameters:
    ///   - predictor: the model.
    ///   - configuration: throttling and EMA weight.
    ///   - clock: time source (inject a manual clock in tests).
    package init(predictor: any FramePredictor, configuration: Configuration = .init(),
                clock: any ServiceClock = MonotonicClock()) {
        loop = DetectionLoop(predictor: predictor, configuration: configuration, clock: clock)
        self.configuration = configuration
    }

    /// Offers one frame; runs the model unless throttling skips it.
    /// - Returns: the result, or `nil` when the frame was skipped.
    /// - Throws: the predictor's error (statistics are left as before the frame).
    package func submit(_ frame: ServiceFrame) throws -> ServiceResult? { try loop.submit(frame) }

    /// Runs over a stream of frames until it ends or the task is cancelled.
    /// - Parameters:
    ///   - frames: the frames, in order.
    ///   - onResult: called with each processed frame's result.
    /// - Returns: the final statistics.
    /// - Throws: `CancellationError` when cancelled (results so far were delivered), or the predictor's error.
    package func run<S: AsyncSequence & Sendable>(_ frames: S, onResult: @Sendable (ServiceResult) -> Void)
        async throws -> DetectionStatistics where S.Element == ServiceFrame {
        for try await frame in frames {
            try Task.checkCancellation()
            if let r = try loop.submit(frame) { onResult(r) }
        }
        return loop.statistics
    }

    /// Clears statistics and throttling state.
    package func reset() {
        loop = DetectionLoop(predictor: loop.predictor, configuration: configuration, clock: loop.clock)
    }
}
