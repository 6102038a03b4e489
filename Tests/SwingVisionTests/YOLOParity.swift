import Foundation
import SwingCore
@testable import SwingVision

/// Box-for-box comparison of our detections with Ultralytics' reference for one case.
struct ParityReport: CustomStringConvertible {
    var expected = 0, matched = 0, ours = 0
    var maxBoxError = 0.0, maxConfError = 0.0, minMaskIoU = 1.0, maxKeypointError = 0.0, maxPolygonError = 0.0
    var unmatched: [String] = []
    var worstMask = ""

    var description: String {
        "matched \(matched)/\(expected) (ours \(ours)), box err \(maxBoxError) px, conf err \(maxConfError), "
            + "mask IoU ≥ \(minMaskIoU) \(worstMask), kpt err \(maxKeypointError) px, obb err \(maxPolygonError) px"
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
        // Upsampling spreads a mask up to ~one input pixel (in original pixels) beyond its box.
        let inputSide = ref.metadata["imgsz"].flatMap { PythonLiteral.parse($0)?.listValue?.compactMap(\.intValue).min() } ?? 640
        let margin = (Double(max(w, h)) / Double(max(inputSide, 1))).rounded(.up) + 2
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
                let iou = maskIoU(rle: rle, width: w, height: h, ours: d.mask, near: d.box.expanded(by: margin))
                if iou < r.minMaskIoU {
                    r.minMaskIoU = iou
                    r.worstMask = "(box \(d.box))"
                }
            }
        }
        return r
    }

    /// Mask IoU computed over the detection's box (plus a margin) only — both masks are confined to it — so the
    /// debug-build test stays fast on 1280×720 images. Two empty masks agree (IoU 1).
    static func maskIoU(rle: [Int], width w: Int, height h: Int, ours: BinaryMask?, near box: Rect) -> Double {
        guard let m = ours, m.width == w, m.height == h else { return 0 }
        var ref = [UInt8](repeating: 0, count: w * h)
        var pos = 0, refArea = 0
        for (k, run) in rle.enumerated() {
            if k % 2 == 1 {
                refArea += run
                for p in pos..<(pos + run) { ref[(p % h) * w + p / h] = 1 }
            }
            pos += run
        }
        let x0 = max(Int(box.x1), 0), x1 = min(Int(box.x2) + 1, w)
        let y0 = max(Int(box.y1), 0), y1 = min(Int(box.y2) + 1, h)
        var inter = 0, oursArea = 0
        m.data.withUnsafeBufferPointer { o in
            ref.withUnsafeBufferPointer { r in
                for y in y0..<max(y1, y0) {
                    for x in x0..<max(x1, x0) {
                        let i = y * w + x
                        if o[i] != 0 { oursArea += 1; if r[i] != 0 { inter += 1 } }
                    }
                }
            }
        }
        let union = refArea + oursArea - inter
        return union == 0 ? 1 : Double(inter) / Double(union)
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
