import Testing
@testable import SwingCore

@Suite struct GeometryTests {
    @Test func iouOfKnownBoxes() {
        let a = Rect(x1: 0, y1: 0, x2: 10, y2: 10)
        #expect(a.iou(a) == 1)
        #expect(a.iou(Rect(x1: 5, y1: 0, x2: 15, y2: 10)) == 50.0 / 150.0)
        #expect(a.iou(Rect(x1: 10, y1: 0, x2: 20, y2: 10)) == 0)      // touching edges
        #expect(a.iou(Rect(x1: 3, y1: 3, x2: 3, y2: 3)) == 0)         // zero area
    }

    @Test func visionRectRoundTrip() {
        let r = Rect(x1: 0.1, y1: 0.2, x2: 0.4, y2: 0.9)
        let v = VisionCoordinates.visionRect(fromTopLeft: r)
        #expect(abs(v.y - 0.1) < 1e-12)   // bottom-left origin: 1 − y2
        let back = VisionCoordinates.topLeftRect(fromVision: v.x, y: v.y, width: v.width, height: v.height)
        #expect(abs(back.x1 - r.x1) < 1e-12 && abs(back.y1 - r.y1) < 1e-12)
        #expect(abs(back.x2 - r.x2) < 1e-12 && abs(back.y2 - r.y2) < 1e-12)
    }

    @Test func crossProductIsRightHanded() {
        let x = Vec3(x: 1, y: 0, z: 0), y = Vec3(x: 0, y: 1, z: 0)
        #expect(x.cross(y) == Vec3(x: 0, y: 0, z: 1))
        #expect(Vec3(x: 3, y: 4, z: 0).length == 5)
        #expect(Vec3.zero.normalized == nil)
    }

    @Test func orientedBoxCornersSpanItsBounds() {
        let b = OrientedBox(cx: 10, cy: 20, w: 8, h: 4, angle: .pi / 2)
        let bb = b.boundingBox
        #expect(abs(bb.width - 4) < 1e-9 && abs(bb.height - 8) < 1e-9)
    }

    @Test func maskRLEIsColumnMajorStartingWithZeros() {
        // 2×2 mask with only the top-right pixel set: column-major order is (0,0),(0,1),(1,0),(1,1) → 0,0,1,0
        let m = BinaryMask(width: 2, height: 2, data: [0, 1, 0, 0])
        #expect(m.cocoRLE == [2, 1, 1])
        #expect(BinaryMask(width: 1, height: 2, data: [1, 1]).cocoRLE == [0, 2])
    }
}
