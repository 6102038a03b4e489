import Dispatch
import Foundation
import SwingCore
import SwingMedia
import SwingPose

/// Stage 3 of the analysis: decodes the swing windows and runs the pose tracker on the frames the
/// ``PoseSchedule`` selects, with one worker per estimator pulling windows from a shared queue.
///
/// Each worker owns a decoder and a tracker, so windows are independent: the tracker restarts (runs
/// the person detector) at the start of every window, exactly as in the serial pipeline. The calling
/// thread is one of the workers; it also watches Swift task cancellation and tells the others.
struct WindowPoser: Sendable {
    let path: String
    let targetSize: (Int, Int)?
    /// One per worker; each should use single-threaded ONNX Runtime sessions when there are several.
    let estimators: [PoseEstimator]
    let schedule: PoseSchedule
    /// The file's frame times, shared by the workers' readers (frame numbers after a seek).
    let timeline: FrameTimeline
    /// Let the decoder drop frames the schedule does not pose (``PoseSampling/skipUnposedFrames``).
    var skipUnposed = false
    /// Skip the decoder's deblocking filter (``PoseSampling/skipDeblocking``).
    var skipDeblocking = false

    struct Output {
        /// Posed frames of all windows, in time order.
        var frames: [WindowFrame]
        var detectorRuns: Int
        /// Workers that ran (at most one per window).
        var workers: Int
        /// Decode, conversion, inference and pre/post-processing time, summed over the workers.
        var times: PoseStageTimes
    }

    /// Poses every window in `segments` (sorted, non-overlapping).
    /// - Throws: the first decoding / inference error of any worker, `PipelineError.cancelled` on cancellation.
    func run(segments: [ClosedRange<Double>], progress: AnalysisProgress?) throws -> Output {
        let state = State(segmentCount: segments.count, expected: expectedFrames(segments))
        let workers = max(1, min(estimators.count, segments.count))
        let group = DispatchGroup()
        for w in 1..<max(workers, 1) {
            let estimator = estimators[w]
            DispatchQueue.global(qos: .userInitiated).async(group: group) {
                work(estimator: estimator, parallel: true, segments: segments, state: state, progress: progress)
            }
        }
        work(estimator: estimators[0], parallel: workers > 1, segments: segments, state: state, progress: progress,
             watchCancellation: true)
        while group.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if Task.isCancelled { state.stop() }
        }
        if Task.isCancelled { state.stop() }
        var output = try state.output()
        output.workers = workers
        return output
    }

    private func work(estimator: PoseEstimator, parallel: Bool, segments: [ClosedRange<Double>], state: State,
                      progress: AnalysisProgress?, watchCancellation: Bool = false) {
        do {
            let reader = try VideoFrameReader(path: path, targetSize: targetSize, decoderThreads: parallel ? 1 : 0,
                                              timeline: timeline)
            if skipUnposed { reader.wanted = { [schedule] t, index in schedule.wants(time: t, index: index) } }
            reader.skipDeblocking = skipDeblocking
            let tracker = PoseTracker(estimator: estimator)
            var tracking = StageTime(), inference = StageTime()
            defer {
                var times = PoseStageTimes()
                times.framesDecoded = reader.framesDecoded
                times.decode = reader.decodeTime
                times.conversion = reader.conversionTime
                times.inference = inference + tracker.inferenceTime
                times.prePost = tracking - times.inference
                state.add(times)
            }
            while let i = state.takeSegment() {
                inference += tracker.inferenceTime
                tracker.reset()
                var frames: [WindowFrame] = []
                try reader.frames(from: segments[i].lowerBound, to: segments[i].upperBound,
                                  where: { t, index in schedule.wants(time: t, index: index) }) { frame in
                    if watchCancellation && Task.isCancelled { state.stop() }
                    if state.isStopped { return false }
                    let pose = try tracking.measure { try tracker.process(frame: frame.image, time: frame.time, index: frame.index) }
                    frames.append(WindowFrame(index: frame.index, time: frame.time, pose: pose))
                    progress?(.runningPose, state.framePosed())
                    return true
                }
                state.finish(segment: i, frames: frames, detectorRuns: tracker.detectorRuns)
            }
        } catch {
            state.fail(error)
        }
    }

    /// How many frames the schedule will pose (for the progress fraction).
    private func expectedFrames(_ segments: [ClosedRange<Double>]) -> Int {
        var n = 0
        for s in segments {
            for (index, t) in timeline.times.enumerated() where s.contains(t) && schedule.wants(time: t, index: index) {
                n += 1
            }
        }
        return max(n, 1)
    }

    /// What the workers share, behind one lock.
    private final class State: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private var results: [[WindowFrame]?]
        private var detectorRuns = 0
        private var posed = 0
        private var times = PoseStageTimes()
        private let expected: Int
        private var error: (any Error)?
        private var stopped = false

        init(segmentCount: Int, expected: Int) {
            results = Array(repeating: nil, count: segmentCount)
            self.expected = expected
        }

        var isStopped: Bool { lock.withLock { stopped } }
        func stop() { lock.withLock { stopped = true } }

        func takeSegment() -> Int? {
            lock.withLock {
                guard !stopped, next < results.count else { return nil }
                defer { next += 1 }
                return next
            }
        }

        /// Counts a posed frame; returns the stage's progress fraction.
        func framePosed() -> Double {
            lock.withLock {
                posed += 1
                return min(1, Double(posed) / Double(expected))
            }
        }

        func finish(segment: Int, frames: [WindowFrame], detectorRuns runs: Int) {
            lock.withLock {
                results[segment] = frames
                detectorRuns += runs
            }
        }

        func add(_ t: PoseStageTimes) {
            lock.withLock { times = times + t }
        }

        func fail(_ e: any Error) {
            lock.withLock {
                if error == nil { error = e }
                stopped = true
            }
        }

        func output() throws -> Output {
            try lock.withLock {
                if let error { throw error }
                if stopped { throw PipelineError.cancelled() }
                // Adjacent pieces of a split window share their boundary; a frame exactly on it was
                // posed by both, and the earlier piece's pose is kept.
                var frames: [WindowFrame] = []
                for f in results.compactMap({ $0 }).joined() where frames.last.map({ f.time > $0.time }) ?? true { frames.append(f) }
                return Output(frames: frames, detectorRuns: detectorRuns, workers: 1, times: times)
            }
        }
    }
}
