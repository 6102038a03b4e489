import Foundation
import SwingCore

/// A person candidate from BlazePose's detector, normalised to the original image ([0, 1], top-left).
struct PersonDetection: Sendable, Equatable {
    var score: Double
    /// Box as (xmin, ymin, width, height), normalised.
    var xmin: Double, ymin: Double, width: Double, height: Double
    /// Keypoints: 0 hip centre, 1 a point on the body axis whose distance sets the body size, 2–3 unused.
    var keypoints: [Point2]

    func iou(_ o: PersonDetection) -> Double {
        let ix = min(xmin + width, o.xmin + o.width) - max(xmin, o.xmin)
        let iy = min(ymin + height, o.ymin + o.height) - max(ymin, o.ymin)
        guard ix > 0, iy > 0 else { return 0 }
        let inter = ix * iy
        let union = width * height + o.width * o.height - inter
        return union > 0 ? inter / union : 0
    }
}

/// SSD anchors and box decoding for `pose_detection` (MediaPipe's `SsdAnchorsCalculator` and
/// `TensorsToDetectionsCalculator` with the pose detector's options).
enum DetectorDecoder {
    static let inputSize = 224
    static let boxCount = 2254
    static let valuesPerBox = 12
    static let keypointCount = 4

    /// Anchor centres (normalised), in the model's output order. Five layers with strides
    /// 8, 16, 32, 32, 32; layers with the same stride share one grid. Each layer contributes two
    /// anchors per cell (aspect ratio 1 plus the interpolated scale); with `fixed_anchor_size` every
    /// anchor is 1 × 1, so only the centre (cell + 0.5 offset) matters.
    static let anchors: [Point2] = {
        let strides = [8, 16, 32, 32, 32]
        var result: [Point2] = []
        var layer = 0
        while layer < strides.count {
            var last = layer
            var perCell = 0
            while last < strides.count && strides[last] == strides[layer] { perCell += 2; last += 1 }
            let fm = Int((Double(inputSize) / Double(strides[layer])).rounded(.up))
            for y in 0..<fm {
                for x in 0..<fm {
                    let c = Point2(x: (Double(x) + 0.5) / Double(fm), y: (Double(y) + 0.5) / Double(fm))
                    for _ in 0..<perCell { result.append(c) }
                }
            }
            layer = last
        }
        return result
    }()

    /// Decodes raw detector outputs into candidates above `minScore`, still in letterbox space.
    /// - Parameters:
    ///   - boxes: `[2254 × 12]` regressors (x, y, w, h, then 4 keypoints x, y; 224-pixel units).
    ///   - scores: `[2254]` logits.
    static func decode(boxes: [Float], scores: [Float], minScore: Double, clip: Double) -> [PersonDetection] {
        guard boxes.count >= boxCount * valuesPerBox, scores.count >= boxCount else { return [] }
        let s = Double(inputSize)
        var out: [PersonDetection] = []
        for i in 0..<boxCount {
            let raw = min(max(Double(scores[i]), -clip), clip)
            let score = 1 / (1 + exp(-raw))
            guard score >= minScore else { continue }
            let a = anchors[i]
            let b = i * valuesPerBox
            let cx = Double(boxes[b]) / s + a.x, cy = Double(boxes[b + 1]) / s + a.y
            let w = Double(boxes[b + 2]) / s, h = Double(boxes[b + 3]) / s
            var kps: [Point2] = []
            kps.reserveCapacity(keypointCount)
            for k in 0..<keypointCount {
                kps.append(Point2(x: Double(boxes[b + 4 + 2 * k]) / s + a.x,
                                  y: Double(boxes[b + 5 + 2 * k]) / s + a.y))
            }
            out.append(PersonDetection(score: score, xmin: cx - w / 2, ymin: cy - h / 2, width: w, height: h,
                                       keypoints: kps))
        }
        return out
    }

    /// MediaPipe's weighted NMS: the best candidate's box and keypoints become the score-weighted mean
    /// of every candidate overlapping it by more than `iou` (itself included); its score is kept.
    static func weightedNMS(_ candidates: [PersonDetection], iou threshold: Double) -> [PersonDetection] {
        var remaining = candidates.sorted { $0.score > $1.score }
        var out: [PersonDetection] = []
        while let best = remaining.first {
            var cluster: [PersonDetection] = [best]
            var rest: [PersonDetection] = []
            for d in remaining.dropFirst() {
                if best.iou(d) > threshold { cluster.append(d) } else { rest.append(d) }
            }
            var merged = best
            let total = cluster.reduce(0) { $0 + $1.score }
            if total > 0 {
                var x = 0.0, y = 0.0, x2 = 0.0, y2 = 0.0
                var kps = [Point2](repeating: Point2(x: 0, y: 0), count: best.keypoints.count)
                for d in cluster {
                    x += d.xmin * d.score; y += d.ymin * d.score
                    x2 += (d.xmin + d.width) * d.score; y2 += (d.ymin + d.height) * d.score
                    for k in kps.indices {
                        kps[k].x += d.keypoints[k].x * d.score; kps[k].y += d.keypoints[k].y * d.score
                    }
                }
                merged.xmin = x / total; merged.ymin = y / total
                merged.width = (x2 - x) / total; merged.height = (y2 - y) / total
                merged.keypoints = kps.map { Point2(x: $0.x / total, y: $0.y / total) }
            }
            out.append(merged)
            remaining = rest
        }
        return out
    }

    /// Maps a detection from the square letterboxed input back to the image (normalised).
    static func removeLetterbox(_ d: PersonDetection, imageWidth: Int, imageHeight: Int) -> PersonDetection {
        let side = Double(max(imageWidth, imageHeight))
        return fromSquare(d, region: PoseRegion(centerX: Double(imageWidth) / 2, centerY: Double(imageHeight) / 2,
                                                width: side, height: side, rotation: 0),
                          imageWidth: imageWidth, imageHeight: imageHeight)
    }

    /// Maps a detection normalised to the unrotated square `region` (pixels) to the whole image (normalised).
    static func fromSquare(_ d: PersonDetection, region: PoseRegion, imageWidth: Int, imageHeight: Int) -> PersonDetection {
        let w = Double(max(imageWidth, 1)), h = Double(max(imageHeight, 1))
        let x0 = region.centerX - region.width / 2, y0 = region.centerY - region.height / 2
        func x(_ u: Double) -> Double { (x0 + u * region.width) / w }
        func y(_ v: Double) -> Double { (y0 + v * region.height) / h }
        var r = d
        r.xmin = x(d.xmin); r.ymin = y(d.ymin)
        r.width = d.width * region.width / w; r.height = d.height * region.height / h
        r.keypoints = d.keypoints.map { Point2(x: x($0.x), y: y($0.y)) }
        return r
    }
}
