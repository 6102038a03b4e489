import Foundation
import SwingCore

/// A real person cut out of a photo and pasted at a known size and place into a larger picture, so where each of
/// their landmarks is in the new picture is the photo's reference landmarks moved by the paste. The tests of who
/// the pose stage follows use the fully visible player on the left of `basketball1.png` (SwingPoseTests'
/// fixtures, with MediaPipe's landmarks for it in `pose_reference.json`).
package struct PastedPerson: Sendable {
    /// The picture with the person in it.
    package var frame: ImageBuffer
    /// Where each reference landmark is now, pixels.
    package var landmarks: [Point2]
    /// The person's height in the picture (head top to feet), pixels.
    package var height: Double

    /// The hip centre (the mean of the two hip landmarks), pixels.
    package var hips: Point2 { Point2(x: (landmarks[23].x + landmarks[24].x) / 2, y: (landmarks[23].y + landmarks[24].y) / 2) }

    /// The person of the `basketball1.png` fixture (the cut-out and its 33 landmarks in the photo's pixels).
    package struct Source: Sendable {
        package var photo: ImageBuffer
        package var landmarks: [Point2]
        /// The part of the photo pasted: the person with the floor under their feet.
        package var cut = (x: 0, y: 60, width: 220, height: 420)

        /// `photo` is `basketball1.png` as decoded; its landmarks are read from `pose_reference.json`.
        package init(photo: ImageBuffer) throws {
            self.photo = photo
            let url = TestFiles.packageRoot.appendingPathComponent("Tests/SwingPoseTests/Fixtures/pose_reference.json")
            struct Reference: Decodable {
                struct Entry: Decodable { var file: String; var landmarks: [[Double]]? }
                var images: [Entry]
            }
            let reference = try JSONDecoder().decode(Reference.self, from: Data(contentsOf: url))
            guard let points = reference.images.first(where: { $0.file == "basketball1.png" })?.landmarks else {
                throw CocoaError(.fileReadCorruptFile)
            }
            landmarks = points.map { Point2(x: $0[0] * Double(photo.width), y: $0[1] * Double(photo.height)) }
        }
    }

    /// `frame` with the person pasted `height` px tall with their hips at `hips` (bilinear resampling).
    package static func paste(_ source: Source, into frame: ImageBuffer, height: Double, hips: Point2) -> PastedPerson {
        let cut = source.cut, photo = source.photo
        let points = source.landmarks.map { Point2(x: $0.x - Double(cut.x), y: $0.y - Double(cut.y)) }
        let top = points.map(\.y).min() ?? 0, bottom = points.map(\.y).max() ?? 1
        let scale = height / (bottom - top)
        let refHips = Point2(x: (points[23].x + points[24].x) / 2, y: (points[23].y + points[24].y) / 2)
        let ox = hips.x - refHips.x * scale, oy = hips.y - refHips.y * scale
        var out = frame
        let w = Int((Double(cut.width) * scale).rounded()), h = Int((Double(cut.height) * scale).rounded())
        for j in 0..<h {
            let ty = Int(oy.rounded()) + j
            guard ty >= 0, ty < out.height else { continue }
            for i in 0..<w {
                let tx = Int(ox.rounded()) + i
                guard tx >= 0, tx < out.width else { continue }
                let sx = (Double(i) + 0.5) / scale - 0.5 + Double(cut.x), sy = (Double(j) + 0.5) / scale - 0.5 + Double(cut.y)
                let x0 = min(max(Int(sx.rounded(.down)), 0), photo.width - 1), y0 = min(max(Int(sy.rounded(.down)), 0), photo.height - 1)
                let x1 = min(x0 + 1, photo.width - 1), y1 = min(y0 + 1, photo.height - 1)
                let ax = min(max(sx - Double(x0), 0), 1), ay = min(max(sy - Double(y0), 0), 1)
                for c in 0..<3 {
                    func v(_ x: Int, _ y: Int) -> Double { Double(photo.pixels[(y * photo.width + x) * 3 + c]) }
                    let value = (1 - ay) * ((1 - ax) * v(x0, y0) + ax * v(x1, y0)) + ay * ((1 - ax) * v(x0, y1) + ax * v(x1, y1))
                    out.pixels[(ty * out.width + tx) * 3 + c] = UInt8(min(255, max(0, value.rounded())))
                }
            }
        }
        let moved = points.map { Point2(x: ox + ($0.x + 0.5) * scale - 0.5, y: oy + ($0.y + 0.5) * scale - 0.5) }
        return PastedPerson(frame: out, landmarks: moved, height: height)
    }

    /// A court-coloured picture with a little noise, so the detector sees no edge where there is none.
    package static func court(width: Int, height: Int, seed: UInt64) -> ImageBuffer {
        var rng = SplitMix64(seed: seed)
        var image = ImageBuffer(width: width, height: height, fill: (70, 110, 150))
        for i in image.pixels.indices { image.pixels[i] = UInt8(clamping: Int(image.pixels[i]) + rng.int(-6...6)) }
        return image
    }
}
