/// One standardized detection from any model, in **original-image pixels**, origin top-left.
///
/// Task-specific extras are optional: `keypoints` for pose, `obb` for oriented boxes,
/// `mask` for segmentation.
public struct Detection: Sendable, Codable, Equatable {
    /// Index into the model's class names.
    public var classId: Int
    /// Human-readable class name (`names[classId]`, or the id as text when the model has none).
    public var label: String
    /// Confidence in [0, 1].
    public var confidence: Double
    /// Axis-aligned box in original-image pixels (for `obb`, the rotated box's bounding box).
    public var box: Rect
    /// Pose keypoints in original-image pixels.
    public var keypoints: [Keypoint]?
    /// Oriented box, for `obb` models.
    public var obb: OrientedBox?
    /// Instance mask at original-image resolution, for `segment` models.
    public var mask: BinaryMask?

    public init(classId: Int, label: String, confidence: Double, box: Rect,
                keypoints: [Keypoint]? = nil, obb: OrientedBox? = nil, mask: BinaryMask? = nil) {
        self.classId = classId; self.label = label; self.confidence = confidence; self.box = box
        self.keypoints = keypoints; self.obb = obb; self.mask = mask
    }
}

/// A 2D keypoint with visibility (a sigmoided score in [0, 1], or 1 when the model has none).
public struct Keypoint: Sendable, Codable, Equatable {
    public var x: Double
    public var y: Double
    public var visibility: Double
    public init(x: Double, y: Double, visibility: Double) { self.x = x; self.y = y; self.visibility = visibility }
}

/// A rotated rectangle: centre, size and angle (radians, counter-clockwise as in Ultralytics' `xywhr`).
public struct OrientedBox: Sendable, Codable, Equatable {
    public var cx: Double
    public var cy: Double
    public var w: Double
    public var h: Double
    public var angle: Double
    public init(cx: Double, cy: Double, w: Double, h: Double, angle: Double) {
        self.cx = cx; self.cy = cy; self.w = w; self.h = h; self.angle = angle
    }

    /// The four corners, in the order Ultralytics' `xywhr2xyxyxyxy` returns them.
    public var corners: [Point2] {
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
    public var boundingBox: Rect {
        let p = corners
        return Rect(x1: p.map(\.x).min() ?? cx, y1: p.map(\.y).min() ?? cy,
                    x2: p.map(\.x).max() ?? cx, y2: p.map(\.y).max() ?? cy)
    }
}

/// A binary mask, row-major, one byte per pixel (0 or 1).
public struct BinaryMask: Sendable, Codable, Equatable {
    public var width: Int
    public var height: Int
    public var data: [UInt8]
    public init(width: Int, height: Int, data: [UInt8]) { self.width = width; self.height = height; self.data = data }

    /// Number of pixels set.
    public var area: Int { data.reduce(0) { $0 + Int($1 != 0 ? 1 : 0) } }

    /// COCO *uncompressed* RLE: run lengths over the **column-major** pixel order, starting with a run of zeros.
    public var cocoRLE: [Int] {
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
    public func iou(_ o: BinaryMask) -> Double {
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
public struct Classification: Sendable, Codable, Equatable {
    public var classId: Int
    public var label: String
    public var confidence: Double
    public init(classId: Int, label: String, confidence: Double) {
        self.classId = classId; self.label = label; self.confidence = confidence
    }
}
