import Foundation
import Dispatch

/// Envelope and noise-floor primitives. Each mirrors one numpy expression in
/// `tools/reference_contacts.py` so the two implementations stay comparable line by line.
enum Envelope {
    /// Centred moving average of odd width `width`; at the ends the window shrinks to the samples that
    /// exist (mean over what is there), which keeps the first and last impacts measurable.
    static func movingAverage(_ v: [Float], width: Int) -> [Float] {
        var out = v
        movingAverageInPlace(&out, width: width)
        return out
    }

    /// ``movingAverage(_:width:)`` computed in place: the values that leave the window are kept in a
    /// ring of `width / 2 + 1` samples instead of a second full-length array (a 10-minute track at 44.1 kHz
    /// is 106 MB per array). Results are identical to the out-of-place version. Long arrays run in pieces
    /// on separate threads; a short one is a single piece with nothing beyond its ends.
    static func movingAverageInPlace(_ v: inout [Float], width: Int) {
        v.withUnsafeMutableBufferPointer { movingAverageInPlace($0, width: width) }
    }

    /// ``movingAverageInPlace(_:width:)`` over a buffer (a region of a larger one: `s[0]` is its first sample).
    static func movingAverageInPlace(_ s: UnsafeMutableBufferPointer<Float>, width: Int) {
        let n = s.count
        guard n > 0 else { return }
        let half = max(0, width / 2)
        if n >= 1 << 16, n / Split.pieces > 4 * (half + 1) {
            movingAverageInPieces(s, half: half)
            return
        }
        averagePiece(s, half: half, lo: 0, hi: n, left: [], right: [])
    }

    /// ``movingAverageInPlace(_:width:)`` on a long array, in ``Split/pieces`` pieces on separate threads.
    /// Each piece needs the original values up to `half + 1` samples beyond its ends, which its
    /// neighbours overwrite: those halos are copied first. Each piece starts its own running sum, so
    /// results equal the one-thread pass to Float rounding (`EnvelopeTests`).
    private static func movingAverageInPieces(_ s: UnsafeMutableBufferPointer<Float>, half h: Int) {
        let n = s.count
        let bounds = (0...Split.pieces).map { n * $0 / Split.pieces }
        let halos: [(left: [Float], right: [Float])] = (0..<Split.pieces).map { k in
            let lo = bounds[k], hi = bounds[k + 1]
            return (Array(s[max(0, lo - h - 1)..<lo]), Array(s[hi..<min(n, hi + h)]))
        }
        let buffer = SendableBuffer(s)
        DispatchQueue.concurrentPerform(iterations: Split.pieces) { k in
            averagePiece(buffer.buffer, half: h, lo: bounds[k], hi: bounds[k + 1], left: halos[k].left, right: halos[k].right)
        }
    }

    /// The centred moving average of `s[lo..<hi]` in place; `left` holds the original values just
    /// before `lo` (from `max(0, lo − h − 1)`), `right` those from `hi` on (up to `h` of them).
    private static func averagePiece(_ s: UnsafeMutableBufferPointer<Float>, half h: Int, lo: Int, hi: Int,
                                     left: [Float], right: [Float]) {
        let n = s.count
        let leftStart = max(0, lo - h - 1)
        let ringSize = h + 1
        var ring = [Float](repeating: 0, count: ringSize)
        left.withUnsafeBufferPointer { l in
            right.withUnsafeBufferPointer { rt in
                ring.withUnsafeMutableBufferPointer { r in
                    // The original value at j when j is still unwritten (≥ the current index) or outside the piece;
                    // written ones come back from the ring.
                    @inline(__always) func ahead(_ j: Int) -> Double {
                        j >= n ? 0 : j >= hi ? Double(rt[j - hi]) : Double(s[j])
                    }
                    @inline(__always) func behind(_ j: Int) -> Double {
                        j < 0 ? 0 : j < lo ? Double(l[j - leftStart]) : Double(r[j % ringSize])
                    }
                    var sum = 0.0
                    for j in max(0, lo - 1 - h)..<lo { sum += Double(l[j - leftStart]) }
                    for j in lo..<min(n, lo + h) { sum += ahead(j) }
                    let inv = 1 / Double(2 * h + 1)
                    @inline(__always) func emit(_ i: Int) {
                        sum += ahead(i + h)
                        sum -= behind(i - h - 1)
                        r[i % ringSize] = s[i]
                        let count = min(n, i + h + 1) - max(0, i - h)
                        s[i] = Float(count == 2 * h + 1 ? max(0, sum) * inv : max(0, sum) / Double(count))
                    }
                    // Head (what leaves the window is before the piece), a branch-free middle, tail.
                    let middleStart = min(hi, lo + h + 1), middleEnd = max(middleStart, hi - h)
                    for i in lo..<middleStart { emit(i) }
                    var write = middleStart % ringSize, read = (middleStart - h - 1) % ringSize
                    for i in middleStart..<middleEnd {
                        sum += Double(s[i + h]) - Double(r[read])
                        r[write] = s[i]
                        s[i] = Float(max(0, sum) * inv)
                        write += 1; if write == ringSize { write = 0 }
                        read += 1; if read == ringSize { read = 0 }
                    }
                    for i in middleEnd..<hi { emit(i) }
                }
            }
        }
    }

