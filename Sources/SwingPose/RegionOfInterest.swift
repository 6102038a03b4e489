import Foundation
import SwingCore

/// Where the landmark model looks: MediaPipe's `AlignmentPointsRectsCalculator` followed by
/// `RectTransformationCalculator` (square_long, scaled), computed directly in pixels.
enum RegionOfInterest {
    /// The region centred on `center` (hip centre, pixels) whose half-size is `|scalePoint − center|`,
    /// rotated so that `center → scalePoint` points up, enlarged by `scale`.
    ///
    /// Rotation = 90° − atan2(−(y1 − y0), x1 − x0), normalised to [−π, π).
    static func fromAlignment(center: Point2, scalePoint: Point2, scale: Double) -> PoseRegion {
        let dx = scalePoint.x - center.x, dy = scalePoint.y - center.y
        let side = (dx * dx + dy * dy).squareRoot() * 2 * scale
        let rotation = normalizeRadians(Double.pi / 2 - atan2(-dy, dx))
        return PoseRegion(centerX: center.x, centerY: center.y, width: side, height: side, rotation: rotation)
    }

    static func normalizeRadians(_ a: Double) -> Double {
        a - 2 * Double.pi * ((a + Double.pi) / (2 * Double.pi)).rounded(.down)
    }

    /// Maps a point given in the region's own unit square ([0, 1]², origin at the region's
    /// top-left corner before rotation) to image pixels.
    @inline(__always)
    static func project(_ u: Double, _ v: Double, in r: PoseRegion, cos c: Double, sin s: Double) -> Point2 {
        let x = (u - 0.5) * r.width, y = (v - 0.5) * r.height
        return Point2(x: c * x - s * y + r.centerX, y: s * x + c * y + r.centerY)
    }
}
