/// Non-maximum suppression in time (not to be confused with SwingCore's box `NonMaxSuppression`):
/// highest rank first (ties: earlier), keep unless within `minGap` of a kept one.
enum MinimumGapSuppression {
    /// - Parameter rank: the order of preference; the confidence by default. The detector ranks by
    ///   ``strength(_:reference:)`` so a hit is not dropped for a sharper, weaker sound just after it.
    static func apply(_ candidates: [ContactCandidate], minGap: Double,
                      rank: (ContactCandidate) -> Double = { $0.confidence }) -> [ContactCandidate] {
        let order = candidates.map { ($0, rank($0)) }.sorted { ($0.1, -$0.0.time) > ($1.1, -$1.0.time) }.map(\.0)
        var keptTimes: [Double] = []  // sorted
        var kept: [ContactCandidate] = []
        for c in order {
            // Binary search for the insertion point; only the neighbours can be within minGap.
            var lo = 0, hi = keptTimes.count
            while lo < hi { let mid = (lo + hi) / 2; if keptTimes[mid] < c.time { lo = mid + 1 } else { hi = mid } }
            if lo < keptTimes.count, keptTimes[lo] - c.time < minGap { continue }
            if lo > 0, c.time - keptTimes[lo - 1] < minGap { continue }
            keptTimes.insert(c.time, at: lo)
            kept.append(c)
        }
        return kept.sorted { $0.time < $1.time }
    }

    /// The detector's rank: confidence × √(amplitude / the recording's loud reference). The confidence caps
    /// its loudness term at the reference, so among loud sounds the sharper won; on real recordings a grunt
    /// 131 ms, a click 268 ms and a squeak 177 ms after a forehand each took the hit's place. Loudness now
    /// counts beyond the reference too: a hit twice as loud outranks a sound 1.4 times as confident.
    ///
    /// With `body` on, a sound with little body (``ContactCandidate/bodyBandRatio`` b below
    /// ``bodyFullWeight``) keeps only b / ``bodyFullWeight`` of its strength: a shoe squeak (b ≤ 0.02) at most
    /// a fifth, a bodiless one nothing, while every hit measured keeps all of it (real hits b ≥ 1.3, close-miked
    /// game-sound hits 0.10–0.13). On broadcast clips a squeak 2.3 times louder in the detection band than
    /// the hit 141 ms after it took its place.
    static func strength(_ c: ContactCandidate, reference: Double, body: Bool = false) -> Double {
        let loud = c.confidence * (reference > 0 ? (max(c.amplitude, 0) / reference).squareRoot() : 1)
        guard body, let b = c.bodyBandRatio else { return loud }
        return loud * min(1, max(b, 0) / bodyFullWeight)
    }

    /// The body ratio from which a sound keeps all its strength.
    static let bodyFullWeight = 0.1
}

/// One contact per hit at its first transient: moves each kept contact to the earliest scored candidate
/// within `spread` seconds before it that is at least `minRelativeAmplitude` × its amplitude (see
/// ``ContactDetectorParameters/hitSpreadMs``). Other fields stay the loudest transient's.
enum EarliestTransient {
    static func apply(_ kept: [ContactCandidate], candidates: [ContactCandidate], spread: Double,
                      minRelativeAmplitude: Double) -> [ContactCandidate] {
        guard spread > 0 else { return kept }
        let byTime = candidates.sorted { $0.time < $1.time }
        return kept.map { c in
            var moved = c
            // First candidate at or after c.time − spread (binary search), then the earliest loud enough.
            var lo = 0, hi = byTime.count
            while lo < hi { let mid = (lo + hi) / 2; if byTime[mid].time < c.time - spread { lo = mid + 1 } else { hi = mid } }
            for e in byTime[lo...] {
                guard e.time < c.time else { break }
                if e.amplitude >= minRelativeAmplitude * c.amplitude { moved.time = e.time; break }
            }
            return moved
        }
    }
}
