import SwingCore

/// Annotation colours on SwingCore's ``RGB``.
extension RGB {
    /// A distinct, stable colour per class id (golden-angle hues, full saturation).
    package static func forClass(_ id: Int) -> RGB {
        let h = (Double(id) * 137.508).truncatingRemainder(dividingBy: 360) / 60
        let x = 1 - abs(h.truncatingRemainder(dividingBy: 2) - 1)
        let (r, g, b): (Double, Double, Double)
        switch Int(h) {
        case 0: (r, g, b) = (1, x, 0)
        case 1: (r, g, b) = (x, 1, 0)
        case 2: (r, g, b) = (0, 1, x)
        case 3: (r, g, b) = (0, x, 1)
        case 4: (r, g, b) = (x, 0, 1)
        default: (r, g, b) = (1, 0, x)
        }
        return RGB(UInt8(r * 230 + 25), UInt8(g * 230 + 25), UInt8(b * 230 + 25))
    }

    /// Black or white, whichever reads better on this colour.
    package var contrasting: RGB {
        (Int(r) * 299 + Int(g) * 587 + Int(b) * 114) / 1000 > 140 ? RGB(0, 0, 0) : RGB(255, 255, 255)
    }
}

/// Minimal raster drawing on an ``ImageBuffer`` (clipped to the image; no anti-aliasing).
struct Canvas {
    var image: ImageBuffer

    @inline(__always)
    mutating func blend(_ x: Int, _ y: Int, _ c: RGB, alpha: Double = 1) {
        guard x >= 0, y >= 0, x < image.width, y < image.height else { return }
        let i = (y * image.width + x) * 3
        if alpha >= 1 {
            image.pixels[i] = c.r; image.pixels[i + 1] = c.g; image.pixels[i + 2] = c.b
            return
        }
        let a = max(alpha, 0)
        image.pixels[i] = UInt8((Double(image.pixels[i]) * (1 - a) + Double(c.r) * a).rounded())
        image.pixels[i + 1] = UInt8((Double(image.pixels[i + 1]) * (1 - a) + Double(c.g) * a).rounded())
        image.pixels[i + 2] = UInt8((Double(image.pixels[i + 2]) * (1 - a) + Double(c.b) * a).rounded())
    }

    mutating func fillRect(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ c: RGB, alpha: Double = 1) {
        for y in max(y0, 0)..<max(min(y1, image.height), max(y0, 0)) {
            for x in max(x0, 0)..<max(min(x1, image.width), max(x0, 0)) { blend(x, y, c, alpha: alpha) }
        }
    }

    /// A line `thickness` pixels wide (a square brush stepped along the line).
    mutating func line(_ a: Point2, _ b: Point2, _ c: RGB, thickness: Int) {
        let dx = b.x - a.x, dy = b.y - a.y
        let steps = max(Int(max(abs(dx), abs(dy)).rounded(.up)), 1)
        guard steps < 100_000 else { return }  // degenerate coordinates: skip rather than loop forever
        let r0 = -(thickness - 1) / 2, r1 = thickness / 2
        for s in 0...steps {
            let t = Double(s) / Double(steps)
            let x = Int((a.x + dx * t).rounded()), y = Int((a.y + dy * t).rounded())
            for oy in r0...r1 { for ox in r0...r1 { blend(x + ox, y + oy, c) } }
        }
    }

    mutating func rect(_ r: Rect, _ c: RGB, thickness: Int) {
        let p = [Point2(x: r.x1, y: r.y1), Point2(x: r.x2, y: r.y1), Point2(x: r.x2, y: r.y2), Point2(x: r.x1, y: r.y2)]
        polygon(p, c, thickness: thickness)
    }

    mutating func polygon(_ p: [Point2], _ c: RGB, thickness: Int) {
        for i in p.indices { line(p[i], p[(i + 1) % p.count], c, thickness: thickness) }
    }

    mutating func disc(_ center: Point2, radius: Int, _ c: RGB) {
        let cx = Int(center.x.rounded()), cy = Int(center.y.rounded())
        for y in -radius...radius { for x in -radius...radius where x * x + y * y <= radius * radius { blend(cx + x, cy + y, c) } }
    }

    /// Draws text with ``BitmapFont``; the top-left of the first glyph is at (x, y).
    mutating func text(_ s: String, x: Int, y: Int, scale: Int, _ c: RGB) {
        var cx = x
        for ch in s {
            let rows = BitmapFont.glyph(ch)
            for (ry, bits) in rows.enumerated() {
                for col in 0..<BitmapFont.glyphWidth where bits & (1 << (BitmapFont.glyphWidth - 1 - col)) != 0 {
                    fillRect(cx + col * scale, y + ry * scale, cx + (col + 1) * scale, y + (ry + 1) * scale, c)
                }
            }
            cx += (BitmapFont.glyphWidth + 1) * scale
        }
    }
}
