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

    @Test func pokerPrintsHandRankAndCards() async throws {
        let file = try write(cards(["9h", "10H", "JH", "QH", "KH", "KH", "2c", "bogus"]))
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let out = try await InProcess.run(["interpret", "poker", "--detections", file.path])
        #expect(out.status == 0, "\(out.stderr)")
        let obj = try #require(try JSONSerialization.jsonObject(with: out.data) as? [String: Any])
        #expect(obj["hand"] as? String == "Straight flush")
        #expect(obj["cards"] as? [String] == ["9H", "10H", "JH", "QH", "KH"])
        #expect(obj["evaluatorRank"] as? Int == 2)       // K-high straight flush: second best class
        #expect(obj["rank"] as? Int == 7461)
    }

    @Test func tennisContactPrintsContacts() async throws {
        let json = #"{"results": [{"frame": 12, "time": 0.2, "width": 100, "height": 100, "detections": [{"classId": 38, "label": "tennis racket", "confidence": 0.9, "box": {"x1": 10, "y1": 10, "x2": 30, "y2": 30}}, {"classId": 32, "label": "sports ball", "confidence": 0.6, "box": {"x1": 31, "y1": 18, "x2": 35, "y2": 22}}]}]}"#
        let file = try write(json)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let out = try await InProcess.run(["interpret", "tennis-contact", "--detections", file.path])
        #expect(out.status == 0, "\(out.stderr)")
        let obj = try #require(try JSONSerialization.jsonObject(with: out.data) as? [String: Any])
        let c = try #require((obj["contacts"] as? [[String: Any]])?.first)
        #expect(c["rule"] as? String == "proximity")
        #expect(c["frame"] as? Int == 12)
        #expect(abs((c["confidence"] as? Double ?? 0) - 0.54) < 1e-12)   // min(0.9, 0.6) × 0.9
    }

    @Test func badInputGivesClearErrors() async throws {
        let file = try write("{ not json")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let bad = try await InProcess.run(["interpret", "counter", "--detections", file.path])
        #expect(bad.status == StatusCode.invalidInterpreterInput)
        #expect(bad.stderr.contains("error: Cannot read detections: not valid JSON"))
        let missing = try await InProcess.run(["interpret", "counter", "--detections", "/nonexistent/d.json"])
        #expect(missing.status == StatusCode.invalidInterpreterInput)
        let unknown = try await InProcess.run(["interpret", "tarot", "--detections", file.path])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("Unknown interpreter 'tarot'"))
    }
}
