import SwingCore
import Testing
@testable import SwingVision

@Suite struct YOLOMetadataTests {
    @Test func namesWithOddCharactersParse() throws {
        // Exactly what Python's str(dict) writes for these names (see ODD_NAMES in the fixture script).
        let text = #"{0: "it's", 1: 'say "hi"', 2: 'back\\slash', 3: 'ünïcødé 🎾', 4: 'a, b: {c}', 5: 'tab\there'}"#
        let names = try #require(PythonLiteral.parse(text)?.classNames)
        #expect(names == [0: "it's", 1: #"say "hi""#, 2: #"back\slash"#, 3: "ünïcødé 🎾", 4: "a, b: {c}", 5: "tab\there"])
    }

    @Test func literalEdgeCases() {
        #expect(PythonLiteral.parse("{0: 'a',}")?.classNames == [0: "a"])  // trailing comma
        #expect(PythonLiteral.parse("['x', \"y\"]")?.classNames == [0: "x", 1: "y"])
        #expect(PythonLiteral.parse("'a' 'b'") == .string("ab"))
        #expect(PythonLiteral.parse(#"'\x41\u00e9\U0001F3BE\q'"#) == .string("Aé🎾\\q"))
        #expect(PythonLiteral.parse("[640, 640]")?.listValue?.compactMap(\.intValue) == [640, 640])
        #expect(PythonLiteral.parse("(17, 3)")?.listValue?.compactMap(\.intValue) == [17, 3])
        #expect(PythonLiteral.parse("{'nms': True, 'x': None, 'f': -1.5e-3}") != nil)
        #expect(PythonLiteral.parse("{0: 'unterminated}") == nil)
        #expect(PythonLiteral.parse("{0: 'a'} trailing") == nil)
        #expect(PythonLiteral.parse("") == nil)
    }

    let meta = ["task": "detect", "names": "{0: 'person', 1: 'car'}", "imgsz": "[640, 640]", "stride": "32"]

    @Test func infoFromMetadataAndShapes() throws {
        let d = try YOLOModelInfo(metadata: meta, inputShape: [1, 3, 640, 640], outputShapes: [[1, 6, 8400]])
        #expect(d.task == .detect && d.names == [0: "person", 1: "car"] && !d.endToEnd && d.imgsz == [640, 640])
        let e = try YOLOModelInfo(metadata: meta.merging(["end2end": "True"]) { $1 }, inputShape: [1, 3, 640, 640],
                                  outputShapes: [[1, 300, 6]])
        #expect(e.endToEnd)
        var pose = meta; pose["task"] = "pose"; pose["kpt_shape"] = "[17, 3]"; pose["names"] = "{0: 'person'}"
        let p = try YOLOModelInfo(metadata: pose, inputShape: [1, 3, 640, 640], outputShapes: [[1, 56, 8400]])
        #expect(p.kptShape == [17, 3] && p.task == .pose)
    }

    @Test func taskInferredFromShapesWithoutMetadata() throws {
        #expect(try YOLOModelInfo(metadata: [:], inputShape: [1, 3, 320, 320], outputShapes: [[1, 84, 2100]]).task == .detect)
        let s = try YOLOModelInfo(metadata: [:], inputShape: [1, 3, 320, 320], outputShapes: [[1, 116, 2100], [1, 32, 80, 80]])
        #expect(s.task == .segment && s.classCount == 80)
        let c = try YOLOModelInfo(metadata: [:], inputShape: [1, 3, 224, 224], outputShapes: [[1, 1000]])
        #expect(c.task == .classify && c.classCount == 1000)
        #expect(try YOLOModelInfo(metadata: [:], inputShape: [1, 3, 640, 640], outputShapes: [[1, 300, 6]]).endToEnd)
    }

    @Test func nonYOLOShapesAreRejectedNamingTheShapes() {
        do {
            _ = try YOLOModelInfo(metadata: meta, inputShape: [1, 3, 640, 640], outputShapes: [[1, 10, 8400]])
            Issue.record("expected an error")
        } catch let e as VisionError {
            #expect(e.statusCode == StatusCode.modelUnsupported && e.description.contains("[1, 10, 8400]"))
        } catch { Issue.record("wrong error \(error)") }
        #expect(throws: VisionError.self) {
            try YOLOModelInfo(metadata: [:], inputShape: [1, 4], outputShapes: [[1, 4]])
        }
        #expect(throws: VisionError.self) {
            try YOLOModelInfo(metadata: [:], inputShape: [1, 3, 64, 64], outputShapes: [[1, 2, 3, 4]])
        }
    }

    @Test func invalidClassFilterIsAClearError() {
        let o = PredictionOptions(classes: [0, 7])
        #expect(throws: VisionError(.invalidClassFilter, "Class ids [7] are not in this model (it has classes 0…1).")) {
            try o.validate(classCount: 2)
        }
        #expect(VisionError(.invalidClassFilter, "x").statusCode == StatusCode.invalidClassFilter)
    }
}
