/// One standardized detection from any model, in **original-image pixels**, origin top-left.
///
/// Task-specific extras are optional: `keypoints` for pose, `obb` for oriented boxes,
/// `mask` for segmentation.
package struct Detection: Sendable, Codable, Equatable {
    /// Index into the model's class names.
    package var classId: Int
    /// Human-readable class name (`names[classId]`, or the id as text when the model has none).
    package var label: String
    /// Confidence in [0, 1].
    package var confidence: Double
    /// Axis-aligned box in original-image pixels (for `obb`, the rotated box's bounding box).
    package var box: Rect
    /// Pose keypoints in original-image pixels.
    package var keypoints: [Keypoint]?
    /// Oriented box, for `obb` models.
    package var obb: OrientedBox?
    /// Instance mask at original-image resolution, for `segment` models.
    package var mask: BinaryMask?

    package init(classId: Int, label: String, confidence: Double, box: Rect,
                keypoints: [Keypoint]? = nil, obb: OrientedBox? = nil, mask: BinaryMask? = nil) {
        self.classId = classId; self.label = label; self.confidence = confidence; self.box = box
        self.keypoints = keypoints; self.obb = obb; self.mask = mask
    }
}

/// A 2D keypoint with visibility (a sigmoided score in [0, 1], or 1 when the model has none).
package struct Keypoint: Sendable, Codable, Equatable {
    package var x: Double
    package var y: Double
    package var visibility: Double
    package init(x: Double, y: Double, visibility: Double) { self.x = x; self.y = y; self.visibility = visibility }
}

/// A rotated rectangle: centre, size and angle (radians, counter-clockwise as in Ultralytics' `xywhr`).
package struct OrientedBox: Sendable, Codable, Equatable {
    package var cx: Double
    package var cy: Double
    package var w: Double
    package var h: Double
    package var angle: Double
    package init(cx: Double, cy: Double, w: Double, h: Double, angle: Double) {
        self.cx = cx; self.cy = cy; self.w = w; self.h = h; self.angle = angle
    }

    /// The four corners, in the order Ultralytics' `xywhr2xyxyxyxy` returns them.
    package var corners: [Point2] {
        let c = _cos(angle), s = _sin(angle)
        let v1 = Point2(x: w / 2 * c, y: w / 2 * s)
        let v2 = Point2(x: -h / 2 * s, y: h / 2 * c)
        return [
            Point2(x: cx + v1.x + v2.x, y: cy + v1.y + v2.y),
            Point2(x: cx + v1.x - v2.x, y: cy + v1.y - v2.y),
            Point2(x: cx - v1.x - v2.x, y: cy - v1.y - v2.y),
            Point2(x: cx - v1.x + v2.x, y: cy - v1.y + v2.y),
        ]
    }

    /// The axis-aligned bounding box of the corners.
    package var boundingBox: Rect {
        let p = corners
        return Rect(x1: p.map(\.x).min() ?? cx, y1: p.map(\.y).min() ?? cy,
                    x2: p.map(\.x).max() ?? cx, y2: p.map(\.y).max() ?? cy)
    }
}

/// A binary mask, row-major, one byte per pixel (0 or 1).
package struct BinaryMask: Sendable, Codable, Equatable {
    package var width: Int
    package var height: Int
    package var data: [UInt8]
    package init(width: Int, height: Int, data: [UInt8]) { self.width = width; self.height = height; self.data = data }

    /// Number of pixels set.
    package var area: Int { data.reduce(0) { $0 + Int($1 != 0 ? 1 : 0) } }

    /// COCO *uncompressed* RLE: run lengths over the **column-major** pixel order, starting with a run of zeros.
    package var cocoRLE: [Int] {
        var counts: [Int] = []
        var current: UInt8 = 0
        var run = 0
        for x in 0..<width {
            for y in 0..<height {
                let v: UInt8 = data[y * width + x] != 0 ? 1 : 0
                if v == current { run += 1 } else { counts.append(run); run = 1; current = v }
            }
        }
        counts.append(run)
        return counts
    }

    /// Intersection over union with another mask of the same size (0 if sizes differ or both empty).
    package func iou(_ o: BinaryMask) -> Double {
        guard width == o.width, height == o.height else { return 0 }
        var inter = 0, uni = 0
        for i in 0..<data.count {
            let a = data[i] != 0, b = o.data[i] != 0
            if a && b { inter += 1 }
            if a || b { uni += 1 }
        }
        return uni > 0 ? Double(inter) / Double(uni) : 0
    }
}

/// One class score from a classification model.
package struct Classification: Sendable, Codable, Equatable {
    package var classId: Int
    package var label: String
    package var confidence: Double
    package init(classId: Int, label: String, confidence: Double) {
        self.classId = classId; self.label = label; self.confidence = confidence
    }
}
