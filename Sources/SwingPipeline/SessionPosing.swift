import SwingBiomech
import SwingCore
import SwingMedia
import SwingPose

/// Stage 3 of ``SessionAnalyzer``: the swing windows posed, in passes when the sound delay is to be measured.
///
/// Measuring the delay needs each hit's delay range posed frame by frame before its heard time
/// (``PoseSchedule/coreBefore``, 0.3 s): on every hit that is about a fifth of a window more. So the loudest
/// hits — the player's, ``BiomechAnalyzer/soundDelayCandidates(_:parameters:)`` — are posed that way first, a
/// few at a time (``BiomechParameters/soundDelayEvidenceShots``), until enough of them show a swing; then
/// every other contact is posed only around its instant, the heard time less the measured delay. The measuring
/// passes pose their contacts' pieces of one layout, the windows as one pass reaching back on every contact would
/// lay them out, so a piece starts on the same frame whichever batch it is posed in; the last pass poses windows
/// around the other contacts' instants, less what the measuring passes posed, so no frame is posed twice (and
/// those windows do not carry the delay range nobody measures there: on the phone bench file that was a sixth of
/// the frames posed). With a given delay there is one pass, at the instants.
extension SessionAnalyzer {
    /// What stage 3 produced.
    struct PosedSession {
        /// Every pass's frames, in time order.
        var output: WindowPoser.Output
        /// The outer pose grid's step, in frames.
        var outerStep: Int
        /// The delay measured on the first passes' hits; `nil` when it was given.
        var soundDelay: SoundDelay?
        /// What the player should know about whom the windows followed (their mark's moment showed nobody).
        var notes: [String] = []
    }

    /// Poses the windows of `contacts` (heard, media time) inside `clip`.
    func poseSession(path: String, video: VideoStreamInfo, contacts: [ContactEvent], clip: ClosedRange<Double>,
                     target: (width: Int, height: Int)?, progress: AnalysisProgress?) throws -> PosedSession {
        let estimators = try loadEstimators()
        let player = try resolvedPlayer(path: path, maxSide: options.maxPoseImageSide, estimator: estimators[0])
        var poser = try PassPoser(analyzer: self, path: path, video: video, target: target,
                                  estimators: estimators, progress: progress, player: player.choice)
        let quiet = -options.biomech.opponentQuieterDb
        poser.searchNear = contacts.filter { ($0.loudnessDb ?? 0) > quiet }.map(\.time)
        let delay = try posePasses(contacts: contacts, frameRate: video.frameRate, clip: clip, poser: &poser)
        return PosedSession(output: poser.output, outerStep: poser.outerStep, soundDelay: delay,
                            notes: player.note.map { [$0] } ?? [])
    }

