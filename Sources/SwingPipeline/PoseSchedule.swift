import SwingBiomech

/// Which frames of the swing windows get a pose estimate (`analyze --pose-fps`, `--pose-workers`).
///
/// Every frame near a contact is posed, because the metrics read consecutive frames there: the
/// interpolation to t_c needs the frames on either side of it and the wrist speed needs frames i ± k
/// (``BiomechParameters/speedHalfSpan``). Away from the contact the swing arc and the ground level are
/// smooth enough to be sampled, so the rest of the window is posed at ``outerFramesPerSecond``. The
/// tracker still sees frames in time order, so its region of interest just comes from a frame a few
/// hundredths of a second older.
package struct PoseSampling: Sendable, Equatable {
    /// Pose rate in the window away from the contact core, frames per second. `nil`, or any rate at or
    /// above the video's, poses every frame (`--pose-fps 0`). Default 15: a 60 fps window is posed on
    /// every 4th frame plus the core.
    package var outerFramesPerSecond: Double? = 15
    /// Extra frames posed on each side of the contact core, beyond what the metrics read (a safety
    /// margin for variable-frame-rate phone video). Default 1.
    package var coreMarginFrames: Int = 1
    /// Swing windows are posed by this many workers in parallel, each with its own decoder and
    /// single-threaded ONNX Runtime sessions. 0 (default) = one per core, at most ``maxDefaultWorkers``.
    package var workers: Int = 0
    /// The default worker count's cap: each worker holds its own models and decoder (~60 MB), so a
    /// many-core machine would otherwise trade the memory bound for little extra speed.
    package static let maxDefaultWorkers = 4
    /// Lets FFmpeg drop the frames that are neither posed nor referenced by other frames (`skip_frame`;
    /// `analyze --skip-unposed-frames`): the keyframe pre-roll before each window and the frames between
    /// the sampled ones. The posed frames decode to the same pixels either way. Default on: on the
    /// phone-encoded bench files it cuts the decoding CPU by about a third with every shot's metrics
    /// identical (`bench/results/analyze_phone.txt`).
    package var skipUnposedFrames = true
    /// Skips the decoder's deblocking filter (``VideoFrameReader/skipDeblocking``;
    /// `analyze --skip-deblocking`): faster decoding of H.264, slightly different pixels. Default off.
    package var skipDeblocking = false
    /// The sentence a session analysed with ``skipDeblocking`` carries in its warnings, so the shots'
    /// numbers are never read as full-quality ones.
    package static let skipDeblockingWarning = "The video was decoded without its deblocking filter (--skip-deblocking): each shot's position can be a few centimetres off, on the phone bench 1.6–4.2 cm on average and up to 22 cm."

    package init(outerFramesPerSecond: Double? = 15, coreMarginFrames: Int = 1, workers: Int = 0) {
        self.outerFramesPerSecond = outerFramesPerSecond
        self.coreMarginFrames = coreMarginFrames
        self.workers = workers
    }

    /// Poses every frame of every window (the reference mode the sampled default is measured against).
    package static let everyFrame = PoseSampling(outerFramesPerSecond: nil)

    /// A sentence describing the first invalid setting, or `nil`.
    /// Slowest outer pose rate: one frame every 100 s (slower poses nothing between contacts anyway).
    package static let minimumRate = 0.01

    package var problem: String? {
        if let r = outerFramesPerSecond, !(r.isFinite && r >= Self.minimumRate) {
            return "The pose rate must be at least \(Self.minimumRate) frames per second (or 0 for every frame)."
        }
        if coreMarginFrames < 0 { return "The contact core margin must be 0 or more frames." }
        if workers < 0 { return "The number of pose workers must be 0 (one per core) or more." }
        return nil
    }

    /// Frames either side of a contact that the metrics read at full rate, plus the margin.
    func coreHalfSpanFrames(_ biomech: BiomechParameters) -> Int {
        let read = biomech.contactFrame == .bestConfidence
            ? biomech.bestConfidenceSearchFrames + biomech.speedHalfSpan
            : biomech.speedHalfSpan
        // +1: the frame nearest t_c may lie half a frame away, and its neighbours bracket t_c.
        return read + 1 + coreMarginFrames
    }
}

