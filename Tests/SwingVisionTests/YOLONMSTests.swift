import SwingCore
import Testing

@Suite struct YOLONMSTests {
    func cand(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ s: Float, cls: Int = 0, _ i: Int) -> NMSCandidate {
        NMSCandidate(box: Rect(x1: x1, y1: y1, x2: x2, y2: y2), score: s, classId: cls, index: i)
    }

    @Test func overlappingBoxesKeepTheBestAndDisjointOnesSurvive() {
        let kept = NonMaxSuppression.run([
            cand(0, 0, 10, 10, 0.8, 0), cand(1, 1, 11, 11, 0.9, 1), cand(50, 50, 60, 60, 0.3, 2),
        ])
        #expect(kept.map(\.index) == [1, 2])
    }

    @Test func iouExactlyAtTheThresholdIsKept() {
        // Two 10×10 boxes offset so IoU = 50/150 = 1/3; threshold 1/3 keeps both (keep when IoU ≤ iou).
        let a = cand(0, 0, 10, 10, 0.9, 0), b = cand(5, 0, 15, 10, 0.8, 1)
        #expect(NonMaxSuppression.run([a, b], options: NMSOptions(iouThreshold: 1.0 / 3.0)).count == 2)
        #expect(NonMaxSuppression.run([a, b], options: NMSOptions(iouThreshold: 0.3)).count == 1)
    }

    @Test func tiesKeepInputOrderAndIdenticalBoxesCollapse() {
        let kept = NonMaxSuppression.run([cand(0, 0, 10, 10, 0.5, 0), cand(0, 0, 10, 10, 0.5, 1), cand(0, 0, 10, 10, 0.5, 2)])
        #expect(kept.map(\.index) == [0])
        let order = NonMaxSuppression.run([cand(0, 0, 1, 1, 0.5, 0), cand(5, 5, 6, 6, 0.5, 1), cand(9, 9, 10, 10, 0.7, 2)])
        #expect(order.map(\.index) == [2, 0, 1])
    }

    @Test func zeroAreaBoxesNeverSuppressAndAreNeverSuppressed() {
        let kept = NonMaxSuppression.run([cand(5, 5, 5, 5, 0.9, 0), cand(5, 5, 5, 5, 0.8, 1), cand(0, 0, 10, 10, 0.7, 2)])
        #expect(kept.count == 3)
    }

    @Test func classAwareByDefaultAgnosticOnRequest() {
        let a = cand(0, 0, 10, 10, 0.9, cls: 0, 0), b = cand(0, 0, 10, 10, 0.8, cls: 1, 1)
        #expect(NonMaxSuppression.run([a, b]).count == 2)
        #expect(NonMaxSuppression.run([a, b], options: NMSOptions(agnostic: true)).map(\.index) == [0])
    }

    @Test func moreCandidatesThanMaxDetAreCappedBestFirst() {
        let many = (0..<500).map { i in cand(Double(i * 20), 0, Double(i * 20 + 10), 10, Float(i) / 1000, i) }
        let kept = NonMaxSuppression.run(many, options: NMSOptions(maxDetections: 300))
        #expect(kept.count == 300)
        #expect(kept.first?.index == 499 && kept.last?.index == 200)
        #expect(NonMaxSuppression.run(many, options: NMSOptions(maxDetections: 300, maxCandidates: 10)).count == 10)
    }

    @Test func probIoUIsOneForIdenticalAndSymmetricUnderHalfTurnSwaps() {
        let a = OrientedBox(cx: 50, cy: 50, w: 40, h: 10, angle: 0.3)
        #expect(abs(RotatedNMS.probIoU(a, a) - 1) < 1e-3)
        // The same rectangle described with w/h swapped and the angle turned by π/2.
        let b = OrientedBox(cx: 50, cy: 50, w: 10, h: 40, angle: 0.3 + Double.pi / 2)
        #expect(abs(RotatedNMS.probIoU(a, b) - 1) < 1e-3)
        let far = OrientedBox(cx: 500, cy: 500, w: 40, h: 10, angle: 0.3)
        #expect(RotatedNMS.probIoU(a, far) < 1e-3)
        // A 90°-turned thin box overlaps little.
        let cross = OrientedBox(cx: 50, cy: 50, w: 40, h: 10, angle: 0.3 + Double.pi / 2)
        #expect(RotatedNMS.probIoU(a, cross) < 0.5)
    }

    @Test func rotatedFastNMSSuppressesEvenBehindASuppressedBox() {
        // B overlaps A (suppressed); C overlaps B only. Fast-NMS (Ultralytics) also drops C.
        func rc(_ cx: Double, _ s: Float, _ i: Int) -> RotatedCandidate {
            RotatedCandidate(box: OrientedBox(cx: cx, cy: 0, w: 20, h: 20, angle: 0), score: s, classId: 0, index: i)
        }
        let a = rc(0, 0.9, 0), b = rc(4, 0.8, 1), c = rc(8, 0.7, 2)
        #expect(RotatedNMS.probIoU(a.box, b.box) > 0.45 && RotatedNMS.probIoU(b.box, c.box) > 0.45)
        #expect(RotatedNMS.run([a, b, c], options: NMSOptions(iouThreshold: 0.45)).map(\.index) == [0])
        #expect(RotatedNMS.run([a, b, c], options: NMSOptions(iouThreshold: 0.99)).count == 3)
    }
}
