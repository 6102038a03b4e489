import Foundation
import SwingCore
import Testing
@testable import SwingVision

@Suite struct InterpreterRegistryTests {
    let detectJSON = """
    {"model": {"task": "detect", "names": {"0": "person"}, "imgsz": [640, 640]},
     "results": [{"source": "a.mp4", "frame": 3, "time": 0.1, "width": 100, "height": 100,
       "speed": {"preMs": 2.1, "inferenceMs": 45.0, "postMs": 0.3},
       "detections": [
         {"classId": 38, "label": "tennis racket", "confidence": 0.9, "box": {"x1": 10, "y1": 10, "x2": 30, "y2": 30},
          "keypoints": [[1, 2, 0.5]]},
         {"classId": 32, "label": "sports ball", "confidence": 0.8, "box": {"x1": 12, "y1": 12, "x2": 28, "y2": 28}},
         {"classId": 0, "label": "person", "confidence": 0.3, "box": {"x1": 0, "y1": 0, "x2": 50, "y2": 90}}]},
      {"frame": 6, "time": 0.2, "width": 100, "height": 100, "detections": []}]}
    """

    @Test func readsTheDetectJSONShape() throws {
        let frames = try DetectionsDocument.frames(from: Data(detectJSON.utf8))
        #expect(frames.count == 2)
        #expect(frames[0].frameIndex == 3 && frames[0].time == 0.1 && frames[0].detections.count == 3)
        #expect(frames[0].detections[1].box == Rect(x1: 12, y1: 12, x2: 28, y2: 28))
        #expect(frames[1].detections.isEmpty)
    }

    @Test func badDocumentsGiveClearErrors() {
        for (text, fragment) in [("{", "not valid JSON"), ("{\"results\": 3}", "wrong type"),
                                 ("{\"results\": [{\"width\": 10}]}", "missing \"height\""),
                                 ("{\"results\": [{\"width\": 0, \"height\": 5}]}", "non-positive")] {
            do {
                _ = try DetectionsDocument.frames(from: Data(text.utf8))
                Issue.record("accepted \(text)")
            } catch let e as InterpreterError {
                #expect(e.description.contains(fragment), "\(e.description)")
                #expect(e.statusCode == StatusCode.invalidInterpreterInput)
            } catch { Issue.record("unexpected \(error)") }
        }
    }

    @Test func registryFindsEveryBuiltInByName() throws {
        let reg = InterpreterRegistry.standard
        #expect(reg.names == ["passthrough", "counter", "poker", "tennis-contact"])
        for n in reg.names { #expect(try reg.interpreter(named: n).name == n) }
        #expect(throws: InterpreterError.self) { try reg.interpreter(named: "astrology") }
    }

    @Test func configurationJSONChangesThresholds() throws {
        let frames = try DetectionsDocument.frames(from: Data(detectJSON.utf8))
        let strict = try InterpreterRegistry.standard.interpreter(named: "counter",
                                                                  configuration: Data(#"{"minimumConfidence": 0.5}"#.utf8))
        let json = try JSONSerialization.jsonObject(with: strict.interpretVideoJSON(frames)) as? [String: Any]
        #expect((json?["totals"] as? [String: Int]) == ["tennis racket": 1, "sports ball": 1])
        let loose = try InterpreterRegistry.standard.interpreter(named: "counter")
        let j2 = try JSONSerialization.jsonObject(with: loose.interpretVideoJSON(frames)) as? [String: Any]
        #expect((j2?["totals"] as? [String: Int])?["person"] == 1)
        #expect(throws: InterpreterError.self) {
            try InterpreterRegistry.standard.interpreter(named: "counter", configuration: Data(#"{"minimumConfidence": "x"}"#.utf8))
        }
    }

    @Test func tennisJSONHasTheDocumentedShape() throws {
        let frames = try DetectionsDocument.frames(from: Data(detectJSON.utf8))
        let data = try InterpreterRegistry.standard.interpreter(named: "tennis-contact").interpretVideoJSON(frames)
        let obj = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let contacts = try #require(obj["contacts"] as? [[String: Any]])
        #expect(contacts.count == 1)
        #expect(contacts[0]["frame"] as? Int == 3)
        #expect(contacts[0]["rule"] as? String == "iou")
        let pos = try #require(contacts[0]["position"] as? [String: Double])
        #expect(abs((pos["x"] ?? 0) - 0.2) < 1e-12 && abs((pos["y"] ?? 0) - 0.2) < 1e-12)
    }

    @Test func counterCountsPerFrameAndOverAVideo() {
        let c = CounterInterpreter()
        let frames = [["person", "person", "dog"], ["person"], []].enumerated().map { i, labels in
            var f = TestSupport.cards(labels); f.frameIndex = i; return f
        }
        let v = c.interpretVideo(frames)
        #expect(v.totals == ["person": 3, "dog": 1])
        #expect(v.peak == ["person": 2, "dog": 1])
        #expect(v.framesWithLabel == ["person": 2, "dog": 1])
        #expect(v.frames.map(\.result.total) == [3, 1, 0])
    }

    @Test func typeHintsFromLabels() {
        let cards = ["10C", "10D", "10H", "10S", "2C", "2D", "AS", "KH"]
        #expect(ModelTypeHint.infer(task: "detect", labels: cards) == .poker)
        #expect(ModelTypeHint.infer(task: "detect", labels: Array(ModelTypeHint.cocoNames)) == .generic)
        #expect(ModelTypeHint.infer(task: "detect", labels: ["player", "tennis ball", "racket"]) == .tennis)
        #expect(ModelTypeHint.infer(task: "classify", labels: ["angry", "happy", "sad", "neutral"]) == .faceClassification)
        #expect(ModelTypeHint.infer(task: "detect", labels: ["widget", "gadget"]) == .custom)
    }
}
