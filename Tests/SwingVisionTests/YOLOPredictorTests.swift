import Foundation
import SwingCore
import SwingInference
import Testing
@testable import SwingVision

/// The whole predictor (our letterbox → ONNX Runtime → our decoder) against Ultralytics' predictor on the same
/// ONNX files and images. Needs the ONNX Runtime library (`make setup` installs it; `make test` points at it).
@Suite struct YOLOPredictorTests {
    static let cases: [String] = ((try? YOLOFixtures.reference().cases) ?? [])
        .filter(\.committed).map { "\($0.model)|\($0.image)" }

    @Test(arguments: cases)
    func predictorMatchesUltralytics(_ key: String) throws {
        let ref = try YOLOFixtures.reference()
        let c = try #require(ref.cases.first { "\($0.model)|\($0.image)" == key })
        let predictor = try YOLOPredictor(modelPath: YOLOFixtures.path(c.model))
        let image = try YOLOFixtures.image(c.image)
        let result = try predictor.predict(image, options: PredictionOptions(conf: c.conf, iou: ref.iou, maxDet: c.maxDet))
        #expect(result.width == image.width && result.height == image.height)
        if let expected = c.classification {
            let ours = try #require(result.classification)
            #expect(ours.map(\.classId) == expected.map(\.classId), "\(key)")
            let err = zip(ours, expected).map { abs($0.confidence - $1.confidence) }.max() ?? 0
            print("parity \(key): top-5 classes equal \(ours.map(\.classId) == expected.map(\.classId)), conf err \(err)")
            #expect(err <= 1e-3, "\(key)")
            return
        }
        let report = ParityReport.compare(c, result.detections)
        print("parity \(key): \(report)")  // the numbers quoted in reports
        #expect(report.passes, "\(key): \(report) unmatched: \(report.unmatched.prefix(5))")
        #expect(report.expected > 0)
    }

    @Test func metadataNamesAndTaskAreRead() throws {
        let p = try YOLOPredictor(modelPath: YOLOFixtures.path("tiny26-detect.onnx"))
        #expect(p.info.task == .detect && p.info.endToEnd && p.info.imgsz == [160, 160])
        #expect(p.info.names[0] == "it's" && p.info.names[1] == #"say "hi""# && p.info.names[3] == "ünïcødé 🎾")
        let s = try YOLOPredictor(modelPath: YOLOFixtures.path("tiny26-segment.onnx"))
        #expect(s.info.task == .segment && s.info.endToEnd)
        let c = try YOLOPredictor(modelPath: YOLOFixtures.path("tiny-classify.onnx"))
        #expect(c.info.task == .classify && c.info.classCount == 10)
    }

    @Test func badModelsFailWithClearErrors() throws {
        let missing = #expect(throws: InferenceError.self) { try YOLOPredictor(modelPath: "/nonexistent/model.onnx") }
        #expect(missing?.statusCode == StatusCode.modelUnreadable)
        let garbage = FileManager.default.temporaryDirectory.appendingPathComponent("vision-garbage-\(UInt32.random(in: 0...UInt32.max)).onnx")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2654435761) }).write(to: garbage)
        defer { try? FileManager.default.removeItem(at: garbage) }
        #expect(throws: InferenceError.self) { try YOLOPredictor(modelPath: garbage.path) }
        // A valid ONNX model that is not YOLO (from SwingInference's fixtures).
        let other = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../SwingInferenceTests/Fixtures/affine.onnx").standardized.path
        if FileManager.default.fileExists(atPath: other) {
            let e = #expect(throws: VisionError.self) { try YOLOPredictor(modelPath: other) }
            #expect(e?.statusCode == StatusCode.modelUnsupported)
        }
    }

    @Test func classFilterAndTimings() throws {
        let p = try YOLOPredictor(modelPath: YOLOFixtures.path("tiny26-detect.onnx"))
        let image = YOLOFixtures.synthetic(width: 320, height: 200)
        #expect(throws: VisionError.self) { try p.predict(image, options: PredictionOptions(classes: [6])) }
        let all = try p.predict(image, options: PredictionOptions(conf: 0.3))
        let only = try p.predict(image, options: PredictionOptions(conf: 0.3, classes: [2]))
        #expect(only.detections.allSatisfy { $0.classId == 2 })
        #expect(only.detections.count == all.detections.filter { $0.classId == 2 }.count)
        #expect(all.speed.preMs > 0 && all.speed.inferenceMs > 0 && all.speed.postMs >= 0)
        for d in all.detections {
            let n = all.normalizedBox(d)
            #expect(n.x1 >= 0 && n.x2 <= 1 && n.y1 >= 0 && n.y2 <= 1)
        }
    }
}
