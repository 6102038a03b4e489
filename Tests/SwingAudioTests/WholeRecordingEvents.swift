import Foundation
@testable import SwingAudio

/// The sound events as `SoundEvents.extract` computed them up to 90a1f28, the definition written out: every
/// band filtered over the whole recording, three whole ratio arrays, every window summed sample by sample.
/// `SoundEventWindowTests` holds the lean version to it.
enum WholeRecordingEvents {
    static let bands = SoundEvents.bands
    static let background = SoundEvents.background, event = SoundEvents.event, attack = SoundEvents.attack, after = SoundEvents.after
    static let minimumRatio = SoundEvents.minimumRatio, merge = SoundEvents.merge, neighbourhood = SoundEvents.neighbourhood

    static func extract(samples x: [Float], sampleRate fs: Double) -> [SoundEvent] {
        let n = x.count
        guard Double(n) > 0.3 * fs else { return [] }

        let wide = bandPass(x, fs, 300, 0.45 * fs, order: 2)
        let ratios = [overFloor(envelope(bandPass(x, fs, 1000, 4000, order: 4), fs, ms: 5, passes: 2), fs),
                      overFloor(envelope(bandPass(x, fs, 2000, 8000, order: 4), fs, ms: 5, passes: 2), fs),
                      overFloor(envelope(wide, fs, ms: 2, passes: 1), fs)]
        let radius = Int(neighbourhood * fs)
        let picked = Set(ratios.flatMap { localMaxima($0, radius: radius, above: minimumRatio) }).sorted()
        func strength(_ i: Int) -> Float { ratios[0][i] + ratios[1][i] + ratios[2][i] }
        var merged: [Int] = []
        for i in picked {
            if let last = merged.last, Double(i - last) < merge * fs {
                if strength(i) > strength(last) { merged[merged.count - 1] = i }
            } else {
                merged.append(i)
            }
        }
        let index = merged.filter { Double($0) > 0.15 * fs && Double($0) < Double(n) - 0.1 * fs }
        guard !index.isEmpty else { return [] }

        var rows = [[Double]](repeating: [], count: index.count)
        var levels = [[Double]](repeating: [], count: index.count)
        for b in bands {
            let y = bandPass(x, fs, b.low, b.high, order: 4)
            for (k, i) in index.enumerated() {
                let bg = meanSquare(y, i, background, fs)
                rows[k] += [event, attack, after].map { 10 * log10(meanSquare(y, i, $0, fs) / bg) }
                levels[k].append(10 * log10(meanSquare(y, i, event, fs)))
            }
        }
        for (k, i) in index.enumerated() {
            let loudest = levels[k].max() ?? 0
            rows[k] += levels[k].map { $0 - loudest }
            let ev = (i + Int(-0.012 * fs))..<(i + Int(0.020 * fs)), bg = (i + Int(-0.130 * fs))..<(i + Int(-0.030 * fs))
            rows[k].append(20 * log10((peak(wide, ev) + 1e-12) / (peak(wide, bg) + 1e-12)))
            rows[k].append(10 * log10(meanSquare(wide, i, event, fs) / meanSquare(wide, i, background, fs)))
            rows[k] += ratios.map { log(Double($0[i]) + 1e-6) }
        }
        // The recording's own ranking of its events (ties by time), 0 = lowest, 1 = highest.
        let wideContrast = 4 * bands.count + 1, wideRatio = 4 * bands.count + 4
        for column in [wideContrast, wideRatio] {
            let order = rows.indices.sorted { (rows[$0][column], $0) < (rows[$1][column], $1) }
            var rank = [Double](repeating: 0, count: rows.count)
            for (r, k) in order.enumerated() { rank[k] = Double(r) / Double(max(1, rows.count - 1)) }
            for k in rows.indices { rows[k].append(rank[k]) }
        }
        return zip(index, rows).map { i, row in
            SoundEvent(time: Double(i) / fs, features: row.map { $0.isFinite ? Float($0) : 0 })
        }
    }

    /// Zero-phase Butterworth band-pass (upper corner capped at 0.45·fs); silence when the band closes.
    static func bandPass(_ x: [Float], _ fs: Double, _ low: Double, _ high: Double, order: Int) -> [Float] {
        let high = min(high, 0.45 * fs)
        guard high > 1.2 * low else { return [Float](repeating: 0, count: x.count) }
        return ZeroPhaseFilter(sections: Butterworth.bandPass(order: order, lowHz: low, highHz: high, sampleRate: fs)).apply(x)
    }

    static func envelope(_ y: [Float], _ fs: Double, ms: Double, passes: Int) -> [Float] {
        var width = Int((ms / 1000 * fs).rounded())
        if width % 2 == 0 { width += 1 }
        return Envelope.envelope(y, mode: .rectified, width: width, passes: passes)
    }

    /// The envelope over its running median (the contact detector's floor with its default settings).
    static func overFloor(_ env: [Float], _ fs: Double) -> [Float] {
        let p = ContactDetectorParameters.default
        func samples(_ ms: Double) -> Int { Int((ms / 1000 * fs).rounded()) }
        let hop = max(1, samples(p.noiseFloorHopSeconds * 1000))
        let floor = Envelope.noiseFloor(env, decimation: max(1, samples(p.noiseFloorDecimationMs)),
                                        window: samples(p.noiseFloorWindowSeconds * 1000), hop: hop,
                                        percentile: p.noiseFloorPercentile)
        var out = env
        for i in out.indices { out[i] = Float(Double(env[i]) / max(Envelope.floor(at: i, floor, hop: hop), 1e-30)) }
        return out
    }

    /// Indices where `v` is above `level` and the largest within ±`radius` (equal neighbours allowed), in
    /// one pass with a monotonic queue.
    static func localMaxima(_ v: [Float], radius: Int, above level: Float) -> [Int] {
        let n = v.count
        var out: [Int] = []
        var queue = [Int](repeating: 0, count: n + 1)  // indices with decreasing values
        var head = 0, tail = 0, next = 0
        for i in 0..<n {
            // The window i−radius…i+radius: push up to its right end, drop what fell off its left.
            while next < n, next <= i + radius {
                while tail > head, v[queue[tail - 1]] <= v[next] { tail -= 1 }
                queue[tail] = next; tail += 1; next += 1
            }
            while queue[head] < i - radius { head += 1 }
            if v[i] > level, v[i] == v[queue[head]] { out.append(i) }
        }
        return out
    }

    /// Mean square of `y` over the window `w` (ms) around sample `i`, plus 1e-20 (so a silent band is 0 dB).
    static func meanSquare(_ y: [Float], _ i: Int, _ w: (Double, Double), _ fs: Double) -> Double {
        let a = i + Int(w.0 / 1000 * fs), b = i + Int(w.1 / 1000 * fs)
        var sum = 0.0
        for j in a..<b { sum += Double(y[j]) * Double(y[j]) }
        return sum / Double(b - a) + 1e-20
    }

    static func peak(_ y: [Float], _ r: Range<Int>) -> Double {
        var m: Float = 0
        for j in r { m = max(m, abs(y[j])) }
        return Double(m)
    }
}
