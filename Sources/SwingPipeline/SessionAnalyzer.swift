import Foundation
import SwingAudio
import SwingBiomech
import SwingCore
import SwingMedia
import SwingPose
import SwingVision

/// Everything one analysis produced, before anything is stored.
package struct SessionAnalysis: Sendable {
    /// The probed input.
    package var info: MediaInfo
    /// Start (media time) and length of the analysed part (after --start/--duration), seconds: what
    /// decoded, which is less than ``statedDuration`` when the file is cut short.
    package var analysedStart: Double
    package var analysedDuration: Double
    /// The length the container states for the analysed range, seconds.
    package var statedDuration: Double
    /// The longest frame side pose ran at (`nil` = decoded size) and the swing window used.
    package var poseImageSide: Int?
    package var windowBefore: Double
    package var windowAfter: Double
    /// Non-fatal remarks (e.g. resolution below 720p).
    package var warnings: [String]
    /// The contacts that drove the pose stage (media time): the audio contacts, or with a detector the
    /// fused ones (time order, one per shot; see ``visualContacts`` for their sources).
    package var contacts: [ContactEvent]
    /// Per-shot metrics and session statistics.
    package var result: MeasureResult
    /// Every decoded swing-window frame's pose (time order); `nil` where nobody was found.
    package var frames: [WindowFrame]
    /// The pose track the metrics were measured on (one sample per distinct frame time, time order).
    package var track: PoseTrack
    /// The video frame (0-based) of each ``track`` sample; shot metrics name track indices.
    package var trackVideoFrames: [Int]
    /// The size of the frames pose ran on (image coordinates in ``track`` are in these pixels).
    package var poseImageSize: (width: Int, height: Int)
    /// Wall-clock seconds per stage.
    package var stageSeconds: [AnalysisStage: Double]
    /// Frames decoded and posed, and how often the person detector had to run.
    package var framesPosed: Int
    package var detectorRuns: Int
    /// Away from the contacts every `poseOuterStep`-th frame was posed (1 = every frame; see ``PoseSampling``).
    package var poseOuterStep: Int
    /// Swing windows were posed by this many parallel workers.
    package var poseWorkers: Int
    /// The visual contact stage's report (`analyze --detector`), `nil` without a detector.
    package var visualContacts: VisualContactReport? = nil
    /// The biomechanics' parameters the shots were measured with (kept with a stored session, so an edit
    /// measures the same way).
    package var parameters = BiomechParameters()
    /// The contact sensitivity the sound was heard with.
    package var sensitivity = ContactSensitivity.normal
    /// What the contact model that found the contacts learnt from; `nil` when the detector found them.
    package var contactModel: ContactModel.Provenance? = nil
    /// Where the pose stage's time went (decode, conversion, inference, pre/post-processing).
    package var poseTimes = PoseStageTimes()
    /// Where the player said they are (``AnalysisOptions/player`` when it is ``PersonChoice/marked(_:)``);
    /// `nil` when the pose stage chose by itself.
    package var player: PlayerMark? = nil
}

extension SessionAnalysis {
    /// The video frame of track sample `i`, `nil` when `i` is not a sample of ``track``.
    package func videoFrame(ofTrackIndex i: Int) -> Int? {
        trackVideoFrames.indices.contains(i) && trackVideoFrames[i] >= 0 ? trackVideoFrames[i] : nil
    }

    /// Pose pixels → display pixels: the factors that take ``track``'s image coordinates (in
    /// ``poseImageSize``) to the video's display size, where every image coordinate a user sees lives.
    package var displayScale: (x: Double, y: Double) {
        let display = info.video?.displaySize ?? poseImageSize
        return (Double(display.width) / Double(max(poseImageSize.width, 1)),
                Double(display.height) / Double(max(poseImageSize.height, 1)))
    }

    /// Every posed frame of each shot's swing window (time order, image points in display pixels), one
    /// array per shot of ``result`` — what the shot view and the annotated video show.
    package func shotFrames(hand: Hand) -> [[ShotFrame]] {
        Self.shotFrames(result, track: track, videoFrames: trackVideoFrames, hand: hand, scale: displayScale)
    }

    /// Every posed frame of each shot's swing window of `result`, measured on `track`.
    static func shotFrames(_ result: MeasureResult, track: PoseTrack, videoFrames: [Int], hand: Hand,
                           scale: (x: Double, y: Double)) -> [[ShotFrame]] {
        result.measured.map { measured in
            measured.windowFrames.compactMap { i -> ShotFrame? in
                guard track.samples.indices.contains(i) else { return nil }
                let frame = videoFrames.indices.contains(i) && videoFrames[i] >= 0 ? videoFrames[i] : nil
                return ShotFrame(track.samples[i], videoFrame: frame, hand: hand, scale: scale)
            }
        }
    }
}

