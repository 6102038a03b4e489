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
            out.drawLine(from: Point2(x: lms[a].x, y: lms[a].y), to: Point2(x: lms[b].x, y: lms[b].y),
                         thickness: thickness, color: .white)
        }
        for (i, l) in lms.enumerated() where l.visibility >= minVisibility {
            let left = (i >= 11 && i % 2 == 1) || [1, 2, 3, 7, 9].contains(i)
            out.fillCircle(x: l.x, y: l.y, radius: thickness * 2, color: left ? .green : .red)
        }
        return out
    }
}

extension PoseFrame {
    /// A frame in which nobody was found (empty landmarks, score 0).
    public static func noPerson(index: Int, time: Double) -> PoseFrame {
        PoseFrame(index: index, time: time, score: 0, landmarks: [], worldLandmarks: [], joints: [:],
                  region: PoseRegion(centerX: 0, centerY: 0, width: 0, height: 0, rotation: 0), detectorRan: true)
    }
}
