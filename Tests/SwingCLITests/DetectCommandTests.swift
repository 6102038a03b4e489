import Foundation
import SwingTestSupport
import SwingCore
import Testing

/// Runs the real `swingmaster detect` on small media generated with the ffmpeg CLI and on the
/// YOLO fixture models committed under Tests/SwingVisionTests/Fixtures/yolo (random-weight
/// YOLO11/YOLO26 exports, see tools/make_yolo_fixtures.py).
@Suite(.serialized) struct DetectCommandTests {
    static let yoloDir = TestFiles.packageRoot.appendingPathComponent("Tests/SwingVisionTests/Fixtures/yolo")

    static func model(_ candidates: [String]) throws -> String {
        let found = candidates.map { yoloDir.appendingPathComponent($0).path }.first { FileManager.default.fileExists(atPath: $0) }
        return try #require(found, "no YOLO fixture among \(candidates)")
    }

    static func detectModel() throws -> String { try model(["tiny-detect.onnx", "tiny26-detect.onnx", "yolo11n.onnx"]) }

    /// A non-YOLO ONNX model (y = x·W + b) from the SwingInference fixtures.
    static let affine = TestFiles.packageRoot.appendingPathComponent("Tests/SwingInferenceTests/Fixtures/affine.onnx").path

    /// Encodes a test pattern with the ffmpeg CLI (installed by `make setup`).
    static func media(_ name: String, _ arguments: [String]) throws -> String {
        let dir = try TestFiles.processDirectory("detect")
        let path = dir.appendingPathComponent(name).path
        try TestFiles.ffmpeg(["-f", "lavfi"] + arguments + [path])
        return path
    }

    static func image() throws -> String { try media("pattern.png", ["-i", "testsrc2=size=96x64", "-frames:v", "1"]) }

