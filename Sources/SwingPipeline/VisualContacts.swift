import Foundation
import SwingAudio
import SwingBiomech
import SwingCore
import SwingMedia
import SwingVision

/// Which video frames `analyze --detector` runs the racket/ball model on.
package enum DetectorScope: String, Sendable, CaseIterable, Codable {
    /// Every stride-th frame of the analysed range (the default): finds hits the microphone missed.
    case all
    /// Every stride-th frame of the audio contacts' swing windows only: cheaper (about
    /// (before + after) / (seconds between hits) of the frames), confirms and re-times audio contacts;
    /// a visual-only contact can only come from inside a window.
    case windows
}

/// The visual contact stage of an analysis (`analyze --detector MODEL`): a racket/ball detector, the
/// tennis-contact interpreter, and the audio/visual fusion rule.
package struct VisualContactOptions: Sendable {
    /// The detector runs on every 3rd video frame by default (docs/fusion.md).
    package static let defaultStride = 3
    /// Default fusion tolerance in processed-frame intervals (see ``tolerance(frameRate:)``).
    package static let defaultToleranceIntervals = 2.0

    /// How reports name the model (catalog id or file name).
    package var modelName: String
    /// Run the detector on every `stride`-th frame. Default ``defaultStride`` (3).
    package var stride: Int = VisualContactOptions.defaultStride
    /// Which frames: the whole analysed range (default) or the audio contacts' swing windows.
    package var scope: DetectorScope = .all
    /// Maximum |visual − audio| time in seconds for two detections to be the same hit; `nil` (default)
    /// = ``toleranceIntervals`` processed-frame intervals, i.e. `toleranceIntervals × stride / fps`.
    package var fusionTolerance: Double?
    /// Processed-frame intervals used when ``fusionTolerance`` is `nil`. Default 2: a visual event is
    /// reported at a sampled frame up to one interval from the real contact, plus one interval of slack.
    package var toleranceIntervals: Double = VisualContactOptions.defaultToleranceIntervals
    /// Which single-source contacts survive (visual-only needs confidence ≥ 0.6 by default).
    package var fusion = ContactFusionOptions()
    /// The tennis-contact rule's thresholds (docs/interpreters.md defaults, or the model's stored interpreter config).
    package var interpreter = TennisContactInterpreter.Configuration()

    /// The defaults, for a model named `modelName` in reports. The model itself is given to
    /// ``SessionAnalyzer/init(options:modelsDirectory:visualPredictor:)``.
    package init(modelName: String = "") {
        self.modelName = modelName
    }

    /// The fusion tolerance in seconds for a video at `frameRate` fps (30 fps assumed when unknown).
    package func tolerance(frameRate: Double) -> Double {
        if let fusionTolerance { return fusionTolerance }
        let fps = frameRate > 0 ? frameRate : 30
        return toleranceIntervals * Double(max(stride, 1)) / fps
    }

    /// A sentence describing the first invalid option, or `nil`.
    package var problem: String? {
        if stride < 1 { return "The detector stride must be at least 1 frame (got \(stride))." }
        if let t = fusionTolerance, !(t.isFinite && t >= 0) {
            return "The fusion tolerance must be zero or more seconds (got \(t))."
        }
        if !(toleranceIntervals.isFinite && toleranceIntervals >= 0) {
            return "The fusion tolerance must be zero or more frame intervals (got \(toleranceIntervals))."
        }
        if !fusion.visualOnlyMinimumConfidence.isFinite || !fusion.audioOnlyMinimumConfidence.isFinite {
            return "The single-source minimum confidences must be numbers."
        }
        return nil
    }
}

/// What the visual contact stage did: the part every output shows (``summary``, the session document's
/// `visualDetector`), plus what only the pipeline and the model's usage record need.
package struct VisualContactReport: Sendable {
    /// Model, frames, timings, events and contacts per source, as `analyze --json` shows them.
    package var summary: SessionDocument.VisualDetector
    /// When the stage started and ended (for the model's detection-session record).
    package var startedAt: Date
    package var endedAt: Date
    /// The fused contacts in time order (the contacts that drove the pose stage, one per shot). Times are
    /// on the audio clock like every shot time: the audio time for `both`/`audio`, the visual time plus
    /// the sound delay for `visual`. `offset` is visual − (audio − sound delay), seconds.
    package var contacts: [FusedContact]
}

extension SessionAnalysis {
    /// Where the shot heard at `time` came from, when a detector ran (shots keep their contact's time; the
    /// swing check may leave some contacts out, so shot numbers do not index the contacts).
    package func contactSource(time: Double) -> FusedContact? {
        visualContacts?.contacts.first { $0.time == time }
    }
}