/// One decoded frame of a swing window.
package struct WindowFrame: Sendable {
    package var index: Int
    package var time: Double
    package var pose: PoseFrame?
}

/// Runs the whole session analysis: audio → contacts → pose in each swing window → metrics.
///
/// Only the swing windows are decoded to RGB (overlapping windows are merged and decoded once), so a
/// 10-minute 1080p file never holds more than one frame of video in memory. Cancellation (`Cancellation.isRequested`:
/// the calling task's, or the request of the ``BlockingWork`` thread it runs on, which the CLI makes on Ctrl-C and
/// a job's cancellation makes in the server) is checked between frames and stages; nothing is written anywhere by
/// the analyzer itself. It blocks its thread for as long as it runs: start it with `BlockingWork.run`.
package struct SessionAnalyzer: Sendable {
    package private(set) var options: AnalysisOptions
    /// The racket/ball model of the visual contact stage (with ``AnalysisOptions/visualContacts``).
    private let visualPredictor: (any FramePredictor)?
    /// The BlazePose folder; the models are loaded when the pose stage starts (one copy per worker),
    /// so their memory is not added to the audio stage's peak.
    private let modelsDirectory: URL

    /// Finds the pose models.
    /// - Parameters:
    ///   - options: Every analysis knob.
    ///   - modelsDirectory: Where the BlazePose ONNX files are (default: found like `PoseModels.defaultDirectory()`).
    ///   - visualPredictor: The racket/ball model; required exactly when `options.visualContacts` is set.
    /// - Throws: `PoseError` when the model files are not there, `PipelineError.invalidOptions` when the
    ///   visual options and the model do not come together. Unreadable models and a missing ONNX
    ///   Runtime surface from ``analyze(path:progress:)`` (`PoseError` / `InferenceError`).
    package init(options: AnalysisOptions = .init(), modelsDirectory: URL? = nil,
                visualPredictor: (any FramePredictor)? = nil) throws {
        guard (options.visualContacts == nil) == (visualPredictor == nil) else {
            throw PipelineError(.invalidOptions, options.visualContacts == nil
                ? "A racket/ball model was given without visual contact options."
                : "Visual contacts need a racket/ball model.")
        }
        self.options = options
        self.visualPredictor = visualPredictor
        self.modelsDirectory = try PoseModels.directory(modelsDirectory)
    }

    /// One estimator per pose worker. Parallel workers each get single-threaded sessions unless the user
    /// chose a thread count: two workers × one thread beat one worker × two threads (decoding and
    /// pre/post-processing then run in parallel too).
    func loadEstimators() throws -> [PoseEstimator] {
        let workers = Self.workerCount(options.poseSampling)
        var pose = options.pose
        if workers > 1 && pose.threads == 0 { pose.threads = 1 }
        return try (0..<workers).map { _ in try PoseEstimator(modelsDirectory: modelsDirectory, options: pose) }
    }

    /// Workers actually used: ``PoseSampling/workers``, or one per active core (at most
    /// ``PoseSampling/maxDefaultWorkers``) when it is 0.
    static func workerCount(_ sampling: PoseSampling) -> Int {
        sampling.workers > 0 ? sampling.workers
            : min(PoseSampling.maxDefaultWorkers, max(1, ProcessInfo.processInfo.activeProcessorCount))
    }

    /// Analyses the session video at `path`.
    /// - Parameters:
    ///   - path: A video file with an audio track.
    ///   - progress: Receives (stage, fraction) for each ``AnalysisStage`` as it runs.
    /// - Throws: `MediaError` for unusable input, `PipelineError` for no contacts / no person /
    ///   cancellation, `PoseError`/`InferenceError` for model failures.
    package func analyze(path: String, progress: AnalysisProgress? = nil) throws -> SessionAnalysis {
        var clock = StageClock()
        let info = try MediaProbe.probe(path)
        var (video, warnings) = try MediaValidator.validateSession(info, limits: options.limits, range: options.range)
        // A slow-motion file measures its speeds on the real clock (the file's capture rate, or the option).
        let slowMotion = options.slowMotion ?? video.slowMotion ?? 1
        if slowMotion != options.biomech.slowMotion {
            var analyzer = self
            analyzer.options.biomech.slowMotion = slowMotion
            return try analyzer.analyze(path: path, progress: progress)
        }
        if let note = SlowMotionCheck.note(factor: slowMotion, captureRate: options.slowMotion == nil ? video.captureFrameRate : nil,
                                           playbackRate: video.frameRate) { warnings.append(note) }

        // 1–2. Audio, then contacts (media time). The samples are released before pose runs.
        let (heard, clipStart, clipDuration, notes) = try audioContacts(path: path, info: info, clock: &clock, progress: progress)
        var contacts = Self.events(heard)
        warnings += notes
        if options.poseSampling.skipDeblocking { warnings.append(PoseSampling.skipDeblockingWarning) }

        // 2b. Visual contacts (only with a detector): racket–ball events fused with the audio contacts;
        // the fused contacts drive the pose stage exactly as audio contacts do.
        var visualReport: VisualContactReport?
        if let visual = options.visualContacts, let predictor = visualPredictor {
            let fused = try VisualContactStage.run(
                path: path, predictor: predictor, options: visual, audio: heard, clip: clipStart...(clipStart + clipDuration),
                frameRate: video.frameRate, biomech: options.biomech, progress: progress)
            contacts = fused.contacts
            visualReport = fused.report
            guard !contacts.isEmpty else {
                throw PipelineError(.noContacts, "No racket–ball contact was heard or seen in \(path) (\(fused.report.summary.visualEvents.count) visual event(s), none confident enough alone).")
            }
            try checkCancelled()
            clock.lap(.detectingVisualContacts)
        }

        // 3. Pose in the merged swing windows, at each contact's instant; with the sound delay to be measured,
        // the loudest hits first with the delay range before them (SessionPosing.swift), the rest at the instants.
        let target = Self.poseSize(video.displaySize, maxSide: options.maxPoseImageSide)
        let session = try poseSession(path: path, video: video, contacts: contacts,
                                      clip: clipStart...max(clipStart, clipStart + clipDuration), target: target, progress: progress)
        let posed = session.output
        warnings += session.notes
        let frames = posed.frames
        let detectorRuns = posed.detectorRuns
        progress?(.runningPose, 1)
        clock.lap(.runningPose)

        // 4. Metrics and statistics.
        let track = try PoseTrack(samples: Self.dedupedSamples(frames))
        let frameOfTime = Dictionary(frames.map { ($0.time, $0.index) }, uniquingKeysWith: { a, _ in a })
        let trackVideoFrames = track.samples.map { frameOfTime[$0.time] ?? -1 }
        let result = BiomechAnalyzer.analyze(track: track, contacts: contacts, parameters: options.biomech,
                                             soundDelay: session.soundDelay)
        // An edit measures its contacts at the same delay (kept in the stored parameters).
        var parameters = options.biomech
        parameters.soundDelayMs = result.soundDelay.ms
        let impossible = result.rejected.filter { $0.kind == .implausible }.count
        if impossible > 0 {
            warnings.append("\(impossible) contact\(impossible == 1 ? " was" : "s were") not measured: the pose found there is not a body that can hit (usually another person, or a pose mis-detected); see the turned-down contacts for why.")
        }
        if options.slowMotion == nil, video.slowMotion == nil,
           let note = SlowMotionCheck.suspicion(result, track: track, parameters: parameters) { warnings.append(note) }
        progress?(.computingStatistics, 1)
        clock.lap(.computingStatistics)
        guard result.shots.contains(where: { $0.status == .ok }) || !result.rejected.isEmpty else {
            let picture: (width: Int, height: Int) = target ?? video.displaySize
            if let small = posed.largestTooSmall {
                let short = min(picture.width, picture.height)
                throw PipelineError(.noPerson, "The people around the \(contacts.count) contact(s) are at most \(Int(small.rounded())) px tall in the \(picture.width)×\(picture.height) picture, too small to measure; film from closer, so the player is at least \(Int((100.0 / 720 * Double(short)).rounded(.up))) px tall with the whole body in view.")
            }
            throw PipelineError(.noPerson, "No person was found around any of the \(contacts.count) contact(s); film the player from behind the baseline with the whole body in view.")
        }
        return SessionAnalysis(info: info, analysedStart: clipStart, analysedDuration: clipDuration,
                               statedDuration: try MediaValidator.selectedLength(info, range: options.range),
                               poseImageSide: options.maxPoseImageSide, windowBefore: options.biomech.windowBefore,
                               windowAfter: options.biomech.windowAfter, warnings: warnings, contacts: contacts, result: result, frames: frames,
                               track: track, trackVideoFrames: trackVideoFrames,
                               poseImageSize: target ?? video.displaySize,
                               stageSeconds: clock.seconds, framesPosed: frames.count, detectorRuns: detectorRuns,
                               poseOuterStep: session.outerStep, poseWorkers: posed.workers,
                               visualContacts: visualReport, parameters: parameters, sensitivity: options.sensitivity,
                               contactModel: options.contactModel?.trainedOn, poseTimes: posed.times,
                               player: options.player.mark)
    }

    /// Poses only the swing windows of `contactTimes` (t_c, media time) in the video at `path` — what an
    /// edit that adds a contact, or names another player, needs (``SessionEditor``); nothing else is decoded.
    /// The windows follow ``AnalysisOptions/player`` as the analysis does (a mark's moment looked up first).
    /// - Returns: The posed samples (time order, one per distinct frame time), each one's video frame, and
    ///   what the player should know about whom the windows followed (as the analysis' warnings say it).
    /// - Throws: `MediaError` when the video cannot be read, `PoseError`/`InferenceError` for the models.
    package func poseSamples(path: String, contactTimes: [Double]) throws
        -> (samples: [PoseSample], videoFrames: [Int], notes: [String]) {
        let info = try MediaProbe.probe(path)
        guard let video = info.video else { throw MediaError(.noVideoTrack, "\(path) has no video track.") }
        let end = info.duration > 0 ? info.duration : (contactTimes.max() ?? 0) + options.biomech.windowAfter
        let estimators = try loadEstimators()
        let player = try resolvedPlayer(path: path, maxSide: options.maxPoseImageSide, estimator: estimators[0])
        var poser = try PassPoser(analyzer: self, path: path, video: video,
                                  target: Self.poseSize(video.displaySize, maxSide: options.maxPoseImageSide),
                                  estimators: estimators, progress: nil, player: player.choice)
        try poser.pose(segments: pieces(contactTimes: contactTimes, reachBack: false, clip: 0...max(0, end)).map(\.range),
                       schedule: schedule(contactTimes, reachBack: false, frameRate: video.frameRate))
        let posed = poser.output
        let samples = Self.dedupedSamples(posed.frames.sorted { $0.time < $1.time })
        let frameOfTime = Dictionary(posed.frames.map { ($0.time, $0.index) }, uniquingKeysWith: { a, _ in a })
        return (samples, samples.map { frameOfTime[$0.time] ?? -1 }, player.note.map { [$0] } ?? [])
    }

    /// The contacts heard in the video at `path` (media time), with ``AnalysisOptions/detector`` — what a
    /// re-analysis at another sensitivity needs (``SessionEditor``); no pose runs.
    /// - Throws: `MediaError` when the sound cannot be read; an empty list is not an error here.
    package func heardContacts(path: String) throws -> [ContactEvent] {
        let info = try MediaProbe.probe(path)
        let rate = options.sampleRate ?? AudioExtractor.analysisRate(for: info.audio)
        let pcm = try AudioExtractor.extract(path, sampleRate: rate, range: options.range)
        let detection = try hear(pcm, progress: nil)
        return Self.events(detection.contacts, offset: pcm.startTime)
    }

    /// The contacts to measure from the heard candidates (shifted by `offset` seconds), each with its
    /// loudness against the session's loudest hits: the player's hits are the loud cluster.
    static func events(_ heard: [ContactCandidate], offset: Double = 0) -> [ContactEvent] {
        let loudness = ContactLoudness.relativeDb(heard.map(\.amplitude))
        return zip(heard, loudness).map { ContactEvent(time: $0.time + offset, confidence: $0.confidence, loudnessDb: $1) }
    }

    /// Stages 1 and 2: the audio track's contacts in media time, and the analysed clip's start and length.
    /// The PCM lives only inside this call, so its memory (106 MB for 10 minutes) is gone before pose.
    private func audioContacts(path: String, info: MediaInfo, clock: inout StageClock, progress: AnalysisProgress?) throws
        -> (contacts: [ContactCandidate], start: Double, duration: Double, notes: [String]) {
        let rate = options.sampleRate ?? AudioExtractor.analysisRate(for: info.audio)
        let pcm = try AudioExtractor.extract(path, sampleRate: rate, range: options.range) {
            progress?(.extractingAudio, $1)
        }
        let shortfall = try MediaValidator.checkDecoded(pcm.duration, info: info, limits: options.limits, range: options.range)
        try checkCancelled()
        clock.lap(.extractingAudio)

        let detection = try hear(pcm, progress: progress)
        var contacts = detection.contacts
        for i in contacts.indices { contacts[i].time += pcm.startTime }
        guard !contacts.isEmpty || options.visualContacts != nil else {
            if options.contactModel != nil {
                throw PipelineError(.noContacts, "The contact model heard no racket–ball contact in \(path); check that it was learnt from this racket and phone, or analyse without it.")
            }
            throw PipelineError(.noContacts, "No racket–ball contact was heard in \(path); check that the audio track has the hits (or lower --threshold-factor).")
        }
        try checkCancelled()
        clock.lap(.detectingContacts)
        return (contacts, pcm.startTime, pcm.duration, shortfall + detection.notes)
    }

    /// The contacts in `pcm` (sample time) by ``AnalysisOptions/contactModel`` when there is one, else by
    /// the detector with ``AnalysisOptions/detector``.
    private func hear(_ pcm: AudioPCM, progress: AnalysisProgress?) throws -> ContactDetection {
        try ContactModel.hear(samples: pcm.samples, sampleRate: Double(pcm.sampleRate), model: options.contactModel,
                              parameters: options.detector) { progress?(.detectingContacts, $1) }
    }

    /// Swing windows `[t − before, t + after]` clipped to the analysed clip, sorted and merged where they
    /// overlap, so each frame is decoded at most once.
    static func windows(contactTimes: [Double], before: Double, after: Double,
                        clip: ClosedRange<Double>) -> [ClosedRange<Double>] {
        var ranges: [ClosedRange<Double>] = []
        for t in contactTimes.sorted() {
            let lo = max(clip.lowerBound, t - before), hi = min(clip.upperBound, t + after)
            guard lo <= hi else { continue }
            if let last = ranges.last, lo <= last.upperBound {
                ranges[ranges.count - 1] = last.lowerBound...max(last.upperBound, hi)
            } else {
                ranges.append(lo...hi)
            }
        }
        return ranges
    }

    /// Splits merged windows between their contacts (at the midpoint of each consecutive pair), so a rally
    /// whose windows merged into one long stretch is still shared among the pose workers. Every piece
    /// keeps whole contact cores (contacts closer than twice the core would not be separate hits), and
    /// the split does not depend on the worker count, so results don't either. A frame exactly on a
    /// split point is posed by both pieces and the earlier piece's pose kept (``WindowPoser``).
    static func pieces(of segments: [ClosedRange<Double>], contactTimes: [Double]) -> [ClosedRange<Double>] {
        let times = contactTimes.sorted()
        var out: [ClosedRange<Double>] = []
        for segment in segments {
            let inside = times.filter { segment.contains($0) }
            var start = segment.lowerBound
            for (a, b) in zip(inside, inside.dropFirst()) {
                let mid = (a + b) / 2
                guard mid > start, mid < segment.upperBound else { continue }
                out.append(start...mid)
                start = mid
            }
            out.append(start...segment.upperBound)
        }
        return out
    }

    /// The decoded frame size for pose: the display size scaled down so its longer side ≤ `maxSide`.
    static func poseSize(_ size: (width: Int, height: Int), maxSide: Int?) -> (Int, Int)? {
        guard let maxSide, maxSide > 0, max(size.width, size.height) > maxSide else { return nil }
        let s = Double(maxSide) / Double(max(size.width, size.height))
        // Even dimensions keep the later H.264 overlay encoder happy.
        let w = max(2, Int((Double(size.width) * s / 2).rounded()) * 2)
        let h = max(2, Int((Double(size.height) * s / 2).rounded()) * 2)
        return (w, h)
    }

    /// Pose samples for the biomechanics, one per distinct frame time.
    static func dedupedSamples(_ frames: [WindowFrame]) -> [PoseSample] {
        var seen = Set<Double>()
        return frames.compactMap { f in
            guard seen.insert(f.time).inserted else { return nil }
            guard let p = f.pose else { return PoseSample(time: f.time, world: []) }
            return PoseSample(time: f.time, world: p.worldLandmarks,
                              image: p.landmarks.map { Point2(x: $0.x, y: $0.y) },
                              visibility: p.landmarks.map(\.visibility), score: p.score)
        }
    }

    private func checkCancelled() throws {
        if Cancellation.isRequested { throw PipelineError.cancelled() }
    }
}

/// Measures wall-clock time per stage.
struct StageClock {
    private var last = DispatchTime.now().uptimeNanoseconds
    private(set) var seconds: [AnalysisStage: Double] = [:]
    mutating func lap(_ stage: AnalysisStage) {
        let now = DispatchTime.now().uptimeNanoseconds
        seconds[stage] = Double(now - last) / 1e9
        last = now
    }
}
