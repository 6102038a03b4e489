import SwingCore

/// Draws a pose skeleton onto an image (for `swingmaster pose --save`).
public enum PoseDrawing {
    /// BlazePose's skeleton edges (landmark index pairs), as MediaPipe's `POSE_CONNECTIONS`.
    public static let connections: [(Int, Int)] = [
        (0, 1), (1, 2), (2, 3), (3, 7), (0, 4), (4, 5), (5, 6), (6, 8), (9, 10),
        (11, 12), (11, 13), (13, 15), (15, 17), (15, 19), (15, 21), (17, 19),
        (12, 14), (14, 16), (16, 18), (16, 20), (16, 22), (18, 20),
        (11, 23), (12, 24), (23, 24), (23, 25), (24, 26), (25, 27), (26, 28),
        (27, 29), (28, 30), (29, 31), (30, 32), (27, 31), (28, 32),
    ]

    /// Landmarks less visible than this are not drawn.
    public static let minVisibility = 0.5

    /// Returns `image` with `frame`'s skeleton (white lines) and landmarks (red dots, left side green).
    public static func draw(_ frame: PoseFrame, on image: ImageBuffer) -> ImageBuffer {
        var out = image
        let lms = frame.landmarks
        guard lms.count == 33 else { return out }
        let thickness = max(1, min(image.width, image.height) / 300)
        for (a, b) in connections where lms[a].visibility >= minVisibility && lms[b].visibility >= minVisibility {
            line(&out, lms[a].x, lms[a].y, lms[b].x, lms[b].y, radius: thickness, color: (255, 255, 255))
        }
        for (i, l) in lms.enumerated() where l.visibility >= minVisibility {
            let left = (i >= 11 && i % 2 == 1) || [1, 2, 3, 7, 9].contains(i)
            dot(&out, l.x, l.y, radius: thickness * 2, color: left ? (0, 220, 0) : (230, 30, 30))
        }
        return out
    }

    static func dot(_ img: inout ImageBuffer, _ x: Double, _ y: Double, radius: Int, color: (UInt8, UInt8, UInt8)) {
        guard x.isFinite, y.isFinite, abs(x) < 1e6, abs(y) < 1e6 else { return }
        let cx = Int(x.rounded()), cy = Int(y.rounded())
        for dy in -radius...radius {
            for dx in -radius...radius where dx * dx + dy * dy <= radius * radius {
                let px = cx + dx, py = cy + dy
                guard px >= 0, py >= 0, px < img.width, py < img.height else { continue }
                let o = (py * img.width + px) * 3
                img.pixels[o] = color.0; img.pixels[o + 1] = color.1; img.pixels[o + 2] = color.2
            }
        }
    }

    static func line(_ img: inout ImageBuffer, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double,
                     radius: Int, color: (UInt8, UInt8, UInt8)) {
        let steps = Int(min(max(abs(x1 - x0), abs(y1 - y0)), 20_000).rounded(.up))
        guard steps > 0 else { dot(&img, x0, y0, radius: radius, color: color); return }
        for s in 0...steps {
            let t = Double(s) / Double(steps)
            dot(&img, x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, radius: radius / 2, color: color)
        }
    }
}

extension PoseFrame {
    /// A frame in which nobody was found (empty landmarks, score 0).
    public static func noPerson(index: Int, time: Double) -> PoseFrame {
        PoseFrame(index: index, time: time, score: 0, landmarks: [], worldLandmarks: [], joints: [:],
                  region: PoseRegion(centerX: 0, centerY: 0, width: 0, height: 0, rotation: 0), detectorRan: true)
    }
}
