/// Python's `round()` (round half to even), which Ultralytics and torchvision use for pixel sizes and offsets.
///
/// Swift's `rounded()` rounds half away from zero, so `round(360.5)` would differ by a pixel.
@inlinable
package func pythonRound(_ x: Double) -> Int {
    Int(x.rounded(.toNearestOrEven))
}

/// The geometry of Ultralytics' `LetterBox` for a fixed-size model input: scale by the smaller ratio,
/// centre, and pad the rest.
///
/// Mirrors `LetterBox.get_params` (ultralytics 8.4) and the inverse in `ops.scale_boxes` / `ops.scale_coords`,
/// which recompute per-axis gains from the rounded resized size.
package struct LetterboxGeometry: Sendable, Equatable {
    /// Original image size in pixels.
    package let sourceWidth: Int
    package let sourceHeight: Int
    /// Model input size in pixels.
    package let targetWidth: Int
    package let targetHeight: Int
    /// Size of the resized image inside the padded input (`round(side × r)`, at least 1).
    package let resizedWidth: Int
    package let resizedHeight: Int
    /// Padding in pixels: `round(d/2 − 0.1)` before, `round(d/2 + 0.1)` after.
    package let left: Int
    package let top: Int
    package let right: Int
    package let bottom: Int

    /// Computes the letterbox of a `sourceWidth × sourceHeight` image into `targetWidth × targetHeight`.
    package init(sourceWidth: Int, sourceHeight: Int, targetWidth: Int, targetHeight: Int) {
        let sw = max(sourceWidth, 1), sh = max(sourceHeight, 1)
        let tw = max(targetWidth, 1), th = max(targetHeight, 1)
        self.sourceWidth = sw; self.sourceHeight = sh; self.targetWidth = tw; self.targetHeight = th
        let r = min(Double(th) / Double(sh), Double(tw) / Double(sw))
        resizedWidth = min(max(pythonRound(Double(sw) * r), 1), tw)
        resizedHeight = min(max(pythonRound(Double(sh) * r), 1), th)
        let dw = Double(tw - resizedWidth) / 2, dh = Double(th - resizedHeight) / 2
        left = pythonRound(dw - 0.1); right = pythonRound(dw + 0.1)
        top = pythonRound(dh - 0.1); bottom = pythonRound(dh + 0.1)
    }

    /// Horizontal scale from source to input pixels (`resizedWidth / sourceWidth`).
    package var gainX: Double { Double(resizedWidth) / Double(sourceWidth) }
    /// Vertical scale from source to input pixels (`resizedHeight / sourceHeight`).
    package var gainY: Double { Double(resizedHeight) / Double(sourceHeight) }

    /// Maps a point in model-input pixels back to source pixels (no clipping).
    package func toSource(_ p: Point2) -> Point2 {
        Point2(x: (p.x - Double(left)) / gainX, y: (p.y - Double(top)) / gainY)
    }

    /// Maps a point in source pixels to model-input pixels.
    package func toInput(_ p: Point2) -> Point2 {
        Point2(x: p.x * gainX + Double(left), y: p.y * gainY + Double(top))
    }

    /// Maps a box in model-input pixels back to source pixels, clipped to the image like `scale_boxes`.
    package func toSource(_ r: Rect, clip: Bool = true) -> Rect {
        let a = toSource(Point2(x: r.x1, y: r.y1)), b = toSource(Point2(x: r.x2, y: r.y2))
        let out = Rect(x1: a.x, y1: a.y, x2: b.x, y2: b.y)
        return clip ? out.clamped(width: Double(sourceWidth), height: Double(sourceHeight)) : out
    }

    /// Maps a keypoint position back to source pixels, clipped to the image like `scale_coords`.
    package func toSourceClipped(_ p: Point2) -> Point2 {
        let q = toSource(p)
        return Point2(x: min(max(q.x, 0), Double(sourceWidth)), y: min(max(q.y, 0), Double(sourceHeight)))
    }
}
