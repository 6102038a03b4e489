import Dispatch
import Foundation

/// Zero-phase forward–backward filtering of a second-order-section cascade, matching
/// `scipy.signal.sosfiltfilt(sos, x)` with its defaults: odd extension of
/// `padlen = 3·(2·sections + 1 − min(#(b2 == 0), #(a2 == 0)))` samples at each end and initial
/// conditions from `sosfilt_zi` scaled by the first sample of each pass.
///
/// We chose `sosfiltfilt` over `filtfilt` on (b, a): an 8-pole band-pass in transfer-function form
/// loses most of its precision to coefficient rounding; sections do not.
package struct ZeroPhaseFilter: Sendable {
    /// The cascade.
    package let sections: [Biquad]

    /// Creates a filter for the given sections.
    package init(sections: [Biquad]) { self.sections = sections }

    /// Samples of odd extension on each side (scipy's default `padlen`).
    package var padLength: Int {
        let b2zero = sections.filter { $0.b2 == 0 }.count
        let a2zero = sections.filter { $0.a2 == 0 }.count
        return 3 * (2 * sections.count + 1 - min(b2zero, a2zero))
    }

    /// Samples over which a pass forgets where it started: twice the count over which the slowest pole
    /// (radius r) decays to 1e-13 (r^count = 1e-13). Filtering a segment padded by this much on each side
    /// gives, inside the padding, the whole signal's output to Float rounding: a pass seeded from the
    /// segment's edge instead of the signal's past differs by a sum of the cascade's decaying modes, each
    /// at most r^distance of that difference (`SoundEventWindowTests` checks it from 8 to 48 kHz).
    var settlingSamples: Int {
        var radius = 0.0
        for s in sections {
            let disc = s.a1 * s.a1 - 4 * s.a2
            let r = disc < 0 ? s.a2.squareRoot() : (abs(s.a1) + disc.squareRoot()) / 2
            radius = max(radius, r)
        }
        guard radius > 1e-6 else { return 1 }
        guard radius < 1 else { return 1 << 22 }  // not a stable filter: no segment is enough
        return min(1 << 22, 2 * Int((log(1e-13) / log(radius)).rounded(.up)))
    }

    /// Filters `x` forward and backward.
    /// - Parameters:
    ///   - x: the signal; must be longer than ``padLength`` (shorter input returns zeros, where scipy raises).
    ///   - progress: called with the fraction done (0…1), from the calling thread.
    /// - Returns: the zero-phase output, same length as `x`. Arithmetic is Double; storage Float32.
    package func apply(_ x: [Float], progress: ((Double) -> Void)? = nil) -> [Float] {
        apply(x, allowLanes: true, progress: progress)
    }

    /// The same without the lane-parallel path (tests compare the two).
    func applySequential(_ x: [Float]) -> [Float] { apply(x, allowLanes: false, progress: nil) }

    private func apply(_ x: [Float], allowLanes: Bool, progress: ((Double) -> Void)?) -> [Float] {
        let n = x.count
        let pad = padLength
        guard n > pad, !sections.isEmpty else { return [Float](repeating: 0, count: n) }
        let m = n + 2 * pad
        var ext = [Float](unsafeUninitializedCapacity: m) { e, initialized in
            x.withUnsafeBufferPointer { extend($0, into: e, allowLanes: allowLanes) }
            initialized = m
        }
        ext.withUnsafeMutableBufferPointer { e in passes(e, allowLanes: allowLanes, progress: progress) }
        // Drop the padding in place (a memmove) rather than copying the middle into a new array:
        // at 10 minutes of 44.1 kHz audio that copy is another 106 MB at the memory peak.
        ext.removeLast(pad)
        ext.removeFirst(pad)
        return ext
    }

    /// ``apply(_:progress:)`` into `buffer`, which callers reuse between filters: a fresh 100-MB array
    /// faults in every page it touches, twice the filter's own time on a 10-minute file. `buffer` grows
    /// when it is too short; the output is `buffer[range]`, equal to `apply(x)` bit for bit.
    func apply(_ x: UnsafeBufferPointer<Float>, into buffer: inout [Float]) -> Range<Int> {
        let n = x.count
        let pad = padLength
        if buffer.count < n + 2 * pad {
            buffer = [Float](unsafeUninitializedCapacity: n + 2 * pad) { _, initialized in initialized = n + 2 * pad }
        }
        guard n > pad, !sections.isEmpty else {
            buffer.withUnsafeMutableBufferPointer { $0[0..<n].initialize(repeating: 0) }
            return 0..<n
        }
        buffer.withUnsafeMutableBufferPointer { b in
            let e = UnsafeMutableBufferPointer(rebasing: b[0..<(n + 2 * pad)])
            extend(x, into: e, allowLanes: true)
            passes(e, allowLanes: true, progress: nil)
        }
        return pad..<(pad + n)
    }

    /// Writes `x` with ``padLength`` samples of odd extension on each side into `e` (`x.count + 2·pad` long).
    private func extend(_ s: UnsafeBufferPointer<Float>, into e: UnsafeMutableBufferPointer<Float>, allowLanes: Bool) {
        let n = s.count, pad = padLength
        let first = 2 * s[0], last = 2 * s[n - 1]
        for i in 0..<pad {
            e[i] = first - s[pad - i]           // 2·x0 − x[pad…1]
            e[pad + n + i] = last - s[n - 2 - i]  // 2·x_{n−1} − x[n−2…n−1−pad]
        }
        // Filled by two threads: the kernel zeroes every fresh page on first touch, and at 10 minutes of
        // audio that is a quarter of `contacts`' time on our VM; two cores fault in the halves at once.
        let target = SendableBuffer(e), source = SendableBuffer(UnsafeMutableBufferPointer(mutating: s))
        Split.ranges(n, pieces: allowLanes && n >= 1 << 16 ? Split.pieces : 1) { r in
            _ = UnsafeMutableBufferPointer(rebasing: target.buffer[(pad + r.lowerBound)..<(pad + r.upperBound)])
                .initialize(from: UnsafeBufferPointer(rebasing: source.buffer[r]))
        }
    }

    /// The forward and the backward pass over the extended signal, in place.
    private func passes(_ e: UnsafeMutableBufferPointer<Float>, allowLanes: Bool, progress: ((Double) -> Void)?) {
        run(e, reverse: false, allowLanes: allowLanes) { progress?(0.5 * $0) }
        run(e, reverse: true, allowLanes: allowLanes) { progress?(0.5 + 0.5 * $0) }
    }

    /// One causal pass in place (reverse = walk from the end), seeded with `sosfilt_zi · first sample`.
    private func run(_ buf: UnsafeMutableBufferPointer<Float>, reverse: Bool, allowLanes: Bool, progress: (Double) -> Void) {
        guard let base = buf.baseAddress, buf.count > 0 else { return }
        let count = buf.count
        let x0 = Double(reverse ? buf[count - 1] : buf[0])
        var states: [(Double, Double)] = []
        var scale = 1.0
        for s in sections {
            let zi = s.stepState
            states.append((zi.0 * scale * x0, zi.1 * scale * x0))
            scale *= s.dcGain
        }
        if allowLanes, LaneFilter.worthIt(count: count) {
            var k = 0
            while k < sections.count {
                let g = min(4, sections.count - k)
                let share = Double(g) / Double(sections.count), before = Double(k) / Double(sections.count)
                Self.runLanes(group: sections[k..<(k + g)], base, count: count, reverse: reverse,
                              initial: Array(states[k..<(k + g)])) { progress(before + share * $0) }
                k += g
            }
            return
        }
        // Sections are fused four (or two, or one) at a time: each sample then feeds independent
        // recursions the CPU can overlap, instead of one latency-bound chain per pass over memory.
        let chunk = 1 << 20
        var done = 0
        while done < count {
            let len = min(chunk, count - done)
            let start = reverse ? base + (count - 1 - done) : base + done
            let step = reverse ? -1 : 1
            var k = 0
            while k < sections.count {
                let remaining = sections.count - k
                if remaining >= 4 {
                    Kernels.quad(start, len, step, sections, k, &states)
                    k += 4
                } else if remaining >= 2 {
                    Kernels.pair(start, len, step, sections, k, &states)
                    k += 2
                } else {
                    Kernels.single(start, len, step, sections[k], &states[k])
                    k += 1
                }
            }
            done += len
            progress(Double(done) / Double(count))
        }
    }
}

