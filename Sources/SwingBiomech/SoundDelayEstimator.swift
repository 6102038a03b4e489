import SwingCore

/// Measures a session's sound delay from the player's own motion (docs/analysis.md, "The instant of contact").
///
/// The ball is met in front of the body at the end of the forward swing: on our hand-labelled real
/// recordings (`bench/real/`) the dominant wrist is furthest forward of the pelvis (body frame) within a
/// frame of ball-on-strings, after which the arm wraps across the body; a serve is met at the top of the
/// reach, the wrist highest. (The wrist's *speed* is no mark: with BlazePose at 30 fps it dips at impact and
/// peaks again in the follow-through, 40–140 ms later.) So each heard contact whose body shows a swing — a
/// peak speed of at least ``BiomechParameters/soundDelayMinSwingCmS`` and a clear forward (or, overhead, upward)
/// extreme of the wrist within ``BiomechParameters/soundDelayRangeMs`` before the sound — says "the sound
/// came *d* ms after the picture" (``BiomechParameters/impactAfterReachMs`` is the extreme's measured offset
/// from ball-on-strings). The session's delay is the median of those, after dropping shots further than three
/// robust standard deviations (at least ``BiomechParameters/soundDelayOutlierMs``) from it: a minority of
/// opponents' hits, bounces and mis-posed windows cannot move it. Fewer than
/// ``BiomechParameters/soundDelayMinShots`` shots with a swing → no correction, and the session says why.
enum SoundDelayEstimator {
    /// The session's delay from `contacts` heard at their times, each read on the frames of the person posed
    /// at its heard time (``PosedPeople``).
    static func estimate(contacts: [ContactEvent], people: PosedPeople, parameters p: BiomechParameters) -> SoundDelay {
        let asked = candidates(contacts, parameters: p)
        guard !asked.isEmpty else { return .none("no heard contact to measure the delay on.") }
        let delays = asked.compactMap { delay(heard: $0.time, posed: people.frames(near: $0.time), parameters: p) }
        func none(_ reason: String) -> SoundDelay {
            SoundDelay(ms: 0, source: .none, shotsUsed: delays.count, shotsAsked: asked.count, reason: reason)
        }
        guard delays.count >= max(p.soundDelayMinShots, 1) else {
            return none(delays.isEmpty
                ? "no swing of the player's wrist was seen just before any of the \(asked.count) hit sound\(asked.count == 1 ? "" : "s"), so the sound delay could not be measured."
                : "only \(delays.count) of \(asked.count) hit sound\(asked.count == 1 ? "" : "s") had a swing just before \(asked.count == 1 ? "it" : "them"); \(p.soundDelayMinShots) are needed to measure the sound delay.")
        }
        if delays.count == 2, abs(delays[0] - delays[1]) > p.soundDelayOutlierMs / 1000 {
            return none("the 2 hit sounds with a swing just before them disagree by \(Int((abs(delays[0] - delays[1]) * 1000).rounded())) ms, so the sound delay could not be measured.")
        }
        var kept = delays
        var centre = median(kept)
        if kept.count >= 3 {
            let spread = 1.4826 * median(kept.map { abs($0 - centre) })
            let limit = max(3 * spread, p.soundDelayOutlierMs / 1000)
            kept = kept.filter { abs($0 - centre) <= limit }
            centre = median(kept)
        }
        let spread = kept.count >= 3 ? 1.4826 * median(kept.map { abs($0 - centre) }) * 1000 : nil
        return SoundDelay(ms: (centre * 1000 * 10).rounded() / 10, source: .measured,
                          spreadMs: spread.map { ($0 * 10).rounded() / 10 }, shotsUsed: kept.count, shotsAsked: asked.count)
    }

    /// The heard contacts that can be evidence, loudest first (then the more confident, then the earlier):
    /// the player's own hits are the loud ones, and sounds much quieter (the opponent, bounces) are no evidence.
    static func candidates(_ contacts: [ContactEvent], parameters p: BiomechParameters) -> [ContactEvent] {
        contacts.enumerated()
            .filter { $0.element.origin == .heard && ($0.element.loudnessDb.map { $0 > -p.opponentQuieterDb } ?? true) }
            .sorted { a, b in
                let (x, y) = (a.element, b.element)
                return (x.loudnessDb ?? 0, x.confidence, -a.offset) > (y.loudnessDb ?? 0, y.confidence, -b.offset)
            }
            .map(\.element)
    }

    /// One contact's evidence: heard time − the body's instant of contact (seconds), or `nil` when the wrist
    /// shows no clear reach in the searched range.
    static func delay(heard: Double, posed: [FrameMeasure], parameters p: BiomechParameters) -> Double? {
        reachTime(heard: heard, posed: posed, parameters: p).map { heard - ($0 + p.impactAfterReachMs / 1000) }
    }