    /// The passes: with a given delay one, at the instants; else the sound delay's candidates a batch at a time
    /// (``BiomechParameters/soundDelayEvidenceShots``) with their delay range until a batch's worth of them show
    /// a swing (none in the first batch, or ``maxDelayBatches`` tried, also ends it), then the other contacts at
    /// their instants; last, the first passes' pieces whose loud contact shows no swing at its instant are posed again
    /// (``PassPosing/lookAgain(segments:schedule:judgeAt:)``), since their person was chosen on the whole delay range.
    /// Returns the measured delay, `nil` when it was given.
    func posePasses<Poser: PassPosing>(contacts: [ContactEvent], frameRate: Double, clip: ClosedRange<Double>,
                                       poser: inout Poser) throws -> SoundDelay? {
        let biomech = options.biomech
        if let given = biomech.givenSoundDelay {
            let instants = contacts.map { given.instant(heard: $0.time) }
            let layout = pieces(contactTimes: instants, reachBack: false, clip: clip)
            poser.expect(seconds: layout.reduce(0) { $0 + $1.range.upperBound - $1.range.lowerBound })
            try poser.pose(segments: layout.map(\.range), schedule: schedule(instants, reachBack: false, frameRate: frameRate))
            return nil
        }
        let heard = contacts.map(\.time)
        let layout = pieces(contactTimes: heard, reachBack: true, clip: clip)
        let candidates = BiomechAnalyzer.soundDelayCandidates(contacts, parameters: biomech)
        let batch = max(1, biomech.soundDelayEvidenceShots)
        // The progress total: the first batch's pieces whole, the others without their delay range.
        let reach = PoseSchedule(contactTimes: [], frameRate: frameRate, sampling: options.poseSampling, biomech: biomech,
                                 reachBack: true).coreBefore
        let firstBatch = Set(candidates.prefix(batch).map(\.time))
        poser.expect(seconds: layout.reduce(0) { total, piece in
            total + piece.range.upperBound - piece.range.lowerBound - (piece.contacts.contains(where: firstBatch.contains) ? 0 : reach)
        })
        // Each pass poses its own contacts' pieces; its schedule holds every contact's span, since a span near a
        // split point reaches into the neighbouring piece: the heard times' delay ranges while measuring, then the
        // instants.
        let reachSpans = heard.map { ($0 - reach)...$0 }
        var posed = Set<Int>()   // pieces posed so far
        func pose(pieceOf heardTimes: [Double], spans: [ClosedRange<Double>]) throws {
            let wanted = Set(heardTimes)
            let chosen = layout.indices.filter { !posed.contains($0) && layout[$0].contacts.contains(where: wanted.contains) }
            posed.formUnion(chosen)
            try poser.pose(segments: chosen.map { layout[$0].range },
                           schedule: PoseSchedule(spans: spans, frameRate: frameRate, sampling: options.poseSampling, biomech: biomech),
                           measuring: true)
        }
        var asked: [ContactEvent] = []
        var delay = SoundDelay.none("no heard contact to measure the delay on.")
        // Another batch while fewer than a batch showed a swing, but not when the loudest batch showed none at
        // all (footage without strokes would otherwise pay on every hit), and at most `maxDelayBatches`.
        while asked.count < candidates.count, asked.count < batch * Self.maxDelayBatches {
            let next = Array(candidates[asked.count..<min(asked.count + batch, candidates.count)])
            asked += next
            try pose(pieceOf: next.map(\.time), spans: reachSpans)
            delay = BiomechAnalyzer.measureSoundDelay(track: try poser.track(), contacts: asked, parameters: biomech)
            let used = delay.source == .given ? 0 : delay.shotsUsed ?? 0
            if used == 0 || (delay.source == .measured && used >= batch) { break }
        }
        // The rest around their instants, in windows laid out on the instants (without the delay range the
        // measuring passes reached back over: a fifth of a window less to decode and pose), less what those passes
        // posed.
        let instants = heard.map { delay.instant(heard: $0) }
        let spans = instants.map { $0...$0 }
        let posedWhileMeasuring = posed
        let measuredRanges = posed.sorted().map { layout[$0].range }
        let restInstants = zip(heard, instants).filter { h, _ in !measuredRanges.contains { $0.contains(h) } }.map(\.1)
        // A piece posed while measuring was judged on its delay range, where someone walking can move as fast as a
        // swing: where its loud contact shows no swing at the instant, look again for the hitter there.
        let track = try poser.track()
        let quiet = -biomech.opponentQuieterDb
        let unswung = Set(zip(contacts, instants).filter { contact, instant in
            (contact.loudnessDb ?? 0) > quiet
                && (BiomechAnalyzer.swingEvidence(track: track, spans: [instant...instant], parameters: biomech) ?? .infinity)
                    < biomech.swingMinSpeedCmS
        }.map(\.0.time))
        let again = posedWhileMeasuring.sorted().filter { layout[$0].contacts.contains(where: unswung.contains) }
        // The rest, and beside them those pieces again with the same frames as before (the delay ranges) and the
        // person judged at the instants (decided above on the measuring passes' own frames, so neither waits for
        // the other).
        try poser.pose(segments: pieces(contactTimes: restInstants, reachBack: false, clip: clip, excluding: measuredRanges).map(\.range),
                       schedule: PoseSchedule(spans: spans, frameRate: frameRate, sampling: options.poseSampling, biomech: biomech),
                       lookingAgainAt: again.map { layout[$0].range },
                       againSchedule: PoseSchedule(spans: reachSpans + spans, frameRate: frameRate, sampling: options.poseSampling,
                                                   biomech: biomech),
                       judgeAt: spans)
        return delay
    }

