import Foundation
import SwingCore
import SwingInference
import SwingMedia
import Testing
@testable import SwingPipeline
import SwingTestSupport
import SwingVision

/// The frame pool `detect` runs a video through: results in submission order whatever order the workers
/// finish in, never more than `workers + 1` items held, errors in order, and `detect` giving the same frames
/// with one worker or several.
@Suite struct OrderedWorkersTests {
    /// Counts items held at once (submitted, not yet handed back).
    final class Gauge: @unchecked Sendable {
        private let lock = NSLock()
        private var running = 0, most = 0
        func enter() { lock.lock(); running += 1; most = max(most, running); lock.unlock() }
        func leave() { lock.lock(); running -= 1; lock.unlock() }
        var peak: Int { lock.lock(); defer { lock.unlock() }; return most }
    }

    @Test(arguments: [1, 2, 3, 5]) func resultsComeBackInOrderWhateverOrderTheyFinishIn(workers: Int) throws {
        var rng = SplitMix64(seed: UInt64(workers))
        let delays = (0..<200).map { _ in rng.uniform(0, 0.002) }
        let gauge = Gauge()
        let pool = OrderedWorkers<Int, Int>(workers: workers) { item, worker in
            #expect((0..<workers).contains(worker))
            gauge.enter(); defer { gauge.leave() }
            Thread.sleep(forTimeInterval: delays[item])
            return item * 10
        }
        defer { pool.close() }
        var out: [Int] = []
        for i in delays.indices {
            pool.submit(i)
            out += try pool.ready()
            // Held = submitted and not handed back: bounded however fast the caller submits.
            #expect(i + 1 - out.count <= workers + 2)
        }
        out += try pool.finish()
        #expect(out == delays.indices.map { $0 * 10 })
        #expect(gauge.peak <= workers)
    }

    struct Boom: Error, Equatable { var item: Int }

    @Test func theFirstErrorInOrderIsThrownAndTheThreadsStop() throws {
        let pool = OrderedWorkers<Int, Int>(workers: 3) { item, _ in
            // A later item fails first; the earlier failure is the one reported.
            if item == 7 { throw Boom(item: 7) }
            if item == 5 { Thread.sleep(forTimeInterval: 0.05); throw Boom(item: 5) }
            return item
        }
        var out: [Int] = []
        var caught: Boom?
        do {
            for i in 0..<20 { pool.submit(i); out += try pool.ready() }
            out += try pool.finish()
        } catch let e as Boom { caught = e }
        pool.close()
        #expect(caught == Boom(item: 5))
        #expect(out == Array(0..<out.count) && out.count <= 5)
    }

    @Test func detectGivesTheSameFramesWithOneWorkerOrSeveral() throws {
        let dir = try TestFiles.temporaryDirectory("ordered-detect")
        defer { try? FileManager.default.removeItem(at: dir) }
        let model = TestFiles.package("Tests/SwingVisionTests/Fixtures/yolo/tiny26-detect.onnx").path
        func run(_ workers: Int, save: String?) throws -> DetectionDocument {
            var options = SessionOptions()
            options.intraOpThreads = 1   // the same thread count everywhere, so scores are bit-identical
            return try DetectionRun(sourcePath: TestFiles.package("Samples/demo_session.mp4").path, modelPath: model,
                                    options: PredictionOptions(), classFilter: nil, videoStride: 7, savePath: save,
                                    sessionOptions: options, tracker: .init(), workers: workers).run(progress: nil)
        }
        let one = try run(1, save: nil)
        let three = try run(3, save: dir.appendingPathComponent("three.mp4").path)
        #expect(one.results.count > 10)
        #expect(three.results.map(\.frame) == one.results.map(\.frame))
        #expect(three.results.map(\.time) == one.results.map(\.time))
        #expect(three.results.map { $0.detections.map(\.detection) } == one.results.map { $0.detections.map(\.detection) })
        #expect(three.results.map { $0.detections.map(\.trackId) } == one.results.map { $0.detections.map(\.trackId) })
        // The annotated video has one frame per processed frame.
        let written = try VideoFrameReader(path: dir.appendingPathComponent("three.mp4").path)
        var frames = 0
        try written.frames(from: 0, to: 1e9) { _ in frames += 1; return true }
        #expect(frames == one.results.count)
    }
}