    /// When the wrist reached furthest forward (or, overhead, highest) before the contact heard at `heard`,
    /// or `nil` (see ``reach(posed:from:to:parameters:)``).
    static func reachTime(heard: Double, posed: [FrameMeasure], parameters p: BiomechParameters) -> Double? {
        reach(posed: posed, from: heard - (p.soundDelayRangeMs.upperBound + p.impactAfterReachMs) / 1000,
              to: heard - (p.soundDelayRangeMs.lowerBound + p.impactAfterReachMs) / 1000, parameters: p)
    }

    /// The time in `from…to` at which the dominant wrist is furthest forward of the pelvis — or highest, when
    /// it is then an overhead hit (``BiomechParameters/isOverhead(aboveShoulders:trunk:)``) —
    /// refined between frames by the vertex of a parabola fitted around it. `nil` unless it is a swing's
    /// extreme: an interior maximum (not still rising at an end of the range), reached after the wrist came
    /// ``minReach`` or more forward (or up) over the preceding ``approach`` seconds, with the wrist's peak speed
    /// around it (``BiomechAnalyzer/peakSwingSpeed(posed:tc:parameters:)``) a stroke's
    /// (``BiomechParameters/soundDelayMinSwingCmS``).
    static func reach(posed: [FrameMeasure], from: Double, to: Double, parameters p: BiomechParameters) -> Double? {
        guard from <= to, !posed.isEmpty else { return nil }
        let first = BiomechAnalyzer.firstIndex(in: posed, atOrAfter: from - approach)
        let last = min(BiomechAnalyzer.firstIndex(in: posed, atOrAfter: to + 0.2), posed.count)
        guard last - first >= 3 else { return nil }
        let frames = Array(posed[first..<last])
        let inRange = frames.indices.filter { frames[$0].time >= from && frames[$0].time <= to }
        guard !inRange.isEmpty else { return nil }
        // Overhead when the highest wrist of the range is well above the shoulders there.
        let highest = inRange.max { frames[$0].wristUp < frames[$1].wristUp } ?? inRange[0]
        let overhead = p.isOverhead(aboveShoulders: frames[highest].wristUp - frames[highest].shoulderUp,
                                    trunk: frames[highest].trunk)
        let value: (FrameMeasure) -> Double = overhead ? { $0.wristUp } : { $0.forward }
        let j = overhead ? highest : (inRange.max { value(frames[$0]) < value(frames[$1]) } ?? inRange[0])
        guard j > 0, j + 1 < frames.count, value(frames[j - 1]) <= value(frames[j]),
              value(frames[j + 1]) <= value(frames[j]) else { return nil }
        let t1 = frames[j].time
        // The approach: the wrist came at least `minReach` forward (up) in the `approach` before the extreme.
        let lowest = frames[...j].filter { $0.time >= t1 - approach }.map(value).min() ?? value(frames[j])
        guard value(frames[j]) - lowest >= minReach else { return nil }
        guard let speed = BiomechAnalyzer.peakSwingSpeed(posed: posed, tc: t1, parameters: p),
              speed >= max(p.swingMinSpeedCmS, p.soundDelayMinSwingCmS) else { return nil }
        let reach = max(fitHalfWidth, frames[j + 1].time - t1, t1 - frames[j - 1].time) + 1e-9
        let points = frames.filter { abs($0.time - t1) <= reach }.map { ($0.time - t1, value($0) * 100) }
        guard let vertex = parabolaVertex(points) else { return t1 }
        return t1 + min(max(vertex, frames[j - 1].time - t1), frames[j + 1].time - t1)
    }

    /// A swing's extreme is reached after the wrist came at least this far forward (or up), metres…
    static let minReach = 0.10
    /// …within this many seconds before it.
    static let approach = 0.4

    /// Half-width of the parabola fitted around the fastest frame, seconds.
    static let fitHalfWidth = 0.05

    /// The vertex x of the least-squares parabola y = a x² + b x + c through `points`, `nil` when it does not
    /// open downwards (or fewer than three points determine it).
    static func parabolaVertex(_ points: [(Double, Double)]) -> Double? {
        guard points.count >= 3 else { return nil }
        // Normal equations of the three unknowns (x centred near 0 by the caller, so they are well conditioned).
        var s = [Double](repeating: 0, count: 5), r = [0.0, 0, 0]
        for (x, y) in points {
            var p = 1.0
            for n in 0..<5 { s[n] += p; if n < 3 { r[n] += p * y }; p *= x }
        }
        // | s4 s3 s2 | |a|   |r2|
        // | s3 s2 s1 | |b| = |r1|
        // | s2 s1 s0 | |c|   |r0|
        let m = [[s[4], s[3], s[2]], [s[3], s[2], s[1]], [s[2], s[1], s[0]]]
        func det(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let d = det(m)
        guard d != 0, d.isFinite else { return nil }
        let rhs = [r[2], r[1], r[0]]
        func replaced(_ col: Int) -> [[Double]] { m.enumerated().map { i, row in row.enumerated().map { c, v in c == col ? rhs[i] : v } } }
        let a = det(replaced(0)) / d, b = det(replaced(1)) / d
        guard a < 0 else { return nil }
        return -b / (2 * a)
    }

    static func median(_ values: [Double]) -> Double { BiomechAnalyzer.median(values) }
}
