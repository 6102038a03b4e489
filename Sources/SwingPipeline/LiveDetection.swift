import Foundation
import SwingCore
import SwingStore
import SwingVision

/// One live camera's stream through the studio (`GET /api/detect/live`, docs/studio.md): the settings in
/// force (the client may change them between frames), frames dropped because a newer one arrived, and the
/// run's totals, recorded with the model when the stream ends.
///
/// The transport keeps at most one frame waiting and gives each to ``process(_:id:)`` from one task;
/// ``change(_:)`` and ``countDrop()`` may be called from another.
package final class LiveDetection: Sendable {
    /// The model and the settings the stream opened with.
    package let open: OpenModel
    private let studio: StudioService
    private let shared: LiveState
    private let worker: Worker

    /// A stream of `open` through `studio`'s inference queue.
    package init(open: OpenModel, studio: StudioService) {
        self.open = open
        self.studio = studio
        shared = LiveState(settings: open.settings, interpreter: open.interpreter)
        worker = Worker()
    }

    /// The settings in force.
    package var settings: DetectionSettings { shared.current().settings }

    /// Frames replaced by a newer one before they ran.
    package var dropped: Int { shared.dropped }

    /// Counts a frame replaced by a newer one before it ran.
    package func countDrop() { shared.countDrop() }

    /// Applies a client's settings message (JSON of ``DetectionSettings/Change``) from the next frame on.
    /// - Returns: The settings now in force.
    /// - Throws: The engine's error or ``RequestError`` for a message that cannot be read or a value out of
    ///   range; the settings in force stay.
    package func change(_ message: Data) throws -> DetectionSettings {
        let change = try DetectionSettings.Change.parse(message)
        let settings = shared.current().settings.applying(change)
        try settings.validate(names: open.predictor.info.names)
        let interpreter = try studio.interpreter(for: settings, model: open.model)
        shared.set(settings, interpreter)
        return settings
    }

    /// Runs the model (and BlazePose in tennis mode) on the client's frame `id`, follows objects when the
    /// settings ask for it and counts line crossings with the counter.
    /// - Throws: The engine's error for a picture it cannot read or run (the stream goes on).
    package func process(_ bytes: Data, id: Int) async throws -> LiveFrameAnswer {
        let (settings, interpreter) = shared.current()
        let clock = ContinuousClock()
        let started = clock.now
        let time = (started - worker.startedClock).seconds
        var p: StudioPrediction
        if let tennis = open.tennis {
            p = try await tennis.run(image: bytes, predictor: open.predictor, settings: settings, interpreter: interpreter,
                                     queue: studio.queue, source: "camera", frameIndex: id, time: time)
        } else {
            p = try await StudioPrediction.run(image: bytes, predictor: open.predictor, settings: settings,
                                               interpreter: interpreter, queue: studio.queue, source: "camera", frameIndex: id)
        }
        let fps = worker.follow(&p, settings: settings, interpreter: interpreter, time: time, now: clock.now)
        return LiveFrameAnswer(frameId: id, prediction: p, serverMs: (clock.now - started).seconds * 1000,
                               dropped: shared.dropped, fps: fps)
    }

    /// Records the stream's run with the model (nothing when no frame was answered).
    package func record(in db: any Store) async {
        let stats = worker.totals
        guard stats.frames > 0 else { return }
        try? await open.model.recordUse(DetectionRunStats(startedAt: worker.startedAt, endedAt: Date(), frames: stats.frames,
                                                          detections: stats.detections,
                                                          averageInferenceMs: stats.inferenceMs / Double(stats.frames),
                                                          source: "camera", interpreter: stats.summary?.interpreter,
                                                          summary: stats.summary?.sentence), in: db)
    }
}

/// One processed frame as the live socket sends it (`{"type": "result", …}`, docs/studio.md).
package struct LiveFrameAnswer: Encodable, Sendable {
    package struct Timings: Encodable, Sendable {
        var decodeMs: Double, preMs: Double, inferenceMs: Double, postMs: Double, serverMs: Double
        /// Tennis mode: each model's time on the frame.
        var poseMs: Double?, yoloMs: Double?
    }
    var type = "result"
    var frameId: Int
    var width: Int
    var height: Int
    var detections: [DetectionDocument.Item]
    var classification: [DetectionDocument.ClassScore]?
    /// Tennis mode: the player's pose, when a person was found.
    var pose: StudioPose?
    var interpretation: StudioPrediction.Interpretation?
    /// With tracking on: each track's recent centres, oldest first, for drawing trails.
    var trails: [StudioPrediction.Trail]?
    /// With tracking on and the counter: the line, the crossings so far per label and direction, and this
    /// frame's new ones.
    var crossings: LineCrossings.Summary?
    var timings: Timings
    var dropped: Int
    var fps: Double

    init(frameId: Int, prediction p: StudioPrediction, serverMs: Double, dropped: Int, fps: Double) {
        self.frameId = frameId
        width = p.frame.width; height = p.frame.height
        detections = p.frame.detections; classification = p.frame.classification
        pose = p.frame.pose
        interpretation = p.interpretation
        trails = p.trails
        crossings = p.crossings
        timings = Timings(decodeMs: p.decodeMs, preMs: p.frame.speed.preMs, inferenceMs: p.frame.speed.inferenceMs,
                          postMs: p.frame.speed.postMs, serverMs: serverMs, poseMs: p.poseMs, yoloMs: p.yoloMs)
        self.dropped = dropped; self.fps = fps
    }
}

