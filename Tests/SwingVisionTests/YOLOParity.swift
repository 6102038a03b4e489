import Foundation
import SwingCore
@testable import SwingVision

/// Box-for-box comparison of our detections with Ultralytics' reference for one case.
struct ParityReport: CustomStringConvertible {
    var expected = 0, matched = 0, ours = 0
    var maxBoxError = 0.0, maxConfError = 0.0, minMaskIoU = 1.0, maxKeypointError = 0.0, maxPolygonError = 0.0
    var unmatched: [String] = []

    var description: String {
        "matched \(matched)/\(expected) (ours \(ours)), box err \(maxBoxError) px, conf err \(maxConfError), "
            + "mask IoU ≥ \(minMaskIoU), kpt err \(maxKeypointError) px, obb err \(maxPolygonError) px"
    }

    /// Acceptance: every reference detection matched one of ours (same class, box ≤ 1 px, conf ≤ 1e-3), no extras.
    var passes: Bool {
        matched == expected && ours == expected && maxBoxError <= 1 && maxConfError <= 1e-3 && minMaskIoU >= 0.95
            && maxKeypointError <= 1 && maxPolygonError <= 1
    }

    static func compare(_ ref: YOLOFixtures.Case, _ result: [Detection]) -> ParityReport {
        var r = ParityReport(expected: ref.detections.count, ours: result.count)
        var used = Set<Int>()
        let h = ref.imageSize[0], w = ref.imageSize[1]
        for e in ref.detections {
            // Candidates: same class, confidence within tolerance; pick the geometrically closest.
            var bestIndex: Int?, bestError = Double.infinity
            for (i, d) in result.enumerated() where !used.contains(i) && d.classId == e.classId
                && abs(d.confidence - e.confidence) <= 1e-3 {
                let err = geometryError(e, d)
                if err < bestError { bestError = err; bestIndex = i }
            }
            guard let i = bestIndex, bestError <= 1 else {
                r.unmatched.append("class \(e.classId) conf \(e.confidence) box \(e.box ?? e.obb ?? [])")
                continue
            }
            used.insert(i)
            r.matched += 1
            let d = result[i]
            r.maxConfError = max(r.maxConfError, abs(d.confidence - e.confidence))
            if let b = e.box {
                r.maxBoxError = max(r.maxBoxError, boxError(b, d.box))
            }
            if let kps = e.keypoints, let ours = d.keypoints {
                for (k, p) in zip(kps, ours) {
                    r.maxKeypointError = max(r.maxKeypointError, abs(k[0] - p.x), abs(k[1] - p.y))
                }
            }
            if let pts = e.points, let o = d.obb {
                for (p, q) in zip(pts, o.corners) { r.maxPolygonError = max(r.maxPolygonError, abs(p[0] - q.x), abs(p[1] - q.y)) }
            }
            if let rle = e.maskRLE {
                let m = YOLOFixtures.mask(rle: rle, width: w, height: h)
                r.minMaskIoU = min(r.minMaskIoU, d.mask.map { m.iou($0) } ?? 0)
            }
        }
        return r
    }

    static func boxError(_ b: [Double], _ r: Rect) -> Double {
        max(abs(b[0] - r.x1), abs(b[1] - r.y1), abs(b[2] - r.x2), abs(b[3] - r.y2))
    }

    static func geometryError(_ e: YOLOFixtures.Det, _ d: Detection) -> Double {
        if let b = e.box { return boxError(b, d.box) }
        if let pts = e.points, let o = d.obb {
            return zip(pts, o.corners).map { max(abs($0[0] - $1.x), abs($0[1] - $1.y)) }.max() ?? .infinity
        }
        return .infinity
    }
}
