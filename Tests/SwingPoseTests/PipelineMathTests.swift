import Foundation
import SwingCore
import Testing
@testable import SwingPose

/// The pure pieces of the pipeline, checked against hand-computed values.
@Suite struct PipelineMathTests {
    @Test func anchorsMatchTheDetectorsOutputLayout() {
        let a = DetectorDecoder.anchors
        #expect(a.count == 2254)
        // First grid: 28 × 28 cells of stride 8, two anchors per cell.
        #expect(a[0] == Point2(x: 0.5 / 28, y: 0.5 / 28) && a[1] == a[0])
        #expect(a[2] == Point2(x: 1.5 / 28, y: 0.5 / 28))
        // The last grid (stride 32: three layers share it) has six anchors per cell.
        #expect(a[1568] == Point2(x: 0.5 / 14, y: 0.5 / 14))
        #expect(a[1960] == Point2(x: 0.5 / 7, y: 0.5 / 7) && a[1965] == a[1960])
        #expect(a[2253] == Point2(x: 6.5 / 7, y: 6.5 / 7))
    }

    @Test func decodeAppliesAnchorsScaleSigmoidAndThreshold() {
        var boxes = [Float](repeating: 0, count: 2254 * 12)
        var scores = [Float](repeating: -10, count: 2254)
        // Anchor 2 (centre 1.5/28, 0.5/28): box offset (+22.4, +44.8) px = (+0.1, +0.2), size 112 × 56.
        let b = 2 * 12
        boxes[b] = 22.4; boxes[b + 1] = 44.8; boxes[b + 2] = 112; boxes[b + 3] = 56
        boxes[b + 4] = -11.2; boxes[b + 5] = 0
        scores[2] = 2  // sigmoid(2) = 0.8808
        scores[3] = 1000  // clipped to 100 → ≈ 1, zero-sized box at its anchor
        let d = DetectorDecoder.decode(boxes: boxes, scores: scores, minScore: 0.5, clip: 100)
        #expect(d.count == 2)
        let first = d.first
        #expect(abs((first?.score ?? 0) - 1 / (1 + exp(-2.0))) < 1e-12)
        #expect(abs((first?.xmin ?? 0) - (1.5 / 28 + 0.1 - 0.25)) < 1e-6)
        #expect(abs((first?.height ?? 0) - 0.25) < 1e-6)
        #expect(abs((first?.keypoints[0].x ?? 0) - (1.5 / 28 - 0.05)) < 1e-6)
    }

    @Test func weightedNMSAveragesOverlapsByScoreAndKeepsDisjointPeople() {
        func det(_ x: Double, _ s: Double) -> PersonDetection {
            PersonDetection(score: s, xmin: x, ymin: 0, width: 0.2, height: 0.2,
                            keypoints: [Point2(x: x, y: 0), Point2(x: x, y: 0.1)])
        }
        let out = DetectorDecoder.weightedNMS([det(0.0, 0.6), det(0.02, 0.9), det(0.6, 0.7)], iou: 0.3)
        #expect(out.count == 2)
        #expect(out[0].score == 0.9)
        // (0.02·0.9 + 0·0.6) / 1.5 = 0.012
        #expect(abs(out[0].xmin - 0.012) < 1e-12 && abs(out[0].keypoints[0].x - 0.012) < 1e-12)
        #expect(out[1].xmin == 0.6)
    }

    @Test func letterboxRemovalUndoesTheSquarePadding() {
        // 400 × 200: the image fills the middle half of the square input vertically.
        let d = PersonDetection(score: 1, xmin: 0.5, ymin: 0.25, width: 0.5, height: 0.5,
                                keypoints: [Point2(x: 0.5, y: 0.5)])
        let r = DetectorDecoder.removeLetterbox(d, imageWidth: 400, imageHeight: 200)
        #expect(r.ymin == 0 && r.height == 1 && r.xmin == 0.5 && r.keypoints[0].y == 0.5)
    }

    @Test func regionFromUprightBodyHasNoRotationAndScaledSquareSide() {
        // Scale point straight above the hips: rotation 0, side = 2 · 100 · 1.25.
        let r = RegionOfInterest.fromAlignment(center: Point2(x: 300, y: 400), scalePoint: Point2(x: 300, y: 300),
                                               scale: 1.25)
        #expect(abs(r.rotation) < 1e-12 && r.width == 250 && r.height == 250)
        // Body lying to the right (scale point to the right of the hips): the crop turns by +90°.
        let lying = RegionOfInterest.fromAlignment(center: Point2(x: 0, y: 0), scalePoint: Point2(x: 50, y: 0), scale: 1)
        #expect(abs(lying.rotation - Double.pi / 2) < 1e-12)
        // Projection maps the crop's top-centre to the scale-point direction.
        let c = cos(lying.rotation), s = sin(lying.rotation)
        let top = RegionOfInterest.project(0.5, 0, in: lying, cos: c, sin: s)
        #expect(abs(top.x - 50) < 1e-9 && abs(top.y) < 1e-9)
    }