/// The frame worker's own state: the tracker, the line counter, the recent answers and the totals. Only
/// ``LiveDetection/process(_:id:)`` (one task) changes it; the lock makes that safe to state.
private final class Worker: @unchecked Sendable {   // state guarded by `lock`
    let startedAt = Date()
    let startedClock = ContinuousClock.now
    private let lock = NSLock()
    private var running = LiveTotals()
    /// Frames answered in the last two seconds: the rate the camera sees now, not since it opened.
    private var recent: [ContinuousClock.Instant] = []
    /// Objects followed from frame to frame while the client asks for it (a fresh tracker each time).
    private var tracker: ByteTracker?
    /// With tracking and the counter: objects crossing the counter's line (fresh when either changes).
    private var crossings: (interpreter: String, counter: LineCrossings)?

    var totals: LiveTotals { lock.lock(); defer { lock.unlock() }; return running }

    /// Tracks and counts `p` as the settings ask, adds it to the totals, and answers the recent frame rate.
    func follow(_ p: inout StudioPrediction, settings: DetectionSettings, interpreter: AnyDetectionInterpreter?,
                time: Double, now: ContinuousClock.Instant) -> Double {
        lock.lock(); defer { lock.unlock() }
        if settings.track {
            if tracker == nil { tracker = ByteTracker() }
            p.track(with: &tracker, time: time)
        } else {
            tracker = nil
        }
        if settings.track, let interpreter, let counting = interpreter.lineCounting {
            if crossings?.interpreter != interpreter.name { crossings = (interpreter.name, counting.makeCounter()) }
            let f = p.frame.interpreterFrame
            p.crossings = crossings?.counter.update(counting.objects(f), width: f.width, height: f.height, time: f.time)
        } else {
            crossings = nil
        }
        running.add(p)
        recent.append(now)
        recent.removeAll { now - $0 > .seconds(2) }
        let span = recent.count > 1 ? (now - recent[0]).seconds : 0
        return span > 0 ? Double(recent.count - 1) / span : 0
    }
}

extension StudioPrediction {
    /// Runs the frame's detections through `tracker`: only detections of confirmed tracks stay, each with its
    /// `trackId` (masks, keypoints and boxes as the model gave them), and ``trails`` is set.
    package mutating func track(with tracker: inout ByteTracker?, time: Double) {
        guard var t = tracker else { return }
        let items = frame.detections
        let tracked = t.update(items.map(\.detection), time: time)
        tracker = t
        frame.detections = tracked.map { var item = items[$0.detectionIndex]; item.trackId = $0.trackId; return item }
        trails = tracked.map { StudioPrediction.Trail(trackId: $0.trackId, points: $0.trail.map { [$0.x, $0.y] }) }
    }
}

/// What a socket's reader and worker share: the settings in force and the drop count.
final class LiveState: @unchecked Sendable {   // state guarded by `lock`
    private let lock = NSLock()
    private var settings: DetectionSettings
    private var interpreter: AnyDetectionInterpreter?
    private var drops = 0

    init(settings: DetectionSettings, interpreter: AnyDetectionInterpreter?) {
        self.settings = settings; self.interpreter = interpreter
    }

    func current() -> (settings: DetectionSettings, interpreter: AnyDetectionInterpreter?) {
        lock.lock(); defer { lock.unlock() }
        return (settings, interpreter)
    }

    func set(_ settings: DetectionSettings, _ interpreter: AnyDetectionInterpreter?) {
        lock.lock(); self.settings = settings; self.interpreter = interpreter; lock.unlock()
    }

    func countDrop() { lock.lock(); drops += 1; lock.unlock() }
    var dropped: Int { lock.lock(); defer { lock.unlock() }; return drops }
}

/// A socket's totals, for its detection run record.
struct LiveTotals: Sendable {
    var frames = 0
    var detections = 0
    var inferenceMs = 0.0
    /// What the interpreter in force saw (a new tally when the client picks another interpreter).
    var summary: InterpreterRunSummary?

    mutating func add(_ p: StudioPrediction) {
        frames += 1; detections += p.frame.detections.count; inferenceMs += p.frame.speed.inferenceMs
        guard let interpretation = p.interpretation else { return }
        if summary?.interpreter != interpretation.interpreter {
            summary = InterpreterRunSummary(interpreter: interpretation.interpreter)
        }
        summary?.add(interpretation.result)
        if let crossings = p.crossings { summary?.set(crossings: crossings) }
    }
}