    func json(_ output: SwingmasterBinary.Output) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: output.data) as? [String: Any])
    }

    @Test func imageJSONHasDetectionsInsideTheImage() async throws {
        let out = try await InProcess.run(["detect", Self.image(), "--model", Self.detectModel(), "--json",
                                             "--conf", "0.3", "--max-det", "7"])
        #expect(out.status == 0, "\(out.stderr)")
        let doc = try json(out)
        let model = try #require(doc["model"] as? [String: Any])
        #expect(model["task"] as? String == "detect")
        #expect((model["imgsz"] as? [Int])?.count == 2)
        let results = try #require(doc["results"] as? [[String: Any]])
        #expect(results.count == 1)
        let r = results[0]
        #expect(r["source"] as? String == "pattern.png")
        #expect(r["width"] as? Int == 96 && r["height"] as? Int == 64)
        #expect(r["frame"] as? Int == 0)
        let speed = try #require(r["speed"] as? [String: Double])
        #expect((speed["inferenceMs"] ?? 0) > 0)
        let detections = try #require(r["detections"] as? [[String: Any]])
        #expect(detections.count <= 7)
        for d in detections {
            #expect((d["confidence"] as? Double ?? 0) > 0.3)
            let box = try #require(d["box"] as? [String: Double])
            #expect((box["x1"] ?? -1) >= 0 && (box["x2"] ?? 1e9) <= 96 && (box["y1"] ?? -1) >= 0 && (box["y2"] ?? 1e9) <= 64)
        }
    }

    @Test func interpretCountsWhatWasDetected() async throws {
        let out = try await InProcess.run(["detect", Self.image(), "--model", Self.detectModel(), "--json",
                                             "--conf", "0.3", "--interpret", "counter"])
        #expect(out.status == 0, "\(out.stderr)")
        let doc = try json(out)
        let detections = try #require((doc["results"] as? [[String: Any]])?.first?["detections"] as? [[String: Any]])
        let interpretation = try #require(doc["interpretation"] as? [String: Any], "no interpretation in \(doc.keys)")
        // The counter's totals account for every detection, label by label.
        let totals = try #require(interpretation["totals"] as? [String: Int])
        var expected: [String: Int] = [:]
        for d in detections { if let l = d["label"] as? String { expected[l, default: 0] += 1 } }
        #expect(totals == expected)
        let unknown = try await InProcess.run(["detect", Self.image(), "--model", Self.detectModel(), "--interpret", "tarot"])
        #expect(unknown.status != 0 && unknown.stderr.contains("tarot"), "\(unknown.stderr)")
    }

    @Test func classFilterKeepsOnlyThatClass() async throws {
        let out = try await InProcess.run(["detect", Self.image(), "--model", Self.detectModel(), "--json",
                                             "--conf", "0.01", "--classes", "0"])
        #expect(out.status == 0, "\(out.stderr)")
        let results = try #require(try json(out)["results"] as? [[String: Any]])
        let ids = (results.first?["detections"] as? [[String: Any]] ?? []).compactMap { $0["classId"] as? Int }
        #expect(ids.allSatisfy { $0 == 0 })
    }

    @Test func saveWritesAnAnnotatedImage() async throws {
        let source = try Self.image()
        let target = URL(fileURLWithPath: source).deletingLastPathComponent().appendingPathComponent("annotated.png").path
        let out = try await InProcess.run(["detect", source, "--model", Self.detectModel(), "--save", target])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.hasPrefix("pattern.png: 96x64 "))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: target))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))  // PNG signature
    }

    @Test func videoProcessesEveryStrideFrameAndSavesAnMP4() async throws {
        // 10 frames at 10 fps; stride 3 → frames 0, 3, 6, 9.
        let video = try Self.media("clip.mp4", ["-i", "testsrc2=size=96x64:rate=10", "-frames:v", "10", "-pix_fmt", "yuv420p"])
        let saved = URL(fileURLWithPath: video).deletingLastPathComponent().appendingPathComponent("out.mp4").path
        let out = try await InProcess.run(["detect", video, "--model", Self.detectModel(), "--json", "--save", saved])
        #expect(out.status == 0, "\(out.stderr)")
        let results = try #require(try json(out)["results"] as? [[String: Any]])
        #expect(results.compactMap { $0["frame"] as? Int } == [0, 3, 6, 9])
        let times = results.compactMap { $0["time"] as? Double }
        #expect(zip(times, [0, 0.3, 0.6, 0.9]).allSatisfy { abs($0 - $1) < 0.02 })
        #expect(((try? FileManager.default.attributesOfItem(atPath: saved)[.size] as? Int) ?? 0) > 0)
    }

    /// A static scene: one test pattern held for 12 frames, encoded losslessly so every frame decodes to the
    /// same pixels and the model gives the same boxes each time.
    static func staticVideo() throws -> String {
        let still = try media("still.png", ["-i", "testsrc2=size=160x120", "-frames:v", "1"])
        let video = URL(fileURLWithPath: still).deletingLastPathComponent().appendingPathComponent("static.mp4").path
        try TestFiles.ffmpeg(["-loop", "1", "-framerate", "10", "-i", still, "-frames:v", "12",
                              "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p", video])
        return video
    }

    @Test(arguments: [1, 3])
    func trackGivesEveryDetectionATrackIdThatPersistsOnAStaticScene(stride: Int) async throws {
        let video = try Self.staticVideo()
        let saved = URL(fileURLWithPath: video).deletingLastPathComponent().appendingPathComponent("tracked.mp4").path
        let out = try await InProcess.run(["detect", video, "--model", Self.detectModel(), "--track", "--json",
                                             "--vid-stride", "\(stride)", "--save", saved, "--no-store"])
        #expect(out.status == 0, "\(out.stderr)")
        let results = try #require(try json(out)["results"] as? [[String: Any]])
        #expect(results.count == (12 + stride - 1) / stride)
        var first: [Int: [String: Double]]?
        for r in results {
            let detections = try #require(r["detections"] as? [[String: Any]])
            let ids = detections.compactMap { $0["trackId"] as? Int }
            #expect(ids.count == detections.count, "frame \(r["frame"] ?? "?"): a detection without a trackId")
            #expect(Set(ids).count == ids.count, "an id given twice in one frame")
            var boxes: [Int: [String: Double]] = [:]
            for d in detections { if let id = d["trackId"] as? Int { boxes[id] = d["box"] as? [String: Double] } }
            if let first {
                // Same pixels, same boxes: every track of the first frame is there again, on the same box.
                #expect(Set(boxes.keys) == Set(first.keys), "frame \(r["frame"] ?? "?"): ids changed")
                for (id, box) in boxes { #expect(box == first[id], "track \(id) moved") }
            } else {
                #expect(!boxes.isEmpty, "the fixture model finds nothing on the pattern")
                first = boxes
            }
        }
        #expect(((try? FileManager.default.attributesOfItem(atPath: saved)[.size] as? Int) ?? 0) > 0)
        // Without --track the document has no trackId at all.
        let plain = try await InProcess.run(["detect", video, "--model", Self.detectModel(), "--json", "--no-store"])
        #expect(plain.status == 0 && !plain.stdout.contains("trackId"))
    }

    @Test func trackIsRefusedOnAnImageAndOnAClassifier() async throws {
        let image = try Self.image()
        let out = try await InProcess.run(["detect", image, "--model", Self.detectModel(), "--track"])
        #expect(out.status == 64, "\(out.stderr)")
        #expect(out.stderr.contains("--track follows objects from frame to frame, so it needs a video, and pattern.png is an image."))
        #expect(out.stdout.isEmpty)
        let video = try Self.media("clip.mp4", ["-i", "testsrc2=size=96x64:rate=10", "-frames:v", "4", "-pix_fmt", "yuv420p"])
        let classify = try await InProcess.run(["detect", video, "--model", Self.model(["tiny-classify.onnx"]), "--track", "--no-store"])
        #expect(classify.status == StatusCode.invalidParameter, "\(classify.stderr)")
        #expect(classify.stderr.contains("Tracking needs a model that finds boxes"))
    }

    @Test func classifierListsTopFive() async throws {
        let classifier = try Self.model(["tiny-classify.onnx"])
        let out = try await InProcess.run(["detect", Self.image(), "--model", classifier, "--json"])
        #expect(out.status == 0, "\(out.stderr)")
        let r = try #require((try json(out)["results"] as? [[String: Any]])?.first)
        let top = try #require(r["classification"] as? [[String: Any]])
        #expect(top.count == 5)
        let confidences = top.compactMap { $0["confidence"] as? Double }
        #expect(confidences == confidences.sorted(by: >))
        #expect((r["detections"] as? [Any])?.isEmpty == true)
    }

    @Test func badInputGivesAClearErrorAndExitCode() async throws {
        let image = try Self.image()
        let dir = URL(fileURLWithPath: image).deletingLastPathComponent()
        let garbage = dir.appendingPathComponent("garbage.onnx")
        try Data((0..<2048).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: garbage)
        let notAnImage = dir.appendingPathComponent("not-an-image.jpg")
        try Data("this is text, not a JPEG".utf8).write(to: notAnImage)
        let yolo = try Self.detectModel()

        let cases: [(args: [String], status: Int32, message: String)] = [
            (["detect", image, "--model", "/nonexistent/yolo.onnx"], StatusCode.modelUnreadable, "Model file not found"),
            (["detect", image, "--model", garbage.path], StatusCode.modelUnreadable, "Could not load ONNX model"),
            (["detect", image, "--model", Self.affine], StatusCode.modelUnsupported, "YOLO"),
            (["detect", notAnImage.path, "--model", yolo], StatusCode.imageUnreadable, "not-an-image.jpg"),
            (["detect", image, "--model", yolo, "--classes", "999"], StatusCode.invalidClassFilter, "--classes"),
            (["detect", image, "--model", yolo, "--classes", "no such class"], StatusCode.invalidClassFilter, "--classes"),
            (["detect", dir.appendingPathComponent("missing.jpg").path, "--model", yolo], StatusCode.fileNotFound, "missing.jpg"),
        ]
        for c in cases {
            let out = try await InProcess.run(c.args)
            #expect(out.status == c.status, "\(c.args): \(out.stderr)")
            #expect(out.stderr.contains("error: ") && out.stderr.contains(c.message), "\(c.args): \(out.stderr)")
            #expect(out.stdout.isEmpty)
        }
        let badConf = try await InProcess.run(["detect", image, "--model", yolo, "--conf", "1.5"])
        #expect(badConf.status == 64)  // ArgumentParser's validation failure
        #expect(badConf.stderr.contains("--conf must be a number from 0 to 1"))
    }
}