    @Test func warpOfUnrotatedRegionSamplesTheImage() {
        // A horizontal ramp: pixel value = 10 · x. A 4 × 4 crop of the 8 × 8 region at the image's
        // top-left samples every second pixel from x = 0.
        var px = [UInt8](repeating: 0, count: 16 * 16 * 3)
        for y in 0..<16 { for x in 0..<16 { for c in 0..<3 { px[(y * 16 + x) * 3 + c] = UInt8(10 * x) } } }
        let img = ImageBuffer(width: 16, height: 16, pixels: px)!
        var out = [Float](repeating: -1, count: 4 * 4 * 3)
        out.withUnsafeMutableBufferPointer {
            ImageWarp.crop(img, region: PoseRegion(centerX: 4, centerY: 4, width: 8, height: 8, rotation: 0),
                           size: 4, border: .replicate, scale: 1, offset: 0, into: $0)
        }
        #expect(Array(out[0..<12]) == [0, 0, 0, 20, 20, 20, 40, 40, 40, 60, 60, 60])
        // Outside the image: replicate repeats the edge, zero gives the offset.
        var rep = [Float](repeating: -1, count: 3), zero = [Float](repeating: -1, count: 3)
        let far = PoseRegion(centerX: 100, centerY: 5, width: 1, height: 1, rotation: 0)
        rep.withUnsafeMutableBufferPointer { ImageWarp.crop(img, region: far, size: 1, border: .replicate, scale: 1, offset: 0, into: $0) }
        zero.withUnsafeMutableBufferPointer { ImageWarp.crop(img, region: far, size: 1, border: .zero, scale: 2 / 255, offset: -1, into: $0) }
        #expect(rep == [150, 150, 150] && zero == [-1, -1, -1])
    }

    @Test func heatmapRefinementMovesLandmarkToTheConfidentCell() {
        var raw = RawLandmarks(x: Array(repeating: 0.5, count: 39), y: Array(repeating: 0.5, count: 39),
                               z: Array(repeating: 0, count: 39), visibility: Array(repeating: 1, count: 39),
                               presence: Array(repeating: 1, count: 39), world: [])
        var hm = [Float](repeating: -20, count: 64 * 64 * 39)
        hm[(30 * 64 + 34) * 39 + 0] = 20  // landmark 0: one confident cell at column 34, row 30
        LandmarkDecoder.refine(&raw, heatmap: hm, kernel: 7, minConfidence: 0.5)
        #expect(abs(raw.x[0] - 34.0 / 64) < 1e-6 && abs(raw.y[0] - 30.0 / 64) < 1e-6)
        #expect(raw.x[1] == 0.5)  // no confident cell: left alone
    }

    @Test func oneEuroFollowsAStepSlowlyAtRestAndFastWhenMoving() {
        var slow = OneEuroFilter(OneEuroSettings(minCutoff: 0.05, beta: 0, scaleByObjectSize: false))
        _ = slow.apply(0, time: 0, valueScale: 1)
        let a = slow.apply(1, time: 1.0 / 30, valueScale: 1)
        // alpha = 1 / (1 + 30 / (2π · 0.05)) ≈ 0.0104
        #expect(abs(a - 1 / (1 + 30 / (2 * Double.pi * 0.05))) < 1e-9)
        var fast = OneEuroFilter(OneEuroSettings(minCutoff: 0.05, beta: 80, scaleByObjectSize: false))
        _ = fast.apply(0, time: 0, valueScale: 1)
        #expect(fast.apply(1, time: 1.0 / 30, valueScale: 1) > 0.5)
    }

    @Test func appleJointsAreDerivedFromNamedLandmarks() {
        var w = [Vec3](repeating: .zero, count: 33)
        w[BodyLandmark.leftHip.rawValue] = Vec3(x: 0.1, y: 0, z: 0)
        w[BodyLandmark.rightHip.rawValue] = Vec3(x: -0.1, y: 0, z: 0)
        w[BodyLandmark.leftShoulder.rawValue] = Vec3(x: 0.2, y: -0.5, z: 0)
        w[BodyLandmark.rightShoulder.rawValue] = Vec3(x: -0.2, y: -0.5, z: 0)
        w[BodyLandmark.leftEar.rawValue] = Vec3(x: 0.08, y: -0.7, z: 0)
        w[BodyLandmark.rightEar.rawValue] = Vec3(x: -0.08, y: -0.7, z: 0)
        w[BodyLandmark.rightWrist.rawValue] = Vec3(x: -0.3, y: -0.2, z: -0.4)
        let j = AppleJoints.derive(from: w)
        #expect(Set(j.keys) == Set(AppleJoints.names) && j.count == 17)
        #expect(j["root"] == Vec3(x: 0, y: 0, z: 0) && j["rightWrist"] == w[16])
        #expect(j["spine"] == Vec3(x: 0, y: -0.25, z: 0))
        let top = j["topHead"]
        #expect(abs((top?.y ?? 0) - (-0.7 - 0.16 * 0.75)) < 1e-12)
    }
}