    /// Batches of ``BiomechParameters/soundDelayEvidenceShots`` the delay is measured on at most: a session whose
    /// 12 loudest hits showed fewer than 4 swings would not show a better median on more.
    static let maxDelayBatches = 3

    /// The schedule that poses `contactTimes`' cores at full rate (and their delay range before them, `reachBack`).
    func schedule(_ contactTimes: [Double], reachBack: Bool, frameRate: Double) -> PoseSchedule {
        PoseSchedule(contactTimes: contactTimes, frameRate: frameRate, sampling: options.poseSampling, biomech: options.biomech,
                     reachBack: reachBack)
    }

    /// The swing windows of `contactTimes` inside `clip` (with each one's delay range when `reachBack`; real-time
    /// lengths, so a slow-motion file's are ``BiomechParameters/slowMotion`` times longer on its clock), merged and
    /// cut into the pieces the pose workers share (``pieces(of:contactTimes:)``: split where one pass
    /// reaching back on every contact would split them), each with the contacts it holds. The parts of the windows
    /// inside `excluding` (pieces posed already) are left out.
    func pieces(contactTimes: [Double], reachBack: Bool, clip: ClosedRange<Double>,
                excluding: [ClosedRange<Double>] = []) -> [(range: ClosedRange<Double>, contacts: [Double])] {
        let biomech = options.biomech
        let reach = schedule([], reachBack: reachBack, frameRate: 30).coreBefore
        let windows = Self.subtract(excluding, from: Self.windows(contactTimes: contactTimes, before: biomech.windowBefore * biomech.slowMotion + reach,
                                                                   after: biomech.windowAfter * biomech.slowMotion, clip: clip))
        let sorted = contactTimes.sorted()
        var claimed = 0
        return Self.pieces(of: windows, contactTimes: contactTimes).map { range in
            // Each contact belongs to the first piece holding it (a time on a split point is in both).
            var held: [Double] = []
            while claimed < sorted.count, sorted[claimed] <= range.upperBound {
                if sorted[claimed] >= range.lowerBound { held.append(sorted[claimed]) }
                claimed += 1
            }
            return (range, held)
        }
    }

    /// `ranges` (sorted, disjoint) less every part inside one of `removed`; a piece left touching a removed range
    /// shares its boundary (a frame exactly there was posed with the removed range, and that pose is kept). Nothing
    /// shorter than a microsecond is left.
    static func subtract(_ removed: [ClosedRange<Double>], from ranges: [ClosedRange<Double>]) -> [ClosedRange<Double>] {
        let cuts = removed.sorted { $0.lowerBound < $1.lowerBound }
        var out: [ClosedRange<Double>] = []
        for range in ranges {
            var start = range.lowerBound
            for cut in cuts where cut.upperBound > start && cut.lowerBound < range.upperBound {
                if cut.lowerBound - start > 1e-6 { out.append(start...cut.lowerBound) }
                start = max(start, cut.upperBound)
            }
            if range.upperBound - start > 1e-6 { out.append(start...range.upperBound) }
        }
        return out
    }

    /// Poses passes of pieces of a video and keeps one progress fraction across them.
    struct PassPoser: PassPosing {
        let analyzer: SessionAnalyzer
        let path: String
        let target: (width: Int, height: Int)?
        let estimators: [PoseEstimator]
        let timeline: FrameTimeline
        let progress: AnalysisProgress?
        /// Whom each window follows (``AnalysisOptions/player`` with a mark's moment looked up,
        /// ``SessionAnalyzer/resolvedPlayer(path:maxSide:estimator:)``).
        let player: PersonChoice
        /// Heard times of the contacts loud enough to be the player's (``WindowPoser/searchNear``).
        var searchNear: [Double] = []
        private(set) var output = WindowPoser.Output(frames: [], detectorRuns: 0, workers: 0, times: PoseStageTimes())
        private(set) var outerStep = 1
        /// Seconds of pieces posed so far, and expected in all.
        private var done = 0.0, expected = 1.0
        /// How the measuring passes posed each piece's first person (``WindowPoser/FirstPose``), with the schedule.
        private var firstPoses: [ClosedRange<Double>: (pose: WindowPoser.FirstPose, schedule: PoseSchedule)] = [:]