/// The visual contact stage: detector over the chosen frames → tennis-contact events → fusion.
enum VisualContactStage {
    /// Runs the stage.
    /// - Parameters:
    ///   - path: the session video.
    ///   - predictor: the racket/ball model.
    ///   - options: stride, scope, fusion.
    ///   - audio: the audio contacts (media time, audio clock).
    ///   - clip: the analysed range, seconds of media time.
    ///   - frameRate: the video's frame rate.
    ///   - biomech: sound delay and swing window.
    ///   - progress: receives the stage's fraction.
    /// - Returns: the fused contacts as the pose stage consumes them (audio clock), and the report.
    /// - Throws: `MediaError` (decoding), the predictor's error, `PipelineError.cancelled`.
    static func run(path: String, predictor: any FramePredictor, options: VisualContactOptions, audio: [ContactCandidate],
                    clip: ClosedRange<Double>, frameRate: Double, biomech: BiomechParameters,
                    progress: AnalysisProgress?) throws -> (contacts: [ContactEvent], report: VisualContactReport) {
        let started = DispatchTime.now().uptimeNanoseconds
        let startedAt = Date()
        // Matching uses a given delay; one still to be measured (from the body, after pose) counts as 0 here,
        // inside the fusion tolerance for the usual 40–220 ms.
        let delay = (biomech.soundDelayMs ?? 0) / 1000
        let segments = framesToScan(scope: options.scope, audioTimes: audio.map { $0.time - delay }, clip: clip,
                                    biomech: biomech)
        let reader = try VideoFrameReader(path: path)
        let fps = frameRate > 0 ? frameRate : (reader.info.frameRate > 0 ? reader.info.frameRate : 30)
        let expected = max(1, segments.reduce(0.0) { $0 + ($1.upperBound - $1.lowerBound) } * fps / Double(options.stride))
        let interpreter = TennisContactInterpreter(configuration: options.interpreter)
        var events: [TennisContactInterpreter.Event] = []
        var sofar = 0   // frames processed in earlier segments, for the progress
        var loop = DetectionLoop(predictor: predictor, configuration: .init(throttle: .everyNthFrame(options.stride)))
        for segment in segments {
            // Events never merge across segments: each window is summarised on its own.
            var interpreted: [(frame: InterpreterFrame, result: TennisContactInterpreter.Result)] = []
            let done = try loop.run(over: reader, ranges: [segment]) { frame, processed in
                var f = InterpreterFrame(detections: processed.detections, frameIndex: frame.index, time: frame.time,
                                         width: frame.image.width, height: frame.image.height)
                let result = interpreter.interpret(f)
                f.detections = []   // summarising needs only the result; keep memory flat on long sessions
                interpreted.append((f, result))
                progress?(.detectingVisualContacts, min(1, Double(interpreted.count + sofar) / expected))
                return true
            }
            if !done { throw PipelineError.cancelled() }
            sofar += interpreted.count
            events += interpreter.summarize(interpreted).contacts
        }
        let stats = loop.statistics
        let processed = stats.framesProcessed, detections = stats.detectionCount, timing = stats.totalTimings
        progress?(.detectingVisualContacts, 1)
        let tolerance = options.tolerance(frameRate: fps)
        let contacts = fuse(audio: audio, visual: events, delay: delay, tolerance: tolerance, options: options.fusion)
        let n = Double(max(processed, 1))
        let perSource = Dictionary(grouping: contacts, by: \.source).mapValues(\.count)
        let summary = SessionDocument.VisualDetector(
            model: options.modelName, scope: options.scope, stride: options.stride, toleranceSeconds: tolerance,
            framesProcessed: processed, detectionCount: detections, preMs: timing.preMs / n,
            inferenceMs: timing.inferenceMs / n, postMs: timing.postMs / n,
            seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9, visualEvents: events,
            audioContacts: audio.count,
            sources: Dictionary(uniqueKeysWithValues: ContactSource.allCases.map { ($0.rawValue, perSource[$0] ?? 0) }))
        let report = VisualContactReport(summary: summary, startedAt: startedAt, endedAt: Date(), contacts: contacts)
        return (contacts.map { ContactEvent(time: $0.time, confidence: $0.confidence) }, report)
    }

    /// The time ranges the detector reads: the whole clip, or the audio contacts' merged swing windows.
    /// - Parameter audioTimes: audio contact times with the sound delay removed (video clock).
    static func framesToScan(scope: DetectorScope, audioTimes: [Double], clip: ClosedRange<Double>,
                             biomech: BiomechParameters) -> [ClosedRange<Double>] {
        switch scope {
        case .all: return [clip]
        case .windows:
            return SessionAnalyzer.windows(contactTimes: audioTimes, before: biomech.windowBefore,
                                           after: biomech.windowAfter, clip: clip)
        }
    }

    /// Fuses audio candidates with visual events, in time order on the audio clock.
    ///
    /// Matching runs on the video clock (audio time − `delay`) with ``fuseContacts(audio:visual:tolerance:options:)``.
    /// A `both` contact takes its audio candidate's time with the noisy-OR confidence; an `audio` one is
    /// unchanged; a `visual` one is placed at visual time + `delay`, so the biomechanics, which subtract the
    /// delay, measure at the frame where the ball met the racket. The pose stage needs only each contact's
    /// time and confidence, so a visual hit is never dressed up as an audio candidate.
    static func fuse(audio: [ContactCandidate], visual: [TennisContactInterpreter.Event], delay: Double,
                     tolerance: Double, options: ContactFusionOptions) -> [FusedContact] {
        let audioTimed = audio.map { TimedContact(time: $0.time - delay, confidence: $0.confidence) }
        let fused = fuseContacts(audio: audioTimed, visual: visual.map { TimedContact(time: $0.time, confidence: $0.confidence) },
                                 tolerance: tolerance, options: options)
        let onAudioClock = fused.compactMap { f -> FusedContact? in
            var c = f
            switch f.source {
            case .both, .audio:
                guard let i = f.audioIndex, audio.indices.contains(i) else { return nil }
                c.time = audio[i].time
            case .visual:
                c.time = f.time + delay
            }
            return c
        }
        // Stable time order: the biomechanics number shots in this order, and shots map back by position.
        return onAudioClock.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }
}
