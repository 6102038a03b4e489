/// A scored oriented box for rotated NMS (centre, size, angle in radians).
package struct RotatedCandidate: Sendable, Equatable {
    package var box: OrientedBox
    package var score: Float
    package var classId: Int
    package var index: Int
    package init(box: OrientedBox, score: Float, classId: Int, index: Int) {
        self.box = box; self.score = score; self.classId = classId; self.index = index
    }
}

/// NMS for oriented boxes as Ultralytics does it for OBB models: probabilistic IoU (Gaussian
/// Bhattacharyya overlap, `batch_probiou`) and *Fast-NMS*, where a box is dropped when any higher-scored box
/// overlaps it — even one that was itself dropped.
package enum RotatedNMS {
    /// Probabilistic IoU of two oriented boxes (1 for identical boxes, → 0 when far apart).
    package static func probIoU(_ p: OrientedBox, _ q: OrientedBox, eps: Double = 1e-7) -> Double {
        let (a1, b1, c1) = covariance(p), (a2, b2, c2) = covariance(q)
        let a = a1 + a2, b = b1 + b2, c = c1 + c2
        let dx = p.cx - q.cx, dy = p.cy - q.cy
        let den = a * b - c * c
        let t1 = (a * dy * dy + b * dx * dx) / (den + eps) * 0.25
        let t2 = (c * (q.cx - p.cx) * (p.cy - q.cy)) / (den + eps) * 0.5
        let d1 = max(a1 * b1 - c1 * c1, 0), d2 = max(a2 * b2 - c2 * c2, 0)
        let t3 = _log(den / (4 * (d1 * d2).squareRoot() + eps) + eps) * 0.5
        let bd = min(max(t1 + t2 + t3, eps), 100)
        let hd = (1 - _exp(-bd) + eps).squareRoot()
        return 1 - hd
    }

    static func covariance(_ r: OrientedBox) -> (Double, Double, Double) {
        let a = r.w * r.w / 12, b = r.h * r.h / 12
        let c = _cos(r.angle), s = _sin(r.angle)
        return (a * c * c + b * s * s, a * s * s + b * c * c, (a - b) * c * s)
    }

    /// Runs rotated Fast-NMS.
    /// - Parameters:
    ///   - candidates: Oriented boxes already filtered by confidence.
    ///   - options: IoU threshold, class awareness and caps (same meaning as for ``NonMaxSuppression``).
    /// - Returns: Kept candidates, highest score first, at most `options.maxDetections`.
    /// - Complexity: O(n²) probabilistic IoUs in the worst case.
    package static func run(_ candidates: [RotatedCandidate], options: NMSOptions = NMSOptions()) -> [RotatedCandidate] {
        var sorted = candidates.enumerated().sorted { a, b in
            a.element.score != b.element.score ? a.element.score > b.element.score : a.offset < b.offset
        }.map(\.element)
        if sorted.count > options.maxCandidates { sorted.removeSubrange(max(options.maxCandidates, 0)...) }
        var kept: [RotatedCandidate] = []
        let limit = max(options.maxDetections, 0)
        for j in sorted.indices {
            if kept.count >= limit { break }
            var suppressed = false
            for i in 0..<j where options.agnostic || sorted[i].classId == sorted[j].classId {
                if probIoU(sorted[i].box, sorted[j].box) > options.iouThreshold { suppressed = true; break }
            }
            if !suppressed { kept.append(sorted[j]) }
        }
        return kept
    }
}