        init(analyzer: SessionAnalyzer, path: String, video: VideoStreamInfo,
             target: (width: Int, height: Int)?, estimators: [PoseEstimator], progress: AnalysisProgress?,
             player: PersonChoice) throws {
            self.analyzer = analyzer; self.path = path; self.target = target
            self.estimators = estimators; self.progress = progress; self.player = player
            // Frame numbers come from the frames' own timestamps: phones drop and stretch frames.
            timeline = try FrameTimeline(path: path)
            outerStep = analyzer.schedule([], reachBack: false, frameRate: video.frameRate).outerStep
        }

        mutating func expect(seconds: Double) { expected = max(1e-9, seconds) }

        func track() throws -> PoseTrack { try PoseTrack(samples: SessionAnalyzer.dedupedSamples(output.frames)) }

        /// `progress` with the pose stage's fraction mapped onto `start…start + share` of `total` seconds.
        static func scaled(_ progress: AnalysisProgress?, start: Double, share: Double, total: Double) -> AnalysisProgress? {
            guard let progress else { return nil }
            return { stage, fraction in
                let mapped: Double = stage == .runningPose ? min(1, (start + fraction * share) / total) : fraction
                progress(stage, mapped)
            }
        }

        mutating func pose(segments: [ClosedRange<Double>], schedule: PoseSchedule, measuring: Bool) throws {
            try pose(segments: segments, schedule: schedule, judgeAt: nil, measuring: measuring)
        }

        private mutating func pose(segments: [ClosedRange<Double>], schedule: PoseSchedule, judgeAt: [ClosedRange<Double>]?,
                                   measuring: Bool = false, reuse: [ClosedRange<Double>: WindowPoser.FirstPose] = [:]) throws {
            try pose([(poser(schedule: schedule, judgeAt: judgeAt, measuring: measuring, reuse: reuse), segments, schedule)])
        }

        /// Poses each pass's segments with one set of workers (``WindowPoser/run(_:progress:)``), adding their frames in
        /// the order given.
        private mutating func pose(_ passes: [(poser: WindowPoser, segments: [ClosedRange<Double>], schedule: PoseSchedule)]) throws {
            let passes = passes.filter { !$0.segments.isEmpty }
            guard !passes.isEmpty else { return }
            let seconds: Double = passes.flatMap(\.segments).reduce(0.0) { $0 + ($1.upperBound - $1.lowerBound) }
            let scaled = Self.scaled(progress, start: done, share: seconds, total: max(expected, done + seconds))
            let outputs = try WindowPoser.run(passes.map { ($0.poser, $0.segments) }, progress: scaled)
            done += seconds
            for (posed, pass) in zip(outputs, passes) { add(posed, schedule: pass.schedule) }
        }

        /// A pass's ``WindowPoser``.
        private func poser(schedule: PoseSchedule, judgeAt: [ClosedRange<Double>]?, measuring: Bool,
                           reuse: [ClosedRange<Double>: WindowPoser.FirstPose]) -> WindowPoser {
            WindowPoser(path: path, targetSize: target, estimators: estimators, schedule: schedule,
                        timeline: timeline, skipUnposed: analyzer.options.poseSampling.skipUnposedFrames,
                        skipDeblocking: analyzer.options.poseSampling.skipDeblocking,
                        player: player,
                        chooseBySwing: player == .largest ? analyzer.options.biomech : nil,
                        searchNear: searchNear, judgeAt: judgeAt, recordFirstPoses: measuring, reuse: reuse)
        }

        /// Adds a pass's poses to the output.
        private mutating func add(_ posed: WindowPoser.Output, schedule: PoseSchedule) {
            // Pieces are disjoint but for split points, where the earlier pass's pose is kept.
            let tagged = output.frames.map { ($0, 0) } + posed.frames.map { ($0, 1) }
            output.frames = tagged.sorted { ($0.0.time, $0.1) < ($1.0.time, $1.1) }.map(\.0)
            for (range, first) in posed.firstPoses { firstPoses[range] = (first, schedule) }
            output.detectorRuns += posed.detectorRuns
            if let small = posed.largestTooSmall { output.largestTooSmall = max(output.largestTooSmall ?? 0, small) }
            output.workers = max(output.workers, posed.workers)
            output.times = output.times + posed.times
        }

