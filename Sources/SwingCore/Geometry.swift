/// A point in 2D, in pixels or normalised units depending on context (origin top-left).
package struct Point2: Sendable, Hashable, Codable {
    package var x: Double
    package var y: Double
    package init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// A vector or point in 3D (metres unless stated otherwise).
package struct Vec3: Sendable, Hashable, Codable {
    package var x: Double
    package var y: Double
    package var z: Double
    package init(x: Double, y: Double, z: Double) { self.x = x; self.y = y; self.z = z }
    package static let zero = Vec3(x: 0, y: 0, z: 0)

    package static func + (a: Vec3, b: Vec3) -> Vec3 { Vec3(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z) }
    package static func - (a: Vec3, b: Vec3) -> Vec3 { Vec3(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z) }
    package static func * (a: Vec3, s: Double) -> Vec3 { Vec3(x: a.x * s, y: a.y * s, z: a.z * s) }
    package static func * (s: Double, a: Vec3) -> Vec3 { a * s }
    package static prefix func - (a: Vec3) -> Vec3 { Vec3(x: -a.x, y: -a.y, z: -a.z) }
    /// Dot product.
    package func dot(_ b: Vec3) -> Double { x * b.x + y * b.y + z * b.z }
    /// Cross product `self × b`.
    package func cross(_ b: Vec3) -> Vec3 {
        Vec3(x: y * b.z - z * b.y, y: z * b.x - x * b.z, z: x * b.y - y * b.x)
    }
    /// Euclidean length.
    package var length: Double { dot(self).squareRoot() }
    /// The unit vector in the same direction, or `nil` for a (near-)zero vector.
    package var normalized: Vec3? {
        let l = length
        return l > 1e-12 ? self * (1 / l) : nil
    }
    /// Linear interpolation between `a` and `b` (`t` = 0 gives `a`).
    package static func lerp(_ a: Vec3, _ b: Vec3, _ t: Double) -> Vec3 { a + (b - a) * t }
}

/// An axis-aligned rectangle given by its corners, origin top-left (`x1 ≤ x2`, `y1 ≤ y2`).
package struct Rect: Sendable, Hashable, Codable {
    package var x1: Double
    package var y1: Double
    package var x2: Double
    package var y2: Double
    package init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
    }
    /// A rectangle from its centre and size (the YOLO `cx, cy, w, h` form).
    package init(cx: Double, cy: Double, w: Double, h: Double) {
        self.init(x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2)
    }
    package var width: Double { max(0, x2 - x1) }
    package var height: Double { max(0, y2 - y1) }
    package var area: Double { width * height }
    package var center: Point2 { Point2(x: (x1 + x2) / 2, y: (y1 + y2) / 2) }

    /// Intersection over union; 0 when either rectangle has no area.
    package func iou(_ o: Rect) -> Double {
        let iw = min(x2, o.x2) - max(x1, o.x1)
        let ih = min(y2, o.y2) - max(y1, o.y1)
        guard iw > 0, ih > 0 else { return 0 }
        let inter = iw * ih
        let union = area + o.area - inter
        return union > 0 ? inter / union : 0
    }

    /// The rectangle grown by `d` on every side.
    package func expanded(by d: Double) -> Rect { Rect(x1: x1 - d, y1: y1 - d, x2: x2 + d, y2: y2 + d) }

    /// Whether `p` lies inside or on the edge.
    package func contains(_ p: Point2) -> Bool { p.x >= x1 && p.x <= x2 && p.y >= y1 && p.y <= y2 }

    /// The rectangle clipped to `[0, width] × [0, height]`.
    package func clamped(width w: Double, height h: Double) -> Rect {
        Rect(x1: min(max(x1, 0), w), y1: min(max(y1, 0), h), x2: min(max(x2, 0), w), y2: min(max(y2, 0), h))
    }
}