    /// The envelope of a band-passed signal per ``EnvelopeMode`` and the number of smoothing passes.
    static func envelope(_ y: [Float], mode: EnvelopeMode, width: Int, passes: Int) -> [Float] {
        // Written by two threads: the fresh pages fault in on both cores (see ZeroPhaseFilter.apply).
        var v = [Float](unsafeUninitializedCapacity: y.count) { d, initialized in
            y.withUnsafeBufferPointer { rectify($0, into: d, mode: mode) }
            initialized = y.count
        }
        v.withUnsafeMutableBufferPointer { smooth($0, mode: mode, width: width, passes: passes) }
        return v
    }

    /// ``envelope(_:mode:width:passes:)`` in place: `v` holds the band-passed signal and becomes its
    /// envelope, equal bit for bit (no second full-length array).
    static func envelopeInPlace(_ v: UnsafeMutableBufferPointer<Float>, mode: EnvelopeMode, width: Int, passes: Int) {
        envelope(UnsafeBufferPointer(v), into: v, mode: mode, width: width, passes: passes)
    }

    /// ``envelope(_:mode:width:passes:)`` of `y` written into `v` (as long as `y`, or `y` itself).
    static func envelope(_ y: UnsafeBufferPointer<Float>, into v: UnsafeMutableBufferPointer<Float>, mode: EnvelopeMode,
                         width: Int, passes: Int) {
        rectify(y, into: v, mode: mode)
        smooth(v, mode: mode, width: width, passes: passes)
    }

    /// `d[i] = |s[i]|` (or `s[i]²` for ``EnvelopeMode/rms``), on two threads for long signals; `d` may be `s`.
    private static func rectify(_ s: UnsafeBufferPointer<Float>, into d: UnsafeMutableBufferPointer<Float>, mode: EnvelopeMode) {
        let target = SendableBuffer(d), source = SendableBuffer(UnsafeMutableBufferPointer(mutating: s))
        Split.ranges(s.count, pieces: s.count >= 1 << 16 ? Split.pieces : 1) { r in
            let s = source.buffer, d = target.buffer
            if mode == .rms { for i in r { d[i] = s[i] * s[i] } } else { for i in r { d[i] = abs(s[i]) } }
        }
    }

    private static func smooth(_ v: UnsafeMutableBufferPointer<Float>, mode: EnvelopeMode, width: Int, passes: Int) {
        for _ in 0..<max(1, passes) { movingAverageInPlace(v, width: width) }
        if mode == .rms {
            for i in v.indices { v[i] = v[i].squareRoot() }
        }
    }

