import Foundation
import SwingCore
@testable import SwingMedia
import Testing

@Suite struct RotationTests {
    /// A 3×2 image whose pixel (x, y) has red = 10·x + y, so every destination is checkable.
    static let src: [UInt8] = (0..<2).flatMap { y in (0..<3).flatMap { x in [UInt8(10 * x + y), 0, 0] } }

    static func reds(_ r: (Int, Int, [UInt8])) -> [[UInt8]] {
        (0..<r.1).map { y in (0..<r.0).map { x in r.2[(y * r.0 + x) * 3] } }
    }

    @Test func quarterTurnsMatchFFmpegAutorotate() {
        // 90° counter-clockwise: the right column becomes the top row.
        #expect(Self.reds(PictureConverter.rotate(Self.src, width: 3, height: 2, ccwDegrees: 90)) == [[20, 21], [10, 11], [0, 1]])
        // 270° counter-clockwise (= 90° clockwise, the usual portrait phone case): left column on top.
        #expect(Self.reds(PictureConverter.rotate(Self.src, width: 3, height: 2, ccwDegrees: 270)) == [[1, 0], [11, 10], [21, 20]])
        #expect(Self.reds(PictureConverter.rotate(Self.src, width: 3, height: 2, ccwDegrees: 180)) == [[21, 11, 1], [20, 10, 0]])
        #expect(Self.reds(PictureConverter.rotate(Self.src, width: 3, height: 2, ccwDegrees: 0)) == [[0, 10, 20], [1, 11, 21]])
    }
}