extension ZeroPhaseFilter {
    /// A pass pointer handed to the worker threads; each writes only its own piece.
    private struct Piece: @unchecked Sendable {
        let base: UnsafeMutablePointer<Float>
        let count: Int
        let lead: [Float]?
    }

    /// One section group over the whole pass with ``LaneFilter``: in ``Split/pieces`` pieces on separate
    /// threads when each piece is long enough for the lane split. Every piece after the first warms up on
    /// the `warmUp` samples before it (copied first, since the piece before overwrites them), exactly as
    /// lanes 1–3 do, so the output equals one sequential pass to Float rounding (`FilterTests`).
    static func runLanes(group: ArraySlice<Biquad>, _ base: UnsafeMutablePointer<Float>, count: Int, reverse: Bool,
                         initial: [(Double, Double)], progress: (Double) -> Void) {
        let pieces = LaneFilter.worthIt(count: count / Split.pieces) ? Split.pieces : 1
        guard pieces > 1 else {
            let lanes = LaneFilter(group: group)
            lanes.run(base, count: count, reverse: reverse, initial: initial, progress: progress)
            return
        }
        // Piece `p` covers pass indices [starts[p], starts[p + 1]); in memory a reversed pass runs from the end.
        let starts = (0...pieces).map { count * $0 / pieces }
        let work: [Piece] = (0..<pieces).map { p in
            let n = starts[p + 1] - starts[p]
            let lowest = reverse ? base + (count - starts[p + 1]) : base + starts[p]
            let lead: [Float]? = p == 0 ? nil : (0..<LaneFilter.warmUp).map { t in
                let i = starts[p] - LaneFilter.warmUp + t
                return (reverse ? base + (count - 1 - i) : base + i).pointee
            }
            return Piece(base: lowest, count: n, lead: lead)
        }
        let sections = Array(group)
        DispatchQueue.concurrentPerform(iterations: pieces) { p in
            let lanes = LaneFilter(group: sections[...])
            let piece = work[p]
            lanes.run(piece.base, count: piece.count, reverse: reverse, initial: p == 0 ? initial : [],
                      lead: piece.lead) { _ in }
        }
        progress(1)
    }
}

