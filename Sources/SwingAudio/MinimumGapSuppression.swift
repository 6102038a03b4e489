/// Non-maximum suppression in time (not to be confused with SwingCore's box `NonMaxSuppression`):
/// highest confidence first (ties: earlier), keep unless within `minGap` of a kept one.
enum MinimumGapSuppression {
    static func apply(_ candidates: [ContactCandidate], minGap: Double) -> [ContactCandidate] {
        let order = candidates.sorted { ($0.confidence, -$0.time) > ($1.confidence, -$1.time) }
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
}
