import Foundation

/// MediaPipe's One Euro filter for one scalar (`mediapipe/util/filtering/one_euro_filter.cc`):
/// a low-pass filter whose cutoff rises with the (low-passed) speed of the signal.
struct OneEuroFilter: Sendable {
    let settings: OneEuroSettings
    /// Assumed rate until two timestamps are seen (MediaPipe's default `frequency`).
    private var frequency = 30.0
    private var lastTime: Double?
    private var lastRaw: Double?
    private var x: Double?
    private var dx: Double?

    init(_ settings: OneEuroSettings) { self.settings = settings }

    private func alpha(_ cutoff: Double) -> Double {
        let te = 1 / frequency, tau = 1 / (2 * Double.pi * cutoff)
        return 1 / (1 + tau / te)
    }

    /// Filters `value` observed at `time` (seconds); `valueScale` turns the speed into object units.
    mutating func apply(_ value: Double, time: Double, valueScale: Double) -> Double {
        if let last = lastTime {
            guard time > last else { return value }
            frequency = 1 / (time - last)
        }
        lastTime = time
        let d = lastRaw.map { (value - $0) * valueScale * frequency } ?? 0
        let ed = dx.map { $0 + alpha(settings.derivativeCutoff) * (d - $0) } ?? d
        dx = ed
        let cutoff = settings.minCutoff + settings.beta * abs(ed)
        let out = x.map { $0 + alpha(cutoff) * (value - $0) } ?? value
        x = out
        lastRaw = value
        return out
    }
}

/// One Euro filters for a list of 3D points (x, y, z each filtered separately).
struct PointListFilter: Sendable {
    let settings: OneEuroSettings
    private var filters: [OneEuroFilter] = []

    init(_ settings: OneEuroSettings) { self.settings = settings }

    mutating func reset() { filters = [] }

    /// - Parameter objectScale: the object's size in the points' units (used when the settings scale
    ///   by object size; a non-positive scale leaves the points unfiltered, as MediaPipe does).
    mutating func apply(_ points: [(Double, Double, Double)], time: Double, objectScale: Double) -> [(Double, Double, Double)] {
        var scale = 1.0
        if settings.scaleByObjectSize {
            guard objectScale > 1e-6 else { return points }
            scale = 1 / objectScale
        }
        if filters.count != points.count * 3 {
            filters = Array(repeating: OneEuroFilter(settings), count: points.count * 3)
        }
        return points.enumerated().map { i, p in
            (filters[3 * i].apply(p.0, time: time, valueScale: scale),
             filters[3 * i + 1].apply(p.1, time: time, valueScale: scale),
             filters[3 * i + 2].apply(p.2, time: time, valueScale: scale))
        }
    }
}