/// DF-II-transposed kernels over a strided Float buffer (same recurrence as scipy's `_sosfilt`).
///
/// Deliberately unrolled: `pair` and `quad` are `single` applied to 2 and 4 cascaded sections in one pass,
/// so each sample stays in registers through the cascade (one memory pass instead of 2 or 4; the filter is
/// most of `contacts`' time). `FilterTests` checks them against scipy.
enum Kernels {
    @inline(__always)
    static func single(_ p: UnsafeMutablePointer<Float>, _ n: Int, _ step: Int, _ s: Biquad, _ st: inout (Double, Double)) {
        var (z0, z1) = st
        var q = p
        for _ in 0..<n {
            let x = Double(q.pointee)
            let y = s.b0 * x + z0
            z0 = s.b1 * x - s.a1 * y + z1
            z1 = s.b2 * x - s.a2 * y
            q.pointee = Float(y)
            q += step
        }
        st = (z0, z1)
    }

    static func pair(_ p: UnsafeMutablePointer<Float>, _ n: Int, _ step: Int, _ ss: [Biquad], _ k: Int,
                     _ states: inout [(Double, Double)]) {
        let a = ss[k], b = ss[k + 1]
        var (a0, a1) = states[k], (c0, c1) = states[k + 1]
        var q = p
        for _ in 0..<n {
            let x = Double(q.pointee)
            let y = a.b0 * x + a0
            a0 = a.b1 * x - a.a1 * y + a1
            a1 = a.b2 * x - a.a2 * y
            let w = b.b0 * y + c0
            c0 = b.b1 * y - b.a1 * w + c1
            c1 = b.b2 * y - b.a2 * w
            q.pointee = Float(w)
            q += step
        }
        states[k] = (a0, a1)
        states[k + 1] = (c0, c1)
    }

    static func quad(_ p: UnsafeMutablePointer<Float>, _ n: Int, _ step: Int, _ ss: [Biquad], _ k: Int,
                     _ states: inout [(Double, Double)]) {
        let a = ss[k], b = ss[k + 1], c = ss[k + 2], d = ss[k + 3]
        var (a0, a1) = states[k], (b0, b1) = states[k + 1], (c0, c1) = states[k + 2], (d0, d1) = states[k + 3]
        var q = p
        for _ in 0..<n {
            let x = Double(q.pointee)
            let y1 = a.b0 * x + a0
            a0 = a.b1 * x - a.a1 * y1 + a1
            a1 = a.b2 * x - a.a2 * y1
            let y2 = b.b0 * y1 + b0
            b0 = b.b1 * y1 - b.a1 * y2 + b1
            b1 = b.b2 * y1 - b.a2 * y2
            let y3 = c.b0 * y2 + c0
            c0 = c.b1 * y2 - c.a1 * y3 + c1
            c1 = c.b2 * y2 - c.a2 * y3
            let y4 = d.b0 * y3 + d0
            d0 = d.b1 * y3 - d.a1 * y4 + d1
            d1 = d.b2 * y3 - d.a2 * y4
            q.pointee = Float(y4)
            q += step
        }
        states[k] = (a0, a1); states[k + 1] = (b0, b1); states[k + 2] = (c0, c1); states[k + 3] = (d0, d1)
    }
}
