import Foundation
import SwingCore
import Testing
import SwingPipeline
import SwingVision

@Suite struct DetectionDocumentTests {
    /// Encodes like `swingmaster detect --json` and decodes back to a plain JSON object.
    private func encode(_ report: DetectionDocument) throws -> [String: Any] {
        let data = try JSONEncoder().encode(report)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func documentHasTheIssueShape() throws {
        // A 2×3 (w×h) mask with pixels (0,1), (1,1) and (1,2) set (x,y).
        let mask = BinaryMask(width: 2, height: 3, data: [0, 0, 1, 1, 0, 1])
        let detections = [
            Detection(classId: 0, label: "person", confidence: 0.91, box: Rect(x1: 48.1, y1: 398.2, x2: 245.3, y2: 902.7),
                      keypoints: [Keypoint(x: 1, y: 2, visibility: 0.5)], mask: mask),
            Detection(classId: 1, label: "plane", confidence: 0.5, box: Rect(x1: 0, y1: 0, x2: 2, y2: 2),
                      obb: OrientedBox(cx: 1, cy: 1, w: 2, h: 2, angle: 0)),
        ]
        let frame = DetectionDocument.Frame(source: "bus.jpg", frame: 0, time: 0, width: 810, height: 1080,
                                       speed: .init(preMs: 2.1, inferenceMs: 45, postMs: 0.3),
                                       detections: detections, classification: nil)
        let report = DetectionDocument(model: .init(task: "detect", names: ["0": "person"], imgsz: [640, 640]), results: [frame])
        let json = try encode(report)
        let model = try #require(json["model"] as? [String: Any])
        #expect(model["task"] as? String == "detect")
        #expect(model["names"] as? [String: String] == ["0": "person"])
        #expect(model["imgsz"] as? [Int] == [640, 640])
        let result = try #require((json["results"] as? [[String: Any]])?.first)
        #expect(result["source"] as? String == "bus.jpg")
        #expect(result["width"] as? Int == 810 && result["height"] as? Int == 1080)
        #expect((result["speed"] as? [String: Double])?["inferenceMs"] == 45)
        #expect(result["classification"] == nil)  // classify models only
        let items = try #require(result["detections"] as? [[String: Any]])
        let first = items[0]
        #expect(first["classId"] as? Int == 0 && first["label"] as? String == "person")
        #expect((first["box"] as? [String: Double])?["y2"] == 902.7)
        #expect(first["keypoints"] as? [[Double]] == [[1, 2, 0.5]])
        let rle = try #require(first["mask"] as? [String: Any])
        #expect(rle["size"] as? [Int] == [3, 2])  // [height, width]
        // Column-major order 0,1,0 | 0,1,1 → runs: one 0, one 1, two 0s, two 1s.
        #expect(rle["counts"] as? [Int] == [1, 1, 2, 2])
        #expect(first["obb"] == nil)
        let second = items[1]
        let obb = try #require(second["obb"] as? [String: Any])
        #expect(obb["angle"] as? Double == 0)
        #expect(obb["points"] as? [[Double]] == [[2, 2], [2, 0], [0, 0], [0, 2]])
        #expect(second["mask"] == nil && second["keypoints"] == nil)
    }

    @Test func trackIdIsWrittenOnlyForTrackedDetections() throws {
        let d = Detection(classId: 2, label: "ball", confidence: 0.8, box: Rect(x1: 1, y1: 2, x2: 30, y2: 40))
        let result = YOLOResult(width: 64, height: 48, detections: [d, d])
        let tracked = [TrackedDetection(detection: d, trackId: 7, detectionIndex: 1, trackBox: d.box, trail: [d.box.center])]
        let plain = DetectionDocument.Frame(result, source: "v.mp4", frame: 3, time: 0.1)
        let withTracks = DetectionDocument.Frame(result, tracked: tracked, source: "v.mp4", frame: 3, time: 0.1)
        let json = try encode(DetectionDocument(model: .init(task: "detect", names: ["2": "ball"], imgsz: [64, 64]),
                                                results: [plain, withTracks]))
        let results = try #require(json["results"] as? [[String: Any]])
        let untracked = try #require(results[0]["detections"] as? [[String: Any]])
        #expect(untracked.count == 2 && untracked.allSatisfy { $0["trackId"] == nil })
        let items = try #require(results[1]["detections"] as? [[String: Any]])
        #expect(items.count == 1)   // the tracked detections only, as `yolo track` reports them
        #expect(items.first?["trackId"] as? Int == 7)
        #expect(items.first?["label"] as? String == "ball" && (items.first?["box"] as? [String: Double])?["x2"] == 30)
        // The document reads back into the same values.
        let document = DetectionDocument(model: .init(task: "detect", names: [:], imgsz: [64, 64]), results: [plain, withTracks])
        let decoded = try JSONDecoder().decode(DetectionDocument.self, from: JSONEncoder().encode(document))
        #expect(decoded == document)
        #expect(decoded.results[1].detections.first?.trackId == 7 && decoded.results[0].detections.first?.trackId == nil)
    }

    @Test func classificationIsListedForClassifiers() throws {
        let frame = DetectionDocument.Frame(source: "a.png", frame: 0, time: 0, width: 1, height: 1,
                                       speed: .init(preMs: 0, inferenceMs: 0, postMs: 0), detections: [],
                                       classification: [Classification(classId: 3, label: "x", confidence: 0.7)])
        let json = try encode(DetectionDocument(model: .init(task: "classify", names: [:], imgsz: [224, 224]), results: [frame]))
        let result = try #require((json["results"] as? [[String: Any]])?.first)
        let top = try #require(result["classification"] as? [[String: Any]])
        #expect(top.first?["classId"] as? Int == 3)
        #expect(top.first?["confidence"] as? Double == 0.7)
    }
}
