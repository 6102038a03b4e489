import SwingCore
import Testing
@testable import SwingVision

@Suite struct YOLOAnnotatorTests {
    let grey = ImageBuffer(width: 200, height: 120, fill: (128, 128, 128))

    func px(_ img: ImageBuffer, _ x: Int, _ y: Int) -> RGB {
        let i = (y * img.width + x) * 3
        return RGB(img.pixels[i], img.pixels[i + 1], img.pixels[i + 2])
    }

    @Test func fontGlyphsAreWellFormed() {
        for (ch, rows) in BitmapFont.source {
            #expect(rows.count == BitmapFont.glyphHeight && rows.allSatisfy { $0.count == BitmapFont.glyphWidth }, "glyph \(ch)")
        }
        #expect(BitmapFont.glyph("a") == BitmapFont.glyph("A"))
        #expect(BitmapFont.glyph("🎾") == BitmapFont.bits(BitmapFont.unknown))
        #expect(BitmapFont.width(of: "AB", scale: 2) == 22)
    }

    @Test func boxesMasksKeypointsAndLabelsAreDrawn() {
        var mask = [UInt8](repeating: 0, count: 200 * 120)
        for y in 60..<80 { for x in 120..<150 { mask[y * 200 + x] = 1 } }
        var kps = [Keypoint](repeating: Keypoint(x: 0, y: 0, visibility: 0), count: 17)
        kps[5] = Keypoint(x: 40, y: 80, visibility: 0.9); kps[6] = Keypoint(x: 80, y: 80, visibility: 0.9)
        let dets = [
            Detection(classId: 0, label: "person", confidence: 0.91, box: Rect(x1: 20, y1: 40, x2: 100, y2: 110), keypoints: kps),
            Detection(classId: 1, label: "ball", confidence: 0.5, box: Rect(x1: 120, y1: 60, x2: 150, y2: 80),
                      mask: BinaryMask(width: 200, height: 120, data: mask)),
        ]
        let out = Annotator.annotate(YOLOResult(width: 200, height: 120, detections: dets), on: grey)
        #expect(px(out, 20, 75) == RGB.forClass(0))            // left edge of the person box
        #expect(px(out, 60, 80) == RGB(51, 153, 255))           // shoulder-to-shoulder skeleton line
        let inside = px(out, 135, 70)                           // mask fill is a blend, neither grey nor the colour
        #expect(inside != RGB(128, 128, 128) && inside != RGB.forClass(1))
        #expect(px(out, 25, 35) == RGB.forClass(0) || px(out, 25, 35) == RGB.forClass(0).contrasting)  // label tag above
        #expect(px(out, 190, 10) == RGB(128, 128, 128))         // untouched background
    }

    @Test func rotatedBoxesAndClassificationDrawAndOffImageShapesAreClipped() {
        let o = OrientedBox(cx: 100, cy: 60, w: 80, h: 30, angle: 0.5)
        let dets = [Detection(classId: 2, label: "court", confidence: 0.7, box: o.boundingBox, obb: o),
                    Detection(classId: 3, label: "far", confidence: 0.7, box: Rect(x1: -500, y1: -500, x2: 5000, y2: 9000))]
        let out = Annotator.annotate(YOLOResult(width: 200, height: 120, detections: dets,
                                                classification: [Classification(classId: 0, label: "forehand", confidence: 0.8)]),
                                     on: grey)
        let c = o.corners[0]
        #expect(px(out, Int(c.x.rounded()), Int(c.y.rounded())) == RGB.forClass(2))
        #expect(out.width == 200 && out.height == 120)
    }
}
