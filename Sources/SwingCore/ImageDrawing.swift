/// An RGB colour.
package struct RGB: Sendable, Hashable {
    package var r: UInt8, g: UInt8, b: UInt8
    package init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { self.r = r; self.g = g; self.b = b }
    package static let white = RGB(255, 255, 255)
    package static let red = RGB(230, 30, 30)
    package static let green = RGB(0, 220, 0)
    package static let yellow = RGB(255, 220, 0)
}

/// Minimal raster drawing on ``ImageBuffer`` for annotated outputs (skeletons, arcs, boxes).
/// Everything clips to the image; non-finite coordinates are ignored.
extension ImageBuffer {
    /// Sets one pixel, blending with `alpha` (1 = opaque).
    @inlinable
    package mutating func plot(_ x: Int, _ y: Int, _ c: RGB, alpha: Double = 1) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let o = (y * width + x) * 3
        if alpha >= 1 {
            pixels[o] = c.r; pixels[o + 1] = c.g; pixels[o + 2] = c.b
        } else {
            let a = max(0, alpha)
            pixels[o] = UInt8(Double(pixels[o]) * (1 - a) + Double(c.r) * a)
            pixels[o + 1] = UInt8(Double(pixels[o + 1]) * (1 - a) + Double(c.g) * a)
            pixels[o + 2] = UInt8(Double(pixels[o + 2]) * (1 - a) + Double(c.b) * a)
        }
    }

    /// A filled disc centred on (x, y).
    package mutating func fillCircle(x: Double, y: Double, radius: Int, color: RGB) {
        guard x.isFinite, y.isFinite, abs(x) < 1e6, abs(y) < 1e6 else { return }
        let cx = Int(x.rounded()), cy = Int(y.rounded()), r = max(0, radius)
        for dy in -r...r { for dx in -r...r where dx * dx + dy * dy <= r * r { plot(cx + dx, cy + dy, color) } }
    }

    /// A line `thickness` pixels wide (round caps).
    package mutating func drawLine(from a: Point2, to b: Point2, thickness: Int = 1, color: RGB) {
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return }
        let steps = Int(min(max(abs(b.x - a.x), abs(b.y - a.y)), 20_000).rounded(.up))
        let r = max(0, thickness / 2)
        guard steps > 0 else { fillCircle(x: a.x, y: a.y, radius: r, color: color); return }
        for s in 0...steps {
            let t = Double(s) / Double(steps)
            fillCircle(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, radius: r, color: color)
        }
    }

    /// Consecutive points joined by lines; `closed` joins the last to the first.
    package mutating func drawPolyline(_ points: [Point2], closed: Bool = false, thickness: Int = 1, color: RGB) {
        guard points.count > 1 else { return }
        for i in 1..<points.count { drawLine(from: points[i - 1], to: points[i], thickness: thickness, color: color) }
        if closed, let f = points.first, let l = points.last { drawLine(from: l, to: f, thickness: thickness, color: color) }
    }

    /// The outline of `rect`.
    package mutating func strokeRect(_ rect: Rect, thickness: Int = 1, color: RGB) {
        drawPolyline([Point2(x: rect.x1, y: rect.y1), Point2(x: rect.x2, y: rect.y1),
                      Point2(x: rect.x2, y: rect.y2), Point2(x: rect.x1, y: rect.y2)],
                     closed: true, thickness: thickness, color: color)
    }
}
