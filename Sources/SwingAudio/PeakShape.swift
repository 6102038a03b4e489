/// One measured envelope peak (indices are fractional sample positions).
struct MeasuredPeak: Sendable {
    var peakIndex: Int
    var height: Double
    var prominence: Double
    var leftCrossing: Double
    var rightCrossing: Double
    /// Leading-edge crossing of ``ContactDetectorParameters/onsetLevel`` of the rise (the reported onset).
    var onsetCrossing: Double
    var floor: Double
}

/// Peak finding and shape measurement on the envelope (mirrors `find_peaks`/`measure` in the Python reference).
enum PeakShape {
    /// Indices of candidate maxima above `threshold(i)`.
    ///
    /// `localMaxima`: `env[i−1] < env[i] ≥ env[i+1]` (the first sample of a plateau).
    /// `prominence`: additionally `env[i]` is the maximum of `[i − r, i + r]` and strictly greater than
    /// everything on its left inside it — one candidate per event however much the envelope ripples.
    static func candidates(_ env: [Float], threshold: (Int) -> Double, picking: PeakPicking, radius r: Int) -> [Int] {
        let n = env.count
        guard n >= 3 else { return [] }
        var out: [Int] = []
        env.withUnsafeBufferPointer { e in
            for i in 1..<(n - 1) {
                let v = e[i]
                guard v > e[i - 1], v >= e[i + 1] else { continue }
                guard Double(v) > threshold(i) else { continue }
                if picking == .prominence {
                    var dominant = true
                    let lo = max(0, i - r), hi = min(n - 1, i + r)
                    for j in lo..<i where e[j] >= v { dominant = false; break }
                    if dominant { for j in (i + 1)...hi where e[j] > v { dominant = false; break } }
                    guard dominant else { continue }
                }
                out.append(i)
            }
        }
        return out
    }

    /// Height, prominence (scipy definition inside ±`window`), and the left/right crossings of the
    /// reference level: half the prominence below the peak (`prominence` picking) or half the peak
    /// height (`localMaxima`, the literal FWHM). Crossings are linearly interpolated; if the level is not
    /// reached inside the window, the window edge is used (which makes the peak too wide to pass).
    ///
    /// The onset is the leading-edge crossing of `base + (h − base) × onsetLevel`
    /// (``ContactDetectorParameters/onsetLevel``): low enough to walk back through the ripples of a hit
    /// that builds over several transients to where its rise starts.
    static func measure(_ env: [Float], peak p: Int, picking: PeakPicking, onsetLevel: Double, window w: Int,
                        floor: Double) -> MeasuredPeak {
        let n = env.count
        let h = Double(env[p])
        let lo = max(0, p - w), hi = min(n - 1, p + w)
        var leftMin = h
        var j = p - 1
        while j >= lo, Double(env[j]) <= h { leftMin = min(leftMin, Double(env[j])); j -= 1 }
        var rightMin = h
        j = p + 1
        while j <= hi, Double(env[j]) <= h { rightMin = min(rightMin, Double(env[j])); j += 1 }
        let prominence = h - max(leftMin, rightMin)
        let level = picking == .prominence ? h - prominence / 2 : h / 2
        let base = picking == .prominence ? h - prominence : 0
        let left = leadingCrossing(env, peak: p, lowest: lo, level: level)
        let onset = leadingCrossing(env, peak: p, lowest: lo, level: base + (h - base) * onsetLevel)
        var right = Double(hi)
        j = p
        while j < hi {
            if Double(env[j + 1]) <= level {
                let a = Double(env[j]), b = Double(env[j + 1])
                right = Double(j) + (a > b ? (a - level) / (a - b) : 0)
                break
            }
            j += 1
        }
        return MeasuredPeak(peakIndex: p, height: h, prominence: prominence, leftCrossing: left,
                            rightCrossing: right, onsetCrossing: onset, floor: floor)
    }

    /// Last position before `peak` (≥ `lowest`) where the envelope rises through `level`, interpolated.
    private static func leadingCrossing(_ env: [Float], peak p: Int, lowest lo: Int, level: Double) -> Double {
        var j = p
        while j > lo {
            if Double(env[j - 1]) <= level {
                let a = Double(env[j - 1]), b = Double(env[j])
                return Double(j - 1) + (b > a ? (level - a) / (b - a) : 0)
            }
            j -= 1
        }
        return Double(lo)
    }
}
