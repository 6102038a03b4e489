import Foundation
import SwingCore

/// Which frames the service runs the model on.
public enum ThrottlePolicy: Sendable, Equatable {
    /// Every submitted frame.
    case everyFrame
    /// The 1st, (n+1)-th, (2n+1)-th … submitted frame (the spec processes every 3rd video frame).
    case everyNthFrame(Int)
    /// At most one frame per `seconds` of clock time (measured from the start of the last processed frame).
    case minimumInterval(Double)
}

/// Live statistics, the numbers the spec's stats view shows.
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
    public init() {}
}

/// One processed frame.
public struct ServiceResult: Sendable, Equatable {
    public var frameIndex: Int
    public var time: Double
    public var detections: [Detection]
    public var timings: StageTimings
    /// Clock time around the `predict` call, ms.
    public var wallMs: Double
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

/// Model-agnostic detection over a stream of frames: throttling, cancellation and live statistics.
public actor DetectionService {
    /// Options.
    public struct Configuration: Sendable, Equatable {
        /// Which frames to process. Default: every 3rd frame, as in the spec.
        public var throttle: ThrottlePolicy = .everyNthFrame(3)
        /// Weight of the newest sample in the latency EMAs, in (0, 1]. Default 0.1.
        public var emaAlpha: Double = 0.1
        public init(throttle: ThrottlePolicy = .everyNthFrame(3), emaAlpha: Double = 0.1) {
            self.throttle = throttle; self.emaAlpha = min(max(emaAlpha, 1e-6), 1)
        }
    }

    private let predictor: any FramePredictor
    private let clock: any ServiceClock
    public let configuration: Configuration
    /// Current statistics.
    public private(set) var statistics = DetectionStatistics()
    private var firstStart: Double?
    private var lastProcessedStart: Double?

    /// Creates a service.
    /// - Parameters:
    ///   - predictor: the model.
    ///   - configuration: throttling and EMA weight.
    ///   - clock: time source (inject a manual clock in tests).
    public init(predictor: any FramePredictor, configuration: Configuration = .init(),
                clock: any ServiceClock = MonotonicClock()) {
        self.predictor = predictor; self.configuration = configuration; self.clock = clock
    }

    /// Offers one frame; runs the model unless throttling skips it.
    /// - Returns: the result, or `nil` when the frame was skipped.
    /// - Throws: the predictor's error (statistics are left as before the frame).
    public func submit(_ frame: ServiceFrame) throws -> ServiceResult? {
        let seen = statistics.framesSeen
        statistics.framesSeen += 1
        let start = clock.now()
        guard shouldProcess(seenBefore: seen, now: start) else {
            statistics.framesSkipped += 1
            return nil
        }
        let prediction = try predictor.predict(frame.image)
        let end = clock.now()
        let wallMs = (end - start) * 1000
        record(prediction, wallMs: wallMs, start: start, end: end)
        return ServiceResult(frameIndex: frame.frameIndex, time: frame.time, detections: prediction.detections,
                             timings: prediction.timings, wallMs: wallMs)
    }

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
            if let r = try submit(frame) { onResult(r) }
        }
        return statistics
    }

    /// Clears statistics and throttling state.
    public func reset() {
        statistics = DetectionStatistics(); firstStart = nil; lastProcessedStart = nil
    }

    private func shouldProcess(seenBefore: Int, now: Double) -> Bool {
        switch configuration.throttle {
        case .everyFrame: return true
        case .everyNthFrame(let n): return seenBefore % max(n, 1) == 0
        case .minimumInterval(let s):
            guard let last = lastProcessedStart else { return true }
            return now - last >= s
        }
    }

    private func record(_ p: FramePrediction, wallMs: Double, start: Double, end: Double) {
        let a = configuration.emaAlpha
        let first = statistics.framesProcessed == 0
        func ema(_ old: Double, _ x: Double) -> Double { first ? x : a * x + (1 - a) * old }
        statistics.preMsEMA = ema(statistics.preMsEMA, p.timings.preMs)
        statistics.inferenceMsEMA = ema(statistics.inferenceMsEMA, p.timings.inferenceMs)
        statistics.postMsEMA = ema(statistics.postMsEMA, p.timings.postMs)
        statistics.wallMsEMA = ema(statistics.wallMsEMA, wallMs)
        statistics.framesProcessed += 1
        statistics.lastDetectionCount = p.detections.count
        statistics.detectionCount += p.detections.count
        if firstStart == nil { firstStart = start }
        lastProcessedStart = start
        let elapsed = end - (firstStart ?? start)
        statistics.fps = elapsed > 0 ? Double(statistics.framesProcessed) / elapsed : 0
    }
}
