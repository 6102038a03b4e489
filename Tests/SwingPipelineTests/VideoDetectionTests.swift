import Foundation
import SwingCore
import SwingMedia
import Testing
@testable import SwingPipeline
import SwingTestSupport
import SwingVision

/// The one detection loop over a video (`detect` on a video, `analyze --detector`): which frames reach the
/// model, what the statistics say, and that a stop or a cancel ends it.
@Suite struct VideoDetectionTests {
    static let sample = TestFiles.package("Samples/demo_session.mp4").path

    /// Counts the pictures it is given and finds one thing in each.
    final class CountingModel: FramePredictor, @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [Int] = []
        var sizes: [Int] { lock.lock(); defer { lock.unlock() }; return seen }
        func predict(_ image: ImageBuffer) throws -> FramePrediction {
            lock.lock(); seen.append(image.width); lock.unlock()
            return FramePrediction(detections: [Detection(classId: 0, label: "ball", confidence: 0.9, box: Rect(x1: 0, y1: 0, x2: 1, y2: 1))],
                                   timings: .init(preMs: 1, inferenceMs: 2, postMs: 3))
        }
    }

    @Test func theStrideCountsFromEachRangesFirstFrameAndOnlyThoseFramesReachTheModel() throws {
        let reader = try VideoFrameReader(path: Self.sample)
        let fps = reader.info.frameRate
        let model = CountingModel()
        var loop = DetectionLoop(predictor: model, configuration: .init(throttle: .everyNthFrame(3)))
        var delivered: [Int] = []
        let ranges = [0.0...1.0, 2.05...3.05]
        let finished = try loop.run(over: reader, ranges: ranges) { frame, result in
            delivered.append(frame.index)
            #expect(result.frameIndex == frame.index && result.detections.count == 1)
            return true
        }
        #expect(finished)
        // Every frame inside each range, numbered from the start of the file; each range starts a new count.
        let first = (0...Int(fps)).map { $0 }, second = (Int((2.05 * fps).rounded(.up))...Int(3.05 * fps)).map { $0 }
        let expected = first.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
            + second.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        #expect(delivered == expected, "fps \(fps)")
        #expect(model.sizes.count == expected.count, "the model saw frames the stride skipped")
        let stats = loop.statistics
        #expect(stats.framesSeen == first.count + second.count && stats.framesProcessed == expected.count)
        #expect(stats.framesSkipped == stats.framesSeen - stats.framesProcessed && stats.detectionCount == expected.count)
        #expect(stats.totalTimings.inferenceMs == 2 * Double(expected.count))
    }

    @Test func theBodyOrACancelStopsTheLoop() async throws {
        var loop = DetectionLoop(predictor: CountingModel(), configuration: .init(throttle: .everyFrame))
        var seen = 0
        let reader = try VideoFrameReader(path: Self.sample)
        let finished = try loop.run(over: reader, ranges: [0...5, 6...8]) { _, _ in seen += 1; return seen < 4 }
        #expect(!finished && seen == 4 && loop.statistics.framesProcessed == 4)

        let cancelled = Task.detached { () throws -> (Bool, Int) in
            withUnsafeCurrentTask { $0?.cancel() }
            var loop = DetectionLoop(predictor: CountingModel(), configuration: .init(throttle: .everyFrame))
            let finished = try loop.run(over: try VideoFrameReader(path: Self.sample), ranges: [0...5]) { _, _ in true }
            return (finished, loop.statistics.framesProcessed)
        }
        let (done, processed) = try await cancelled.value
        #expect(!done && processed == 0)
    }
}
