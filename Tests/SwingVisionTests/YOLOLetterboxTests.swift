import Foundation
import SwingCore
import Testing
@testable import SwingVision

@Suite struct YOLOLetterboxTests {
    @Test func geometryMatchesUltralyticsRounding() {
        let g = LetterboxGeometry(sourceWidth: 1280, sourceHeight: 720, targetWidth: 640, targetHeight: 640)
        #expect(g.resizedWidth == 640 && g.resizedHeight == 360)
        #expect(g.top == 140 && g.bottom == 140 && g.left == 0 && g.right == 0)
        // Odd padding: 283×400 into 160 → 113×160, dw = 47 → left round(23.4) = 23, right round(23.6) = 24.
        let o = LetterboxGeometry(sourceWidth: 283, sourceHeight: 400, targetWidth: 160, targetHeight: 160)
        #expect(o.resizedWidth == 113 && o.left == 23 && o.right == 24)
        #expect(o.left + o.resizedWidth + o.right == 160)
    }

    @Test func pythonRoundIsHalfToEven() {
        #expect(pythonRound(2.5) == 2 && pythonRound(3.5) == 4 && pythonRound(-0.5) == 0 && pythonRound(0.6) == 1)
    }

    @Test(arguments: [(1280, 720), (283, 400), (333, 517), (1, 3000), (640, 640)])
    func pointsRoundTrip(_ size: (Int, Int)) {
        let g = LetterboxGeometry(sourceWidth: size.0, sourceHeight: size.1, targetWidth: 640, targetHeight: 640)
        for p in [Point2(x: 0, y: 0), Point2(x: Double(size.0) / 3, y: Double(size.1) * 0.7)] {
            let q = g.toSource(g.toInput(p))
            #expect(abs(q.x - p.x) < 1e-9 && abs(q.y - p.y) < 1e-9)
        }
        let box = g.toSource(Rect(x1: -50, y1: -50, x2: 5000, y2: 5000))
        #expect(box == Rect(x1: 0, y1: 0, x2: Double(size.0), y2: Double(size.1)))
    }

    struct Record: Decodable { var size: Int; var sum: Int; var sumSquares: Int; var samples: [[Int]] }

    /// Our resize + pad against Ultralytics' LetterBox (cv2.INTER_LINEAR) on the same images.
    @Test(arguments: ["astronaut", "astronaut-crop", "synthetic-1280x720", "synthetic-160x160"])
    func letterboxPixelsMatchOpenCV(_ name: String) throws {
        let all = try JSONDecoder().decode([String: [Record]].self,
                                           from: Data(contentsOf: YOLOFixtures.directory.appendingPathComponent("letterbox.json")))
        let image = try YOLOFixtures.image(name)
        for rec in try #require(all[name]) {
            let g = LetterboxGeometry(sourceWidth: image.width, sourceHeight: image.height,
                                      targetWidth: rec.size, targetHeight: rec.size)
            var chw: [Float] = []
            Letterbox.tensor(image, geometry: g, into: &chw)
            let plane = rec.size * rec.size
            // Back to HWC bytes, the layout of the reference.
            func byte(_ flat: Int) -> Int { Int((chw[(flat % 3) * plane + flat / 3] * 255).rounded()) }
            var maxDiff = 0, sum = 0
            for s in rec.samples { maxDiff = max(maxDiff, abs(byte(s[0]) - s[1])) }
            for f in 0..<(plane * 3) { sum += byte(f) }
            #expect(maxDiff <= 1, "\(name)@\(rec.size): max sampled difference \(maxDiff)")
            // Mean absolute drift below 0.01 grey levels per pixel.
            #expect(abs(sum - rec.sum) <= plane * 3 / 100, "\(name)@\(rec.size): sum \(sum) vs \(rec.sum)")
        }
    }

    @Test func classifyResizeKeepsShortSideAndCropsCentre() {
        let s = ClassifyTransform.resizedSize(width: 1280, height: 720, targetWidth: 96, targetHeight: 96)
        #expect(s.width == 170 && s.height == 96)  // int(96·1280/720) = 170
        let img = ImageBuffer(width: 300, height: 200, fill: (200, 100, 50))
        let t = ClassifyTransform.tensor(img, targetWidth: 96, targetHeight: 96)
        #expect(t.count == 3 * 96 * 96)
        #expect(abs(t[0] - 200 / 255) < 1e-6 && abs(t[96 * 96] - 100 / 255) < 1e-6 && abs(t[2 * 96 * 96 + 500] - 50 / 255) < 1e-6)
    }

    @Test func resizeOfConstantImageIsConstant() {
        let img = ImageBuffer(width: 37, height: 91, fill: (10, 20, 30))
        let r = Letterbox.resizeBilinear(img, width: 100, height: 13)
        #expect(r.width == 100 && r.height == 13)
        #expect(stride(from: 0, to: r.pixels.count, by: 3).allSatisfy { r.pixels[$0] == 10 && r.pixels[$0 + 1] == 20 && r.pixels[$0 + 2] == 30 })
    }
}
