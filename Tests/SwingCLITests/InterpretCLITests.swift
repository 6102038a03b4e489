import Foundation
import SwingTestSupport
import SwingCore
import Testing

/// `swingmaster interpret` through the real binary.
@Suite struct InterpretCLITests {
    func write(_ text: String) throws -> URL {
        let dir = try TestFiles.temporaryDirectory("interpret")
        let url = dir.appendingPathComponent("detections.json")
        try Data(text.utf8).write(to: url)
        return url
    }

    func cards(_ labels: [String]) -> String {
        let dets = labels.enumerated().map { i, l in
            #"{"classId": \#(i), "label": "\#(l)", "confidence": 0.9, "box": {"x1": 1, "y1": 2, "x2": 30, "y2": 40}}"#
        }
        return #"{"model": {"task": "detect"}, "results": [{"source": "table.jpg", "frame": 0, "time": 0.0, "width": 640, "height": 480, "detections": [\#(dets.joined(separator: ","))]}]}"#
    }

    @Test func pokerPrintsHandRankAndCards() throws {
        let file = try write(cards(["9h", "10H", "JH", "QH", "KH", "KH", "2c", "bogus"]))
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let out = try SwingmasterBinary.run(["interpret", "poker", "--detections", file.path])
        #expect(out.status == 0, "\(out.stderr)")
        let obj = try #require(try JSONSerialization.jsonObject(with: out.data) as? [String: Any])
        #expect(obj["hand"] as? String == "Straight flush")
        #expect(obj["cards"] as? [String] == ["9H", "10H", "JH", "QH", "KH"])
        #expect(obj["evaluatorRank"] as? Int == 2)       // K-high straight flush: second best class
        #expect(obj["rank"] as? Int == 7461)
    }

    @Test func tennisContactPrintsContacts() throws {
        let json = #"{"results": [{"frame": 12, "time": 0.2, "width": 100, "height": 100, "detections": [{"classId": 38, "label": "tennis racket", "confidence": 0.9, "box": {"x1": 10, "y1": 10, "x2": 30, "y2": 30}}, {"classId": 32, "label": "sports ball", "confidence": 0.6, "box": {"x1": 31, "y1": 18, "x2": 35, "y2": 22}}]}]}"#
        let file = try write(json)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let out = try SwingmasterBinary.run(["interpret", "tennis-contact", "--detections", file.path])
        #expect(out.status == 0, "\(out.stderr)")
        let obj = try #require(try JSONSerialization.jsonObject(with: out.data) as? [String: Any])
        let c = try #require((obj["contacts"] as? [[String: Any]])?.first)
        #expect(c["rule"] as? String == "proximity")
        #expect(c["frame"] as? Int == 12)
        #expect(abs((c["confidence"] as? Double ?? 0) - 0.54) < 1e-12)   // min(0.9, 0.6) × 0.9
    }

    @Test func badInputGivesClearErrors() throws {
        let file = try write("{ not json")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let bad = try SwingmasterBinary.run(["interpret", "counter", "--detections", file.path])
        #expect(bad.status == StatusCode.invalidInterpreterInput)
        #expect(bad.stderr.contains("error: cannot read detections: not valid JSON"))
        let missing = try SwingmasterBinary.run(["interpret", "counter", "--detections", "/nonexistent/d.json"])
        #expect(missing.status == StatusCode.invalidInterpreterInput)
        let unknown = try SwingmasterBinary.run(["interpret", "tarot", "--detections", file.path])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown interpreter 'tarot'"))
    }
}

/// `swingmaster models …` through the real binary, in a throw-away SWINGMASTER_HOME.
@Suite struct ModelsCLITests {
    @Test func addFavoriteSetListAndRemove() throws {
        let home = try TestFiles.temporaryDirectory("models-home")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["SWINGMASTER_HOME": home.path, "SWINGMASTER_MODELS": home.appendingPathComponent("none").path]
        let model = SwingmasterBinary.packageRoot.appendingPathComponent("Tests/SwingVisionTests/Fixtures/catalog_tiny.onnx").path
        func run(_ args: [String]) throws -> SwingmasterBinary.Output { try SwingmasterBinary.run(["models"] + args, environment: env) }

        #expect(try run(["add", model, "--id", "alpha"]).status == 0)
        #expect(try run(["add", model, "--id", "beta"]).status == 0)
        let dup = try run(["add", model, "--id", "beta"])
        #expect(dup.status == StatusCode.catalogError)
        #expect(dup.stderr.contains("already exists"))
        #expect(try run(["favorite", "beta"]).status == 0)
        #expect(try run(["set", "alpha", "--conf", "0.4", "--iou", "0.6"]).status == 0)
        #expect(try run(["set", "alpha", "--conf", "1.5"]).status == 64)

        let list = try run(["list", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: list.data) as? [[String: Any]])
        #expect(rows.map { $0["id"] as? String } == ["beta", "alpha"])        // favourite first
        #expect(rows[1]["conf"] as? Double == 0.4 && rows[1]["iou"] as? Double == 0.6)
        #expect(rows[0]["typeHint"] as? String == "tennis")

        #expect(try run(["hide", "alpha"]).status == 0)
        #expect(try run(["list"]).stdout.contains("alpha") == false)
        #expect(try run(["list", "--all"]).stdout.contains("alpha"))

        let info = try run(["info", "beta"])
        let obj = try #require(try JSONSerialization.jsonObject(with: info.data) as? [String: Any])
        #expect(obj["labels"] as? [String] == ["tennis racket", "sports ball", "player's shadow", "net"])
        #expect(obj["inputSize"] as? [Int] == [64, 96])

        #expect(try run(["remove", "beta"]).status == 0)
        let gone = try run(["info", "beta"])
        #expect(gone.status == StatusCode.notFound)
        #expect(gone.stderr.contains("no model with id 'beta'"))
        let notModel = try run(["add", "/etc/hostname"])
        #expect(notModel.status == StatusCode.modelUnreadable)
    }
}
