import SwingCore
import Testing
@testable import SwingVision

/// Hand-built raw tensors for every task and both output styles.
@Suite struct YOLODecoderTests {
    /// A raw `[1, C, N]` tensor from per-anchor rows.
    func raw(_ anchors: [[Float]]) -> RawTensor {
        let c = anchors[0].count, n = anchors.count
        var d = [Float](repeating: 0, count: c * n)
        for (i, a) in anchors.enumerated() { for (k, v) in a.enumerated() { d[k * n + i] = v } }
        return RawTensor(shape: [1, c, n], data: d)
    }

    let square = LetterboxGeometry(sourceWidth: 640, sourceHeight: 640, targetWidth: 640, targetHeight: 640)
    let wide = LetterboxGeometry(sourceWidth: 1280, sourceHeight: 720, targetWidth: 640, targetHeight: 640)

    /// Out-of-range options are parameter errors (exit 60 in the README's table), not generic failures.
    @Test(arguments: [PredictionOptions(conf: 1.5), PredictionOptions(iou: -0.1), PredictionOptions(conf: .nan),
                      PredictionOptions(maxDet: -1)])
    func badOptionsAreParameterErrors(options: PredictionOptions) {
        #expect {
            try options.validate(classCount: 80)
        } throws: { error in
            (error as? VisionError)?.statusCode == StatusCode.invalidParameter
        }
    }

    @Test func detectRawThresholdNMSAndMapping() throws {
        let info = YOLOModelInfo(task: .detect, names: [0: "a", 1: "b"], imgsz: [640, 640])
        let t = raw([[100, 240, 40, 40, 0.9, 0.1], [102, 240, 40, 40, 0.8, 0.2], [300, 300, 20, 20, 0.1, 0.25],
                     [300, 300, 20, 20, 0.05, 0.3]])
        let out = try YOLODecoder(info: info).decode([t], letterbox: wide, options: PredictionOptions())
        #expect(out.detections.map(\.classId) == [0, 1])  // 0.25 is not > 0.25
        let d = try #require(out.detections.first)
        // Input (80,220)-(120,260) → minus 140 px top padding, ×2.
        #expect(d.box == Rect(x1: 160, y1: 160, x2: 240, y2: 240) && d.label == "a" && abs(d.confidence - 0.9) < 1e-6)
        let filtered = try YOLODecoder(info: info).decode([t], letterbox: wide, options: PredictionOptions(classes: [1]))
        #expect(filtered.detections.map(\.classId) == [1])
    }

    @Test func endToEndOutputsAreOnlyThresholdedAndCapped() throws {
        let info = YOLOModelInfo(task: .detect, names: [0: "a", 1: "b"], imgsz: [640, 640], endToEnd: true)
        let rows: [Float] = [10, 10, 50, 50, 0.9, 1, 10, 10, 50, 50, 0.8, 1, 0, 0, 5, 5, 0.1, 0]
        let t = RawTensor(shape: [1, 3, 6], data: rows)
        let out = try YOLODecoder(info: info).decode([t], letterbox: square, options: PredictionOptions())
        #expect(out.detections.count == 2)  // no NMS: the identical boxes both stay
        #expect(try YOLODecoder(info: info).decode([t], letterbox: square, options: PredictionOptions(maxDet: 1)).detections.count == 1)
    }

    @Test func poseKeypointsAreMappedAndClipped() throws {
        let info = YOLOModelInfo(task: .pose, names: [0: "person"], imgsz: [640, 640], kptShape: [2, 3])
        let t = raw([[320, 320, 100, 100, 0.9, 330, 340, 0.7, -20, 700, 0.2]])
        let d = try #require(try YOLODecoder(info: info).decode([t], letterbox: wide, options: PredictionOptions()).detections.first)
        let k = try #require(d.keypoints)
        #expect(k[0] == Keypoint(x: 660, y: 400, visibility: Double(Float(0.7))))
        #expect(k[1].x == 0 && k[1].y == 720)  // clipped to the image like scale_coords
    }

    @Test func obbRawAndEndToEnd() throws {
        let info = YOLOModelInfo(task: .obb, names: [0: "ship"], imgsz: [640, 640])
        let t = raw([[320, 320, 100, 20, 0.9, 0.5], [322, 320, 100, 20, 0.8, 0.5], [100, 100, 30, 30, 0.7, 0]])
        let out = try YOLODecoder(info: info).decode([t], letterbox: wide, options: PredictionOptions())
        #expect(out.detections.count == 2)
        let o = try #require(out.detections.first?.obb)
        #expect(abs(o.cx - 640) < 1e-9 && abs(o.cy - 360) < 1e-9 && abs(o.w - 200) < 1e-9 && abs(o.h - 40) < 1e-9)
        #expect(abs(o.angle - 0.5) < 1e-6)
        var e2eInfo = info; e2eInfo.endToEnd = true
        let e = RawTensor(shape: [1, 1, 7], data: [320, 320, 100, 20, 0.9, 0, 0.5])
        #expect(try YOLODecoder(info: e2eInfo).decode([e], letterbox: wide, options: PredictionOptions()).detections.count == 1)
    }

    @Test func classifyIsTopKWithoutSecondSoftmax() throws {
        let info = YOLOModelInfo(task: .classify, names: Dictionary(uniqueKeysWithValues: (0..<7).map { ($0, "c\($0)") }), imgsz: [96, 96])
        let t = RawTensor(shape: [1, 7], data: [0.05, 0.3, 0.1, 0.3, 0.15, 0.05, 0.05])
        let c = try #require(try YOLODecoder(info: info).decode([t], letterbox: square, options: PredictionOptions()).classification)
        #expect(c.map(\.classId) == [1, 3, 4, 2, 0])
        #expect(abs(c[0].confidence - 0.3) < 1e-7)
    }

    /// A segment model whose single prototype is +1 everywhere: the mask is exactly the box, cut at image borders.
    @Test func masksAreCroppedToTheBoxAndImageBorders() throws {
        let info = YOLOModelInfo(task: .segment, names: [0: "a"], imgsz: [64, 64])
        var anchor: [Float] = [8, 32, 24, 16, 0.9]  // box x 0…20 (touches the left edge), y 24…40
        anchor += [1] + [Float](repeating: 0, count: 31)
        let protos = RawTensor(shape: [1, 32, 16, 16], data: [Float](repeating: 1, count: 16 * 16) + [Float](repeating: -1, count: 31 * 16 * 16))
        let g = LetterboxGeometry(sourceWidth: 64, sourceHeight: 32, targetWidth: 64, targetHeight: 64)  // 16 px top pad
        let d = try #require(try YOLODecoder(info: info).decode([raw([anchor]), protos], letterbox: g,
                                                                options: PredictionOptions()).detections.first)
        let m = try #require(d.mask)
        #expect(m.width == 64 && m.height == 32)
        // Box in image pixels: x 0…20, y 8…24 → 20 × 16 pixels set, nothing outside.
        #expect(m.area == 20 * 16)
        #expect(m.data[8 * 64] == 1 && m.data[7 * 64] == 0 && m.data[8 * 64 + 20] == 0)
        // A negative-coefficient mask is empty → the detection is dropped, as Ultralytics does.
        var neg = anchor; neg[5] = -1
        #expect(try YOLODecoder(info: info).decode([raw([neg]), protos], letterbox: g, options: PredictionOptions()).detections.isEmpty)
    }

    @Test func mismatchedTensorsAreRejected() {
        let info = YOLOModelInfo(task: .detect, names: [0: "a"], imgsz: [640, 640])
        #expect(throws: VisionError.self) {
            try YOLODecoder(info: info).decode([RawTensor(shape: [1, 9, 10], data: [Float](repeating: 0, count: 90))],
                                               letterbox: square, options: PredictionOptions())
        }
        #expect(throws: VisionError.self) {
            try YOLODecoder(info: info).decode([RawTensor(shape: [1, 5, 10], data: [0])], letterbox: square, options: PredictionOptions())
        }
    }
}