        mutating func lookAgain(segments: [ClosedRange<Double>], schedule: PoseSchedule, judgeAt: [ClosedRange<Double>]) throws {
            try pose(segments: [], schedule: schedule, lookingAgainAt: segments, againSchedule: schedule, judgeAt: judgeAt)
        }

        mutating func pose(segments: [ClosedRange<Double>], schedule: PoseSchedule, lookingAgainAt again: [ClosedRange<Double>],
                           againSchedule: PoseSchedule, judgeAt: [ClosedRange<Double>]) throws {
            let again = player == .largest ? again : []
            // The first person posed already on the frames `againSchedule` picks is not posed again: the search starts
            // there (and a piece where that person was alone keeps its poses without decoding a frame).
            var reuse: [ClosedRange<Double>: WindowPoser.FirstPose] = [:]
            for segment in again {
                guard let before = firstPoses[segment], !timeline.times.indices.contains(where: { i in
                    segment.contains(timeline.times[i]) && before.schedule.wants(time: timeline.times[i], index: i) != againSchedule.wants(time: timeline.times[i], index: i)
                }) else { continue }
                reuse[segment] = before.pose
            }
            output.frames.removeAll { frame in again.contains { $0.contains(frame.time) } }
            // The pieces looked at again first: they are the ones that may search for the hitter.
            try pose([(poser(schedule: againSchedule, judgeAt: judgeAt, measuring: false, reuse: reuse), again, againSchedule),
                      (poser(schedule: schedule, judgeAt: nil, measuring: false, reuse: [:]), segments, schedule)])
        }
    }
}

/// What ``SessionAnalyzer/posePasses(contacts:frameRate:clip:poser:)`` asks of the pose stage (the video's, or a
/// test's generated track).
protocol PassPosing {
    /// Sets the progress total, seconds of pieces.
    mutating func expect(seconds: Double)
    /// Poses the frames of `segments` that `schedule` selects; `measuring`: the pieces the sound delay is measured
    /// on, which ``lookAgain(segments:schedule:judgeAt:)`` may be asked about.
    mutating func pose(segments: [ClosedRange<Double>], schedule: PoseSchedule, measuring: Bool) throws
    /// Every frame posed so far.
    func track() throws -> PoseTrack
    /// Poses `segments` again with `schedule`, in place of their frames posed so far, looking for whoever swings at
    /// `judgeAt` (``WindowPoser/chooseBySwing``, ``WindowPoser/judgeAt``) near their loud contacts; nothing when the
    /// player said where they are. A piece whose first person was posed while measuring on the frames `schedule`
    /// picks is not posed again for that person.
    mutating func lookAgain(segments: [ClosedRange<Double>], schedule: PoseSchedule, judgeAt: [ClosedRange<Double>]) throws
    /// ``pose(segments:schedule:measuring:)`` of the last pass's `segments` and ``lookAgain(segments:schedule:judgeAt:)``
    /// of `again` with `againSchedule`, which may run side by side (the video's pose stage shares its workers).
    mutating func pose(segments: [ClosedRange<Double>], schedule: PoseSchedule, lookingAgainAt again: [ClosedRange<Double>],
                       againSchedule: PoseSchedule, judgeAt: [ClosedRange<Double>]) throws
}

extension PassPosing {
    /// ``pose(segments:schedule:measuring:)`` for pieces nobody looks at again.
    mutating func pose(segments: [ClosedRange<Double>], schedule: PoseSchedule) throws {
        try pose(segments: segments, schedule: schedule, measuring: false)
    }

    /// One after the other.
    mutating func pose(segments: [ClosedRange<Double>], schedule: PoseSchedule, lookingAgainAt again: [ClosedRange<Double>],
                       againSchedule: PoseSchedule, judgeAt: [ClosedRange<Double>]) throws {
        try pose(segments: segments, schedule: schedule)
        try lookAgain(segments: again, schedule: againSchedule, judgeAt: judgeAt)
    }
}
