import Foundation
import SwingCore
import Testing
@testable import SwingVision

/// A clock the test moves by hand.
final class ManualClock: ServiceClock, @unchecked Sendable {
    private let lock = NSLock()
    private var t: Double = 0
    func now() -> Double { lock.lock(); defer { lock.unlock() }; return t }
    func advance(_ s: Double) { lock.lock(); t += s; lock.unlock() }
}

/// Returns scripted predictions and spends their total time on the manual clock, like a real model.
struct ScriptedPredictor: FramePredictor {
    let clock: ManualClock
    let script: [FramePrediction]
    let counter = Counter()
    struct Failure: Error {}
    final class Counter: @unchecked Sendable {
        private let lock = NSLock(); private var n = 0
        func next() -> Int { lock.lock(); defer { n += 1; lock.unlock() }; return n }
    }
    func predict(_ image: ImageBuffer) throws -> FramePrediction {
        let p = script[counter.next() % script.count]
        if p.timings.preMs < 0 { throw Failure() }
        clock.advance(p.timings.totalMs / 1000)
        return p
    }
}

@Suite struct ServiceTests {
    let image = ImageBuffer(width: 4, height: 4)
    func frame(_ i: Int) -> ServiceFrame { ServiceFrame(image: image, frameIndex: i, time: Double(i) / 30) }
    func dets(_ n: Int) -> [Detection] {
        (0..<n).map { _ in Detection(classId: 0, label: "x", confidence: 0.9, box: Rect(x1: 0, y1: 0, x2: 1, y2: 1)) }
    }

    @Test func everyNthFrameProcessesTheFirstOfEachGroup() async throws {
        let clock = ManualClock()
        let p = ScriptedPredictor(clock: clock, script: [FramePrediction(detections: dets(1), timings: .init(preMs: 1, inferenceMs: 2, postMs: 1))])
        let s = DetectionService(predictor: p, configuration: .init(throttle: .everyNthFrame(3)), clock: clock)
        var processed: [Int] = []
        for i in 0..<10 { if let r = try await s.submit(frame(i)) { processed.append(r.frameIndex) } }
        #expect(processed == [0, 3, 6, 9])
        let st = await s.statistics
        #expect(st.framesSeen == 10 && st.framesProcessed == 4 && st.framesSkipped == 6)
    }

    @Test func minimumIntervalUsesTheInjectedClock() async throws {
        let clock = ManualClock()
        let p = ScriptedPredictor(clock: clock, script: [FramePrediction(detections: [], timings: .init(preMs: 0, inferenceMs: 0, postMs: 0))])
        let s = DetectionService(predictor: p, configuration: .init(throttle: .minimumInterval(0.125)), clock: clock)
        var processed: [Int] = []
        for i in 0..<9 {                       // frames at t = 0, 1/16, 2/16 … (exact in binary)
            if let r = try await s.submit(frame(i)) { processed.append(r.frameIndex) }
            clock.advance(0.0625)
        }
        // 0.125 s after the last processed start is allowed (inclusive).
        #expect(processed == [0, 2, 4, 6, 8])
    }

    @Test func statisticsMatchTheMeasuredTimings() async throws {
        let clock = ManualClock()
        let script = [
            FramePrediction(detections: dets(2), timings: .init(preMs: 2, inferenceMs: 40, postMs: 8)),
            FramePrediction(detections: dets(5), timings: .init(preMs: 4, inferenceMs: 20, postMs: 1)),
            FramePrediction(detections: dets(0), timings: .init(preMs: 1, inferenceMs: 60, postMs: 4)),
        ]
        let p = ScriptedPredictor(clock: clock, script: script)
        let alpha = 0.5
        let s = DetectionService(predictor: p, configuration: .init(throttle: .everyFrame, emaAlpha: alpha), clock: clock)
        for i in 0..<3 { _ = try await s.submit(frame(i)) }
        let st = await s.statistics
        func ema(_ xs: [Double]) -> Double { xs.dropFirst().reduce(xs[0]) { alpha * $1 + (1 - alpha) * $0 } }
        let tol = 1e-9     // wall time goes through seconds and back: a few ulps of 0.1 s
        #expect(abs(st.preMsEMA - ema([2, 4, 1])) < tol)
        #expect(abs(st.inferenceMsEMA - ema([40, 20, 60])) < tol)
        #expect(abs(st.postMsEMA - ema([8, 1, 4])) < tol)
        #expect(abs(st.wallMsEMA - ema([50, 25, 65])) < tol)
        #expect(st.detectionCount == 7 && st.lastDetectionCount == 0)
        // 3 frames in 50 + 25 + 65 = 140 ms of clock time.
        #expect(abs(st.fps - 3 / 0.140) < 1e-9)
    }

    @Test func runStopsWhenCancelled() async throws {
        let clock = ManualClock()
        let p = ScriptedPredictor(clock: clock, script: [FramePrediction(detections: dets(1), timings: .init(preMs: 1, inferenceMs: 1, postMs: 1))])
        let s = DetectionService(predictor: p, configuration: .init(throttle: .everyFrame), clock: clock)
        let frames = AsyncStream<ServiceFrame> { c in
            for i in 0..<100 { c.yield(frame(i)) }
            c.finish()
        }
        let seen = ResultLog()
        // The consumer cancels its own task after frame 4 (as a UI would on "stop").
        let task = Task {
            try await s.run(frames) { r in
                seen.add(r.frameIndex)
                if r.frameIndex == 4 { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
        let outcome = await task.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(seen.all == [0, 1, 2, 3, 4])
        #expect(await s.statistics.framesProcessed == 5)
    }

    @Test func predictorErrorsPropagateWithoutCountingTheFrame() async throws {
        let clock = ManualClock()
        let p = ScriptedPredictor(clock: clock, script: [FramePrediction(detections: [], timings: .init(preMs: -1, inferenceMs: 0, postMs: 0))])
        let s = DetectionService(predictor: p, configuration: .init(throttle: .everyFrame), clock: clock)
        await #expect(throws: ScriptedPredictor.Failure.self) { try await s.submit(frame(0)) }
        #expect(await s.statistics.framesProcessed == 0)
    }
}

final class ResultLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Int] = []
    func add(_ i: Int) { lock.lock(); items.append(i); lock.unlock() }
    var all: [Int] { lock.lock(); defer { lock.unlock() }; return items }
}
