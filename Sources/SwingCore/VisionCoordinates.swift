/// Conversions between Swingmaster's coordinate convention (normalised, origin **top-left**)
/// and Apple Vision's (normalised, origin **bottom-left**), for anyone porting results to Apple apps.
package enum VisionCoordinates {
    /// Converts a top-left-origin normalised rect to Vision's bottom-left-origin
    /// `(x, y, width, height)` normalised rect.
    package static func visionRect(fromTopLeft r: Rect) -> (x: Double, y: Double, width: Double, height: Double) {
        (x: r.x1, y: 1 - r.y2, width: r.width, height: r.height)
    }

    /// Converts a Vision bottom-left-origin normalised rect to a top-left-origin normalised `Rect`.
    package static func topLeftRect(fromVision x: Double, y: Double, width: Double, height: Double) -> Rect {
        Rect(x1: x, y1: 1 - y - height, x2: x + width, y2: 1 - y)
    }

    /// Normalises a pixel rect by the image size (top-left origin is kept).
    package static func normalized(_ r: Rect, width: Int, height: Int) -> Rect {
        let w = Double(max(width, 1)), h = Double(max(height, 1))
        return Rect(x1: r.x1 / w, y1: r.y1 / h, x2: r.x2 / w, y2: r.y2 / h)
    }
}
