import Dispatch
import Foundation
import SwingBiomech
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
    /// Whom each window's tracker follows first (``AnalysisOptions/player``).
    var player = PersonChoice.largest
    /// With parameters, a window whose first person does not swing around its contacts is posed again following
    /// each other person in view of about their size (``alternatives(_:)``), and the one who swings hardest is
    /// kept: the hitter, not the partner waiting nearer the camera. `nil` (the player said where they are) poses
    /// each window once.
    var chooseBySwing: BiomechParameters?

    /// Heard times (media clock) of the contacts loud enough to be the player's: only their pieces look for another
    /// person when the first does not swing (a quiet contact without the player swinging is the opponent's, and
    /// posing the opponent would count it).
    var searchNear: [Double] = []
    /// Where a piece's person is judged on whether they swing: `nil`, the schedule's spans (what is posed at full
    /// rate); given, these instants while the schedule still poses the delay ranges around them.
    var judgeAt: [ClosedRange<Double>]? = nil
    /// A piece holds its contacts' instants; their heard times come up to this much later.
    static let searchAfter = 0.35

    /// The part of `range` whose frames tell whether someone swings at `spans`: the swing check's reach around them.
    static func core(of spans: [ClosedRange<Double>], in range: ClosedRange<Double>, parameters p: BiomechParameters) -> ClosedRange<Double>? {
        guard let lo = spans.map(\.lowerBound).min(), let hi = spans.map(\.upperBound).max() else { return nil }
        let k = max(1, p.slowMotion), margin = (p.swingWindow + p.swingSpeedSpan + p.swingSpeedAveraging) * k
        let a = max(range.lowerBound, lo - margin), b = min(range.upperBound, hi + margin)
        return a < b ? a...b : nil
    }

    /// Keep each piece's ``FirstPose`` in the output (the pieces posed while measuring the sound delay, which may be
    /// looked at again at the instants).
    var recordFirstPoses = false
    /// Pieces whose first person was posed already on the frames this schedule picks: the search for who hits
    /// starts from these instead of decoding and posing the piece again.
    var reuse: [ClosedRange<Double>: FirstPose] = [:]

    /// A piece as its first person was posed: what looking at it again, for whoever swings at other instants,
    /// starts from.
    struct FirstPose: Sendable {
        var frames: [WindowFrame]
        var followed: PersonCandidate?
        /// The people in view where the first person was found, when that person is big enough for the whole frame.
        var people: [PersonCandidate]?
        /// The piece's first picture, when the person followed is too small for the whole frame (the search looks
        /// in its tiles).
        var picture: ImageBuffer?
        var largestTooSmall: Double?

        /// Nobody else could be posed through the piece: nobody followed, or nobody of about their size beside them.
        var alone: Bool { followed.map { first in people.map { WindowPoser.alternatives(to: first, among: $0).isEmpty } ?? false } ?? true }
    }

    /// The most picture bytes a worker holds of one piece for a second look at it (``PieceFrames``).
    var heldFrameBudget = PieceFrames.defaultBudgetBytes

    /// At most this many people are posed through one window.
    static let maxPeoplePerWindow = 2
    /// Someone much smaller than the first person is at the far end of the court (about five times further away
    /// than the near baseline), not the player.
    static let minAlternativeSize = 0.5

    /// The smallest person measured by default, as a fraction of the picture's shorter side: 80 px in 720p, so
    /// that players of 100 px and more are measured though the detector's guess of a size is ±20 % off. Smaller,
    /// BlazePose's landmarks are a few pixels apart and the wrist's path is noise.
    static let minimumPersonFraction = 80.0 / 720
    /// The smallest person measured here (``minimumPersonFraction`` unless a test asks otherwise).
    var minimumPerson = minimumPersonFraction

    struct Output {
        /// Posed frames of all windows, in time order.
        var frames: [WindowFrame]
        var detectorRuns: Int
        /// The biggest person seen but too small to measure (body size, pixels of the posed picture); nil if none.
        var largestTooSmall: Double? = nil
        /// How each piece's first person was posed, with ``recordFirstPoses`` (pieces given in ``reuse`` too).
        var firstPoses: [ClosedRange<Double>: FirstPose] = [:]
        /// Workers that ran (at most one per window).
        var workers: Int
        /// Decode, conversion, inference and pre/post-processing time, summed over the workers.
        var times: PoseStageTimes
    }

    /// Poses every window in `segments` (sorted, non-overlapping).
    /// - Throws: the first decoding / inference error of any worker, `PipelineError.cancelled` on cancellation.
    func run(segments: [ClosedRange<Double>], progress: AnalysisProgress?) throws -> Output {
        try Self.run([(self, segments)], progress: progress)[0]
    }

    /// Poses several passes' pieces with one set of workers pulling from one queue (the first pass's pieces first),
    /// each piece with its own pass's schedule and choices, so that a pass with few pieces does not leave cores idle
    /// while another waits for it (the last pass's pieces and the measuring passes' pieces looked at again). The
    /// passes share the first one's file, estimators, timeline, frame size and decoder settings.
    /// - Returns: One output per pass; the stage's times are all in the first (the workers' decoders serve every pass).
    /// - Throws: the first decoding / inference error of any worker, `PipelineError.cancelled` on cancellation.
    static func run(_ passes: [(poser: WindowPoser, segments: [ClosedRange<Double>])], progress: AnalysisProgress?) throws -> [Output] {
        guard let first = passes.first?.poser else { return [] }
        let items = passes.indices.flatMap { p in passes[p].segments.indices.map { Item(pass: p, range: passes[p].segments[$0]) } }
        let state = State(items: items, passes: passes.count,
                          expected: passes.reduce(0) { $0 + $1.poser.expectedFrames($1.segments) })
        let posers = passes.map(\.poser)
        let workers = max(1, min(first.estimators.count, items.count))
        let group = DispatchGroup()
        for w in 1..<max(workers, 1) {
            let estimator = first.estimators[w]
            DispatchQueue.global(qos: .userInitiated).async(group: group) {
                first.work(estimator: estimator, parallel: true, passes: posers, items: items, state: state, progress: progress)
            }
        }
        first.work(estimator: first.estimators[0], parallel: workers > 1, passes: posers, items: items, state: state, progress: progress,
                   watchCancellation: true)
        while group.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if Cancellation.isRequested { state.stop() }
        }
        if Cancellation.isRequested { state.stop() }
        return try state.outputs().map { output in
            var output = output
            output.workers = workers
            return output
        }
    }

    /// One piece to pose: its pass and its time range.
    private struct Item: Sendable {
        let pass: Int
        let range: ClosedRange<Double>
    }

    private func work(estimator: PoseEstimator, parallel: Bool, passes: [WindowPoser], items: [Item], state: State,
                      progress: AnalysisProgress?, watchCancellation: Bool = false) {
        do {
            let reader = try VideoFrameReader(path: path, targetSize: targetSize, decoderThreads: parallel ? 1 : 0,
                                              timeline: timeline)
            reader.skipDeblocking = skipDeblocking
            let tracker = PoseTracker(estimator: estimator)
            tracker.findSmallPeople = true
            tracker.uprightOnly = true
            var tracking = StageTime(), inference = StageTime()
            // The piece's pass's schedule (set per piece below).
            var schedule = self.schedule
            defer {
                var times = PoseStageTimes()
                times.framesDecoded = reader.framesDecoded
                times.decode = reader.decodeTime
                times.conversion = reader.conversionTime
                times.inference = inference + tracker.inferenceTime
                times.prePost = tracking - times.inference
                state.add(times)
            }
            // One piece (or part of it) posed following `choice`: its frames, its first frame's picture, and whom the
            // tracker followed. The frames come from `held` when it has them all, else from the decoder; `keep`
            // holds the decoded ones for the piece's next look.
            func pose(_ range: ClosedRange<Double>, choice: PersonChoice, counted: Bool, held: PieceFrames? = nil,
                      keep: inout PieceFrames?) throws -> (frames: [WindowFrame], first: ImageBuffer?, followed: PersonCandidate?) {
                inference += tracker.inferenceTime
                tracker.reset()
                tracker.choice = choice
                var frames: [WindowFrame] = []
                var first: ImageBuffer?
                func take(_ frame: VideoFrame) throws -> Bool {
                    if watchCancellation && Cancellation.isRequested { state.stop() }
                    if state.isStopped { return false }
                    if first == nil { first = frame.image }
                    let pose = try tracking.measure { try tracker.process(frame: frame.image, time: frame.time, index: frame.index) }
                    frames.append(WindowFrame(index: frame.index, time: frame.time, pose: pose))
                    if counted { progress?(.runningPose, state.framePosed()) }
                    return true
                }
                if let kept = held?.frames(in: range) {
                    for frame in kept { guard try take(frame) else { break } }
                } else {
                    try reader.frames(from: range.lowerBound, to: range.upperBound,
                                      where: { t, index in schedule.wants(time: t, index: index) }) { frame in
                        keep?.keep(frame)
                        return try take(frame)
                    }
                    if !state.isStopped { keep?.finish() }
                }
                return (frames, first, tracker.followed)
            }
            func pose(_ range: ClosedRange<Double>, choice: PersonChoice, counted: Bool, held: PieceFrames? = nil) throws
                -> (frames: [WindowFrame], first: ImageBuffer?, followed: PersonCandidate?) {
                var none: PieceFrames?
                return try pose(range, choice: choice, counted: counted, held: held, keep: &none)
            }
            while let i = state.takeItem() {
                let range = items[i].range, pass = passes[items[i].pass]
                schedule = pass.schedule
                reader.wanted = pass.skipUnposed ? { [schedule] t, index in schedule.wants(time: t, index: index) } : nil
                tracker.minimumPersonFraction = pass.minimumPerson
                let chooseBySwing = pass.chooseBySwing, reuse = pass.reuse, player = pass.player, judgeAt = pass.judgeAt
                var runs = 0
                let start: FirstPose
                // Whether the hitter may be looked for among the others in view through this piece (below).
                let searched = chooseBySwing != nil
                    && pass.searchNear.contains(where: { $0 >= range.lowerBound && $0 <= range.upperBound + Self.searchAfter })
                var held: PieceFrames? = searched && reuse[range] == nil
                    ? PieceFrames(range: range, expectedFrames: pass.expectedFrames([range]), budgetBytes: pass.heldFrameBudget) : nil
                if let prior = reuse[range] {
                    start = prior
                } else {
                    let (frames, firstImage, followed) = try pose(range, choice: player, counted: true, keep: &held)
                    var big: Bool?
                    if let followed, let firstImage { big = PoseTracker.seenWhole(size: followed.size, in: firstImage) }
                    start = FirstPose(frames: frames, followed: followed, people: big == true ? tracker.peopleAtStart : nil,
                                      picture: big == false ? firstImage : nil, largestTooSmall: tracker.largestTooSmall)
                    runs = tracker.detectorRuns
                }
                var frames = start.frames, small = start.largestTooSmall
                // The person followed does not swing around a contact loud enough to be the player's: pose the others
                // in view through the contact's core, and the whole piece again for one who swings, hardest first
                // (someone else who does not swing either is no better a measurement, and posing the piece again
                // for them cost the walkers of the phone bench a fifth of the pose stage).
                if let biomech = chooseBySwing, let first = start.followed, !start.alone, searched {
                    let spans = (judgeAt ?? schedule.spans).filter { $0.upperBound >= range.lowerBound && $0.lowerBound <= range.upperBound }
                    var best = Self.swingEvidence(frames, spans: spans, parameters: biomech)
                    if (best ?? 0) < biomech.swingMinSpeedCmS, let core = Self.core(of: spans, in: range, parameters: biomech) {
                        // The whole frame's people when the first person is big enough to be seen there, else its tiles'.
                        var people = start.people ?? []
                        if let picture = start.picture {
                            people = tracker.followable(try tracking.measure { try estimator.detectPeople(in: picture, tiles: true) }, in: picture)
                            runs += 1
                        }
                        var winner: PersonCandidate?
                        for other in Self.alternatives(to: first, among: people) {
                            let again = try pose(core, choice: .like(position: other.position, size: other.sizeFraction), counted: false,
                                                 held: held)
                            runs += tracker.detectorRuns
                            let evidence = Self.swingEvidence(again.frames, spans: spans, parameters: biomech)
                            if let evidence, evidence >= biomech.swingMinSpeedCmS, evidence > (best ?? -1) { winner = other; best = evidence }
                        }
                        if let winner {
                            frames = try pose(range, choice: .like(position: winner.position, size: winner.sizeFraction), counted: false,
                                              held: held).frames
                            runs += tracker.detectorRuns; small = tracker.largestTooSmall
                        }
                    }
                }
                state.finish(item: i, frames: frames, detectorRuns: runs, tooSmall: small,
                             first: pass.recordFirstPoses ? start : nil)
            }
        } catch {
            state.fail(error)
        }
    }

    /// The other people worth posing through a window whose first person did not swing: not that person (nor a
    /// second view of their body, ``PersonCandidate/sameBody``), at least ``minAlternativeSize`` of their size, and
    /// with their hips in the picture when the first person's are (``PersonCandidate/hipsInFrame``: every measure is
    /// taken from the pelvis, so a camera operator cut by the bottom edge below the hips could not be measured if
    /// they swung; on the broadcast clips such searches were an eighth of the analyses' time), biggest first, at
    /// most ``maxPeoplePerWindow`` in all.
    static func alternatives(to first: PersonCandidate, among people: [PersonCandidate]) -> [PersonCandidate] {
        Array(people.filter { !$0.isSameBody(as: first) && $0.size >= minAlternativeSize * first.size && ($0.hipsInFrame || !first.hipsInFrame) }
            .sorted { $0.size > $1.size }.prefix(maxPeoplePerWindow - 1))
    }

    /// The swing evidence of one posed piece (``BiomechAnalyzer/swingEvidence(track:spans:parameters:)``).
    static func swingEvidence(_ frames: [WindowFrame], spans: [ClosedRange<Double>], parameters: BiomechParameters) -> Double? {
        guard let track = try? PoseTrack(samples: SessionAnalyzer.dedupedSamples(frames)) else { return nil }
        return BiomechAnalyzer.swingEvidence(track: track, spans: spans, parameters: parameters)
    }

    /// How many frames the schedule will pose in `segments` (for the progress fraction, and a piece's held frames),
    /// at least 1; each segment's frames found by binary search, not by walking the whole file's.
    private func expectedFrames(_ segments: [ClosedRange<Double>]) -> Int {
        let times = timeline.times
        var n = 0
        for s in segments {
            var index = timeline.firstIndex(atOrAfter: s.lowerBound)
            while index < times.count, times[index] <= s.upperBound {
                if schedule.wants(time: times[index], index: index) { n += 1 }
                index += 1
            }
        }
        return max(n, 1)
    }

    /// What the workers share, behind one lock.
    private final class State: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private let items: [Item]
        private var results: [[WindowFrame]?]
        private var perPass: [Output]
        private var posed = 0
        private var times = PoseStageTimes()
        private let expected: Int
        private var error: (any Error)?
        private var stopped = false

        init(items: [Item], passes: Int, expected: Int) {
            self.items = items
            results = Array(repeating: nil, count: items.count)
            perPass = Array(repeating: Output(frames: [], detectorRuns: 0, workers: 1, times: PoseStageTimes()), count: passes)
            self.expected = expected
        }

        var isStopped: Bool { lock.withLock { stopped } }
        func stop() { lock.withLock { stopped = true } }

        func takeItem() -> Int? {
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

        func finish(item: Int, frames: [WindowFrame], detectorRuns runs: Int, tooSmall small: Double?, first: FirstPose?) {
            lock.withLock {
                results[item] = frames
                let pass = items[item].pass
                if let first { perPass[pass].firstPoses[items[item].range] = first }
                perPass[pass].detectorRuns += runs
                if let small { perPass[pass].largestTooSmall = max(perPass[pass].largestTooSmall ?? 0, small) }
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

        /// Each pass's output, the stage's times in the first.
        func outputs() throws -> [Output] {
            try lock.withLock {
                if let error { throw error }
                if stopped { throw PipelineError.cancelled() }
                var done = perPass
                for pass in done.indices {
                    // Adjacent pieces of a split window share their boundary; a frame exactly on it was
                    // posed by both, and the earlier piece's pose is kept.
                    var frames: [WindowFrame] = []
                    let posed = items.indices.filter { items[$0].pass == pass }.compactMap { results[$0] }
                    for f in posed.joined() where frames.last.map({ f.time > $0.time }) ?? true { frames.append(f) }
                    done[pass].frames = frames
                }
                if !done.isEmpty { done[0].times = times }
                return done
            }
        }
    }
}
