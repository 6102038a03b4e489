import Foundation

/// One of the three envelopes whose peaks mark ``SoundEvents``: a zero-phase band-pass of the recording,
/// its rectified moving average, over its running median (the contact detector's floor with its default
/// settings). Each is computed in one reused buffer, in place, so a 10-minute recording holds one such
/// array at a time instead of three (the ratios were 318 MB of `contacts --contact-model`'s 785).
struct EventEnvelope: Sendable {
    /// Nil when the band closes at this sample rate: the band is silent.
    let filter: ZeroPhaseFilter?
    /// Moving-average width (odd) and passes.
    let width: Int, passes: Int
    let sampleRate: Double

    init(lowHz: Double, highHz: Double, order: Int, ms: Double, passes: Int, sampleRate fs: Double) {
        filter = SoundEvents.bandFilter(fs, lowHz, highHz, order: order)
        var w = Int((ms / 1000 * fs).rounded())
        if w % 2 == 0 { w += 1 }
        width = w
        self.passes = passes
        sampleRate = fs
    }

    /// How far from a sample its envelope reaches: `passes` moving averages of half-width `width / 2`.
    var reach: Int { passes * (width / 2) }

    /// The noise floor of an envelope, interpolated between centres `hop` apart (``Envelope/noiseFloor(_:decimation:window:hop:percentile:)``).
    struct Floor: Sendable {
        let centres: [Int], values: [Double], hop: Int
        /// ``Envelope/floor(at:_:hop:)``.
        func at(_ i: Int) -> Double { Envelope.floor(at: i, (centres, values), hop: hop) }
    }

    /// The band-passed recording into `buffer` (reused between bands), or silence when the band closes.
    func bandPass(_ x: UnsafeBufferPointer<Float>, into buffer: inout [Float]) -> Range<Int> {
        SoundEvents.bandPass(x, filter, into: &buffer)
    }

    /// Turns the band-passed signal in `v` into its envelope over its floor, in place; returns the floor.
    /// With `band`, the band-passed signal is read from there instead (and left as it is).
    func ratiosInPlace(_ v: UnsafeMutableBufferPointer<Float>, band: UnsafeBufferPointer<Float>? = nil) -> Floor {
        let p = ContactDetectorParameters.default
        func samples(_ ms: Double) -> Int { Int((ms / 1000 * sampleRate).rounded()) }
        Envelope.envelope(band ?? UnsafeBufferPointer(v), into: v, mode: .rectified, width: width, passes: passes)
        let hop = max(1, samples(p.noiseFloorHopSeconds * 1000))
        let f = Envelope.noiseFloor(UnsafeBufferPointer(v), decimation: max(1, samples(p.noiseFloorDecimationMs)),
                                    window: samples(p.noiseFloorWindowSeconds * 1000), hop: hop,
                                    percentile: p.noiseFloorPercentile)
        let floor = Floor(centres: f.centres, values: f.values, hop: hop)
        let target = SendableBuffer(v)
        Split.ranges(v.count, pieces: v.count >= 1 << 16 ? Split.pieces : 1) { r in
            Self.divide(target.buffer, r, by: floor)
        }
        return floor
    }

    /// `v[i] = v[i] / max(floor(i), 1e-30)` over `r`, hop by hop (the same arithmetic as ``Floor/at(_:)``,
    /// with its `t = (i − centre) / hop` looked up: the same for every hop).
    private static func divide(_ v: UnsafeMutableBufferPointer<Float>, _ r: Range<Int>, by floor: Floor) {
        let hop = floor.hop, values = floor.values, centres = floor.centres
        let fraction = (0..<hop).map { Double($0) / Double(hop) }
        fraction.withUnsafeBufferPointer { t in
            var i = r.lowerBound
            while i < r.upperBound {
                let k = i / hop, end = min(r.upperBound, (k + 1) * hop)
                if k + 1 < values.count {
                    let c = centres[k], v0 = values[k], dv = values[k + 1] - values[k]
                    for j in i..<end { v[j] = Float(Double(v[j]) / max(v0 + t[j - c] * dv, 1e-30)) }
                } else {
                    let last = values.last ?? 0
                    for j in i..<end { v[j] = Float(Double(v[j]) / max(last, 1e-30)) }
                }
                i = end
            }
        }
    }

    /// The ratio at sample `i` of an `n`-sample recording from the band-passed samples `y`, which hold
    /// samples `start…` of the recording and cover `i ± reach` (clipped to the recording). The local moving
    /// averages clip where the recording does, so the value is the whole recording's to Float rounding.
    func ratio(at i: Int, band y: UnsafeBufferPointer<Float>, start: Int, n: Int, floor: Floor) -> Float {
        let a = max(0, i - reach), b = min(n, i + reach + 1)
        var local = (a..<b).map { abs(y[$0 - start]) }
        local.withUnsafeMutableBufferPointer { l in
            for _ in 0..<max(1, passes) { Envelope.movingAverageInPlace(l, width: width) }
        }
        return Float(Double(local[i - a]) / max(floor.at(i), 1e-30))
    }

    /// Ratios at `indices` (sorted) from the recording itself: each run of nearby indices filters its own
    /// padded segment (``ZeroPhaseFilter/settlingSamples`` beyond the envelope's reach on each side), whose
    /// output there equals the whole recording's to Float rounding (`SoundEventWindowTests`).
    func ratios(at indices: [Int], samples x: UnsafeBufferPointer<Float>, floor: Floor) -> [Float] {
        guard let filter else { return indices.map { _ in 0 } }
        let n = x.count, margin = reach + filter.settlingSamples
        var out: [Float] = []
        out.reserveCapacity(indices.count)
        var k = 0
        while k < indices.count {
            var last = k
            while last + 1 < indices.count, indices[last + 1] - indices[last] <= 2 * margin { last += 1 }
            let lo = max(0, indices[k] - margin), hi = min(n, indices[last] + margin + 1)
            let y = filter.apply(Array(x[lo..<hi]))
            y.withUnsafeBufferPointer { y in
                for j in k...last { out.append(ratio(at: indices[j], band: y, start: lo, n: n, floor: floor)) }
            }
            k = last + 1
        }
        return out
    }
}