/// The per-frame decision of ``PoseSampling`` for one analysis: pose a frame when it lies on the
/// outer grid (every `outerStep`-th frame of the video) or within the core of a contact's span.
struct PoseSchedule: Sendable {
    /// Contact times t_c, sorted.
    let contactTimes: [Double]
    /// Where the contacts are measured, sorted and merged: [t_c − ``coreBefore``, t_c] for each contact (one
    /// instant each when the delay is known). Every frame within ``coreHalfWidth`` of one is posed.
    let spans: [ClosedRange<Double>]
    /// Frames within this many seconds of a span are always posed.
    let coreHalfWidth: Double
    /// How far each span reaches back before its contact: with the sound delay still to be measured
    /// (``BiomechParameters/soundDelayMs`` `nil`) the contact times are the heard ones, and the instant of
    /// contact, with the wrist's reach that measures it, lies up to the delay range's end before them (on the real
    /// clock: ``BiomechParameters/slowMotion`` times that on a slow-motion file's). 0 for a schedule of spans.
    let coreBefore: Double
    /// Pose every this-many-th frame elsewhere (1 = every frame).
    let outerStep: Int

    /// - Parameter reachBack: Pose the delay range before each contact too (``coreBefore``): the contacts are
    ///   heard times the sound delay is measured on. Default: when ``BiomechParameters/soundDelayMs`` is `nil`.
    init(contactTimes: [Double], frameRate: Double, sampling: PoseSampling, biomech: BiomechParameters,
         reachBack: Bool? = nil) {
        let reach = reachBack ?? (biomech.soundDelayMs == nil)
            ? max(0, biomech.soundDelayRangeMs.upperBound + biomech.impactAfterReachMs) / 1000 * biomech.slowMotion : 0
        self.init(spans: contactTimes.map { ($0 - reach)...$0 }, frameRate: frameRate, sampling: sampling, biomech: biomech)
        self = PoseSchedule(self, coreBefore: reach)
    }

    /// A schedule that poses `spans` (each a contact's [earliest, latest] instant) and the core around them.
    init(spans: [ClosedRange<Double>], frameRate: Double, sampling: PoseSampling, biomech: BiomechParameters) {
        let fps = frameRate > 0 ? frameRate : 30
        contactTimes = spans.map(\.upperBound).sorted()
        self.spans = Self.merged(spans)
        coreHalfWidth = (Double(sampling.coreHalfSpanFrames(biomech)) + 0.5) / fps
        coreBefore = 0
        if let rate = sampling.outerFramesPerSecond, rate < fps {
            // Bounded so an extreme rate cannot overflow the conversion.
            outerStep = max(1, Int(min((fps / max(rate, PoseSampling.minimumRate)).rounded(), 1_000_000)))
        } else {
            outerStep = 1
        }
    }

    private init(_ other: PoseSchedule, coreBefore: Double) {
        contactTimes = other.contactTimes; spans = other.spans; coreHalfWidth = other.coreHalfWidth
        outerStep = other.outerStep; self.coreBefore = coreBefore
    }

    /// Whether the frame at `time` (frame number `index`) gets a pose.
    func wants(time: Double, index: Int) -> Bool {
        if outerStep == 1 || index % outerStep == 0 { return true }
        return distanceToNearestCore(time) <= coreHalfWidth
    }

    /// The distance from `time` to the nearest span (0 inside one), infinity without spans.
    func distanceToNearestCore(_ time: Double) -> Double {
        // The first span ending at or after `time`; spans are disjoint and sorted.
        var lo = 0, hi = spans.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if spans[mid].upperBound < time { lo = mid + 1 } else { hi = mid }
        }
        var best = Double.infinity
        if lo < spans.count { best = max(0, spans[lo].lowerBound - time) }
        if lo > 0 { best = min(best, time - spans[lo - 1].upperBound) }
        return best
    }

    /// |time − nearest contact time| (binary search), infinity without contacts.
    func distanceToNearestContact(_ time: Double) -> Double {
        var lo = 0, hi = contactTimes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if contactTimes[mid] < time { lo = mid + 1 } else { hi = mid }
        }
        var best = Double.infinity
        if lo < contactTimes.count { best = contactTimes[lo] - time }
        if lo > 0 { best = min(best, time - contactTimes[lo - 1]) }
        return best
    }

    /// `ranges` sorted and merged where they touch or overlap.
    static func merged(_ ranges: [ClosedRange<Double>]) -> [ClosedRange<Double>] {
        var out: [ClosedRange<Double>] = []
        for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, r.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }
}
