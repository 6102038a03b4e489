import SwingCore

/// Draws a pose skeleton onto an image (for `swingmaster pose --save`).
package enum PoseDrawing {

    /// Landmarks less visible than this are not drawn.
    package static let minVisibility = 0.5

    /// Returns `image` with `frame`'s skeleton (white lines) and landmarks (red dots, left side green).
    package static func draw(_ frame: PoseFrame, on image: ImageBuffer) -> ImageBuffer {
        var out = image
        let lms = frame.landmarks
        guard lms.count == BodyLandmark.count else { return out }
        let thickness = max(1, min(image.width, image.height) / 300)
        for (a, b) in BodyLandmark.edges where lms[a].visibility >= minVisibility && lms[b].visibility >= minVisibility {
            out.drawLine(from: Point2(x: lms[a].x, y: lms[a].y), to: Point2(x: lms[b].x, y: lms[b].y),
                         thickness: thickness, color: .white)
        }
        for landmark in BodyLandmark.allCases where lms[landmark].visibility >= minVisibility {
            let l = lms[landmark]
            out.fillCircle(x: l.x, y: l.y, radius: thickness * 2, color: landmark.isLeft ? .green : .red)
        }
        return out
    }
}

extension PoseFrame {
    /// A frame in which nobody was found (empty landmarks, score 0).
    package static func noPerson(index: Int, time: Double) -> PoseFrame {
        PoseFrame(index: index, time: time, score: 0, landmarks: [], worldLandmarks: [], joints: [:],
                  region: PoseRegion(centerX: 0, centerY: 0, width: 0, height: 0, rotation: 0), detectorRan: true)
    }
}