    /// numpy's default ("linear") percentile of `values` (which it reorders).
    static func percentile(_ values: inout [Float], _ q: Double) -> Double {
        let n = values.count
        guard n > 0 else { return 0 }
        let pos = q / 100 * Double(n - 1)
        let k = Int(pos.rounded(.down))
        let frac = pos - Double(k)
        let lower = Double(select(&values, k))
        guard frac > 0, k + 1 < n else { return lower }
        // After select, everything right of k is ≥ the k-th value: the next order statistic is their minimum.
        var upper = Float.greatestFiniteMagnitude
        for i in (k + 1)..<n where values[i] < upper { upper = values[i] }
        return lower + frac * (Double(upper) - lower)
    }

    /// Quickselect (Hoare partition, median-of-three pivot): puts the k-th smallest at index k.
    private static func select(_ a: inout [Float], _ k: Int) -> Float {
        a.withUnsafeMutableBufferPointer { b in
            var lo = 0, hi = b.count - 1
            while hi > lo {
                let mid = lo + (hi - lo) / 2
                if b[mid] < b[lo] { b.swapAt(mid, lo) }
                if b[hi] < b[lo] { b.swapAt(hi, lo) }
                if b[hi] < b[mid] { b.swapAt(hi, mid) }
                let pivot = b[mid]
                var i = lo, j = hi
                while i <= j {
                    while b[i] < pivot { i += 1 }
                    while b[j] > pivot { j -= 1 }
                    if i <= j { b.swapAt(i, j); i += 1; j -= 1 }
                }
                if k <= j { hi = j } else if k >= i { lo = i } else { break }
            }
            return b[k]
        }
    }

    /// Sliding-percentile noise floor, evaluated at centres `0, hop, 2·hop, …` over the envelope sampled
    /// every `decimation` samples within ±window/2, then linearly interpolated (held flat past the ends).
    /// - Returns: `(centres, values)`; ``floor(at:_:hop:)`` interpolates.
    static func noiseFloor(_ env: [Float], decimation: Int, window: Int, hop: Int, percentile q: Double)
        -> (centres: [Int], values: [Double])
    {
        env.withUnsafeBufferPointer { noiseFloor($0, decimation: decimation, window: window, hop: hop, percentile: q) }
    }

    /// ``noiseFloor(_:decimation:window:hop:percentile:)`` of an envelope held in a buffer.
    static func noiseFloor(_ env: UnsafeBufferPointer<Float>, decimation: Int, window: Int, hop: Int, percentile q: Double)
        -> (centres: [Int], values: [Double])
    {
        let n = env.count
        guard n > 0 else { return ([], []) }
        let d = max(1, decimation), hop = max(1, hop), half = window / 2
        let dec = stride(from: 0, to: n, by: d).map { env[$0] }
        let centres = Array(stride(from: 0, through: n - 1, by: hop))
        // Each centre's percentile is its own; long envelopes share the centres between threads.
        var values = [Double](repeating: 0, count: centres.count)
        values.withUnsafeMutableBufferPointer { out in
            let target = SendableBuffer(out)
            Split.ranges(centres.count, pieces: centres.count >= 256 ? Split.pieces : 1) { r in
                var scratch: [Float] = []
                for k in r {
                    let c = centres[k]
                    // Decimated indices j with j·d inside [c − half, c + half].
                    let jlo = max(0, (c - half + d - 1) >= 0 ? (c - half + d - 1) / d : 0)
                    let jhi = min(dec.count - 1, (c + half) / d)
                    scratch.removeAll(keepingCapacity: true)
                    if jhi >= jlo { scratch.append(contentsOf: dec[jlo...jhi]) }
                    target.buffer[k] = percentile(&scratch, q)
                }
            }
        }
        return (centres, values)
    }

    /// The noise floor at sample `i`: linear between the centres of `floor` (spaced `hop` apart), held
    /// flat past the last (numpy's `interp`).
    static func floor(at i: Int, _ floor: (centres: [Int], values: [Double]), hop: Int) -> Double {
        let k = i / hop
        guard k + 1 < floor.values.count else { return floor.values.last ?? 0 }
        let t = Double(i - floor.centres[k]) / Double(hop)
        return floor.values[k] + t * (floor.values[k + 1] - floor.values[k])
    }
}
