/// A scored candidate for non-maximum suppression: an axis-aligned box in any pixel space.
package struct NMSCandidate: Sendable, Equatable {
    package var box: Rect
    package var score: Float
    package var classId: Int
    /// Caller's index (e.g. the anchor the candidate came from), carried through unchanged.
    package var index: Int
    package init(box: Rect, score: Float, classId: Int, index: Int) {
        self.box = box; self.score = score; self.classId = classId; self.index = index
    }
}

/// Settings for ``NonMaxSuppression`` (the defaults are Ultralytics').
package struct NMSOptions: Sendable, Equatable {
    /// Boxes overlapping a kept box with IoU **greater** than this are suppressed (kept when `≤ iou`).
    package var iouThreshold: Double = 0.45
    /// At most this many boxes are returned.
    package var maxDetections: Int = 300
    /// Suppress across classes (`true`) or only within a class (`false`, the default).
    package var agnostic: Bool = false
    /// Before suppression, keep only the best this-many candidates (Ultralytics' `max_nms`).
    package var maxCandidates: Int = 30_000
    package init(iouThreshold: Double = 0.45, maxDetections: Int = 300, agnostic: Bool = false,
                maxCandidates: Int = 30_000) {
        self.iouThreshold = iouThreshold; self.maxDetections = maxDetections
        self.agnostic = agnostic; self.maxCandidates = maxCandidates
    }
}

/// Greedy non-maximum suppression with the semantics of `torchvision.ops.nms` as Ultralytics calls it.
package enum NonMaxSuppression {
    /// Orders candidates by descending score; equal scores keep their input order (a stable sort).
    package static func sortedByScore(_ c: [NMSCandidate]) -> [NMSCandidate] {
        c.enumerated().sorted { a, b in
            a.element.score != b.element.score ? a.element.score > b.element.score : a.offset < b.offset
        }.map(\.element)
    }

    /// Runs NMS.
    /// - Parameters:
    ///   - candidates: Boxes already filtered by confidence.
    ///   - options: IoU threshold, class awareness, caps.
    /// - Returns: The kept candidates, highest score first, at most `options.maxDetections`.
    /// - Complexity: O(n·k) for n candidates and k kept boxes.
    package static func run(_ candidates: [NMSCandidate], options: NMSOptions = NMSOptions()) -> [NMSCandidate] {
        var sorted = sortedByScore(candidates)
        if sorted.count > options.maxCandidates { sorted.removeSubrange(max(options.maxCandidates, 0)...) }
        let limit = max(options.maxDetections, 0)
        var kept: [NMSCandidate] = []
        kept.reserveCapacity(min(limit, sorted.count))
        let thr = options.iouThreshold
        outer: for c in sorted {
            if kept.count >= limit { break }
            let a = c.box
            let areaA = (a.x2 - a.x1) * (a.y2 - a.y1)
            for k in kept where options.agnostic || k.classId == c.classId {
                let b = k.box
                let iw = min(a.x2, b.x2) - max(a.x1, b.x1)
                let ih = min(a.y2, b.y2) - max(a.y1, b.y1)
                guard iw > 0, ih > 0 else { continue }
                let inter = iw * ih
                let union = areaA + (b.x2 - b.x1) * (b.y2 - b.y1) - inter
                // A zero union (degenerate boxes) gives NaN in torchvision, which never suppresses.
                if union > 0, inter / union > thr { continue outer }
            }
            kept.append(c)
        }
        return kept
    }
}
