import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import NIOCore
import SwingCore
import SwingMedia
import SwingPipeline
@testable import SwingServer
import SwingTestSupport
import Testing

/// The model studio's API (docs/studio.md) as a browser uses it: the catalog, one image, the live socket.
/// Models are the YOLO fixtures (real Ultralytics exports with seeded weights, Tests/SwingVisionTests/Fixtures/yolo).
@Suite(.serialized) struct StudioRouteTests {
    static let fixtures = TestFiles.packageRoot.appendingPathComponent("Tests/SwingVisionTests/Fixtures/yolo")
    static let detector = fixtures.appendingPathComponent("tiny26-detect.onnx")
    static let classifier = fixtures.appendingPathComponent("tiny-classify.onnx")

    /// A 320×240 JPEG with coloured blocks (the fixtures' spread class biases give detections on any picture).
    static func jpeg(width: Int = 320, height: Int = 240, seed: UInt8 = 0) throws -> Data {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                pixels[i] = UInt8(truncatingIfNeeded: x * 255 / width + Int(seed) * 17)
                pixels[i + 1] = UInt8(y * 255 / height)
                pixels[i + 2] = ((x / 40 + y / 40) % 2 == 0) ? 220 : 30
            }
        }
        let image = try #require(ImageBuffer(width: width, height: height, pixels: pixels))
        let dir = try TestFiles.temporaryDirectory("studio-jpeg")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("frame.jpg").path
        try ImageIO.save(image, to: path)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    static func object(_ r: TestResponse) throws -> [String: Any] { try apiObject(r.body, from: "the studio") }

    @Test func bundledPoseModelsShowAsBlazePose() async throws {
        try await TestServer().run { client in
            let (status, body) = try await client.json("/api/models")
            #expect(status == .ok)
            let models = try #require(body["models"] as? [[String: Any]])
            let pose = models.filter { ($0["id"] as? String)?.hasPrefix("pose_") == true }
            #expect(pose.count >= 2, "the bundled BlazePose models are listed")
            for m in pose {
                #expect(m["kind"] as? String == "blazepose")
                #expect((m["sha256"] as? String)?.count == 64)
            }
            // The studio refuses to run them, with a sentence.
            let r = try await client.execute(uri: "/api/detect?model=pose_detection", method: .post, headers: [:],
                                             body: ByteBuffer(bytes: try Self.jpeg()))
            #expect(r.status == .unprocessableContent)
            let sentence = try Self.object(r)["error"] as? String ?? ""
            #expect(ErrorSentence.isWellFormed(sentence), "\(sentence)")
        }
    }

    @Test func addConfigureDetectAndRemoveAModel() async throws {
        let server = try TestServer()
        try await server.run { client in
            // Add by upload.
            let bytes = try Data(contentsOf: Self.detector)
            let added = try await client.addModel(bytes, name: "My Detector.onnx")
            #expect(added.status == .created)
            let model = try Self.object(added)
            #expect(model["id"] as? String == "my-detector")
            #expect(model["kind"] as? String == "yolo" && model["task"] as? String == "detect")
            #expect(model["sha256"] as? String == SHA256.hex(bytes))
            #expect((model["defaults"] as? [String: Any])?["conf"] as? Double == 0.25)

            // The same id again, and a file that is not a model: refused, nothing left behind.
            #expect(try await client.addModel(bytes, name: "my detector.onnx").status == .conflict)
            let junk = try await client.addModel(Data("not a model at all".utf8), name: "junk.onnx")
            #expect(junk.status == .unprocessableContent)
            let sentence = try Self.object(junk)["error"] as? String ?? ""
            #expect(ErrorSentence.isWellFormed(sentence), "\(sentence)")
            #expect(try await client.addModel(bytes, name: "weights.pt").status == .unsupportedMediaType)
            let installed = try FileManager.default.contentsOfDirectory(atPath: server.home.appendingPathComponent("models").path)
            #expect(installed.sorted() == ["my-detector.json", "my-detector.onnx"])
            let staged = (try? FileManager.default.contentsOfDirectory(atPath: server.home.appendingPathComponent("cache/uploads").path)) ?? []
            #expect(staged.isEmpty, "no staged upload is left: \(staged)")

            // One image at the built-in defaults, then with a stored default that keeps almost nothing.
            let image = try Self.jpeg()
            let first = try await client.detect(image, query: "model=my-detector")
            #expect(first.status == .ok)
            let firstBody = try Self.object(first)
            let frame = try #require((firstBody["results"] as? [[String: Any]])?.first)
            #expect(frame["width"] as? Int == 320 && frame["height"] as? Int == 240)
            let many = (frame["detections"] as? [[String: Any]])?.count ?? 0
            #expect(many > 0, "the fixture model finds something at conf 0.25")

            let patched = try await client.patch("/api/models/my-detector", #"{"favorite": true, "defaults": {"conf": 0.97, "maxDet": 5, "lineWidth": 4, "interpreter": "counter", "interpreterOptions": {"minimumConfidence": 0.5}}}"#)
            #expect(patched.status == .ok)
            let defaults = try #require(try Self.object(patched)["defaults"] as? [String: Any])
            #expect(defaults["conf"] as? Double == 0.97 && defaults["maxDet"] as? Int == 5 && defaults["lineWidth"] as? Int == 4)
            #expect(defaults["interpreter"] as? String == "counter")
            #expect(try Self.object(patched)["favorite"] as? Bool == true)

            let strict = try Self.object(try await client.detect(image, query: "model=my-detector"))
            let kept = try #require((strict["results"] as? [[String: Any]])?.first?["detections"] as? [[String: Any]])
            #expect(kept.count <= min(5, many))
            #expect(kept.allSatisfy { ($0["confidence"] as? Double ?? 0) > 0.97 })
            let interpretation = try #require(strict["interpretation"] as? [String: Any])
            #expect(interpretation["interpreter"] as? String == "counter")
            // The query wins over the stored default.
            let loose = try Self.object(try await client.detect(image, query: "model=my-detector&conf=0.25&maxDet=300"))
            #expect(((loose["results"] as? [[String: Any]])?.first?["detections"] as? [[String: Any]])?.count == many)

            // A run is recorded per picture: the same picture again (a slider moved) is not another run.
            _ = try await client.detect(try Self.jpeg(seed: 9), query: "model=my-detector")
            let (_, detail) = try await client.json("/api/models/my-detector")
            let runs = try #require(detail["runs"] as? [[String: Any]])
            #expect(runs.count == 2)
            #expect(runs.first?["source"] as? String == "image")
            #expect(detail["useCount"] as? Int == 2)

            // Remove it; a bundled model cannot be removed.
            #expect(try await client.execute(uri: "/api/models/my-detector", method: .delete, headers: [:], body: nil).status == .noContent)
            #expect(try await client.json("/api/models/my-detector").0 == .notFound)
            #expect(try await client.execute(uri: "/api/models/pose_detection", method: .delete, headers: [:], body: nil).status == .conflict)
        }
    }

    @Test func hostileValuesGetOneSentence() async throws {
        try await TestServer().run { client in
            _ = try await client.addModel(try Data(contentsOf: Self.detector), name: "det.onnx")
            let image = try Self.jpeg()
            for query in ["conf=1e19", "conf=nan", "conf=-1", "iou=inf", "maxDet=0", "maxDet=9223372036854775807",
                          "maxDet=abc", "classes=999", "classes=no-such-class", "interpret=nope"] {
                let r = try await client.detect(image, query: "model=det&" + query)
                #expect(r.status == .badRequest, "\(query) answered \(r.status)")
                let sentence = try Self.object(r)["error"] as? String ?? ""
                #expect(ErrorSentence.isWellFormed(sentence), "\(sentence)")
            }
            for body in [#"{"defaults": {"conf": 1e19}}"#, #"{"defaults": {"iou": -0.5}}"#, #"{"defaults": {"lineWidth": 0}}"#,
                         #"{"defaults": {"interpreter": "nope"}}"#, #"{"defaults": {"interpreterOptions": [1]}}"#,
                         #"{"defaults": {"interpreter": "counter", "interpreterOptions": {"minimumConfidence": "high"}}}"#,
                         "not json"] {
                let r = try await client.patch("/api/models/det", body)
                #expect(r.status == .badRequest || r.status == .unprocessableContent, "\(body) answered \(r.status)")
                let sentence = try Self.object(r)["error"] as? String ?? ""
                #expect(ErrorSentence.isWellFormed(sentence), "\(sentence)")
            }
            // Not a picture, an empty body, no model, an unknown model.
            let garbage = try await client.detect(Data(repeating: 0x42, count: 5000), query: "model=det")
            #expect(garbage.status == .unprocessableContent)
            let sentence = try Self.object(garbage)["error"] as? String ?? ""
            #expect(ErrorSentence.isWellFormed(sentence), "\(sentence)")
            #expect(try await client.detect(Data(), query: "model=det").status == .unprocessableContent)
            #expect(try await client.detect(image, query: "").status == .badRequest)
            #expect(try await client.detect(image, query: "model=nothing-here").status == .notFound)
        }
    }

    @Test func aModelOverTheUploadLimitIsRefused() async throws {
        var server = try TestServer()
        server.configuration.maxUploadBytes = 100_000
        try await server.run { client in
            let r = try await client.addModel(try Data(contentsOf: Self.detector), name: "big.onnx")
            #expect(r.status == .contentTooLarge)
            let sentence = try Self.object(r)["error"] as? String ?? ""
            #expect(sentence.hasPrefix("The model is larger than this server accepts") && ErrorSentence.isWellFormed(sentence), "\(sentence)")
            #expect(try await client.json("/api/models/big").0 == .notFound)
        }
    }

    @Test func classifierAnswersTopClasses() async throws {
        try await TestServer().run { client in
            _ = try await client.addModel(try Data(contentsOf: Self.classifier), name: "cls.onnx")
            let r = try Self.object(try await client.detect(try Self.jpeg(), query: "model=cls"))
            let frame = try #require((r["results"] as? [[String: Any]])?.first)
            let top = try #require(frame["classification"] as? [[String: Any]])
            #expect(top.count == 5)
            let scores = top.compactMap { $0["confidence"] as? Double }
            #expect(scores == scores.sorted(by: >))
        }
    }

    @Test func addAModelByURLWithProgressEvents() async throws {
        let dir = try TestFiles.temporaryDirectory("studio-url")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = try Data(contentsOf: Self.detector)
        try bytes.write(to: dir.appendingPathComponent("remote-det.onnx"))
        let server = try StaticHTTPServer(directory: dir)
        defer { server.stop() }
        try await TestServer().run { client in
            let url = "http://127.0.0.1:\(server.port)/remote-det.onnx"
            func start(_ body: String) async throws -> TestResponse {
                try await client.execute(uri: "/api/models", method: .post, headers: [.contentType: "application/json"],
                                         body: ByteBuffer(string: body))
            }
            // A wrong checksum: the download fails with a sentence and installs nothing.
            let wrong = try await start(#"{"url": "\#(url)", "sha256": "\#(String(repeating: "0", count: 64))"}"#)
            #expect(wrong.status == .accepted)
            let wrongId = try #require((try Self.object(wrong)["job"] as? [String: Any])?["id"] as? Int)
            let failed = try await client.waitForDownload(wrongId)
            #expect(failed["state"] as? String == "failed")
            #expect(ErrorSentence.isWellFormed(failed["error"] as? String ?? ""), "\(failed)")
            #expect(try await client.json("/api/models/remote-det").0 == .notFound)
            // The right one: the event stream ends with the installed model.
            let started = try await start(#"{"url": "\#(url)", "sha256": "\#(SHA256.hex(bytes))"}"#)
            #expect(started.status == .accepted)
            let jobId = try #require((try Self.object(started)["job"] as? [String: Any])?["id"] as? Int)
            _ = try await client.waitForDownload(jobId)
            let events = try await client.execute(uri: "/api/models/jobs/\(jobId)/events", method: .get, headers: [:], body: nil)
            let text = String(buffer: events.body)
            #expect(text.contains("event: download"))
            #expect(text.contains(#""state":"done""#), "\(text)")
            let (_, job) = try await client.json("/api/models/jobs/\(jobId)")
            #expect((job["model"] as? [String: Any])?["id"] as? String == "remote-det")
            #expect((job["model"] as? [String: Any])?["source"] as? String == "remote")
            // Hostile bodies.
            for body in [#"{"url": "file:///etc/passwd"}"#, #"{"url": "ftp://x/y.onnx"}"#, #"{"url": 3}"#,
                         #"{"url": "http://127.0.0.1/x.onnx", "sha256": "abc"}"#] {
                let r = try await client.execute(uri: "/api/models", method: .post, headers: [.contentType: "application/json"],
                                                 body: ByteBuffer(string: body))
                #expect(r.status == .badRequest, "\(body)")
                #expect(ErrorSentence.isWellFormed(try Self.object(r)["error"] as? String ?? ""))
            }
            #expect(try await client.json("/api/models/jobs/999").0 == .notFound)
        }
    }

    @Test func httpsNeedsAReadableCertificateAndKey() async throws {
        let dir = try TestFiles.temporaryDirectory("studio-tls")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cert = dir.appendingPathComponent("cert.pem").path, key = dir.appendingPathComponent("key.pem").path
        let made = try Subprocess.run("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                                                          "-subj", "/CN=swingmaster", "-keyout", key, "-out", cert])
        try #require(made.succeeded, "openssl: \(made.stderr)")
        var config = ServerConfiguration()
        config.tlsCertificate = cert
        config.tlsKey = key
        #expect(try config.tlsConfiguration() != nil)
        for (c, k) in [(cert, nil), (key, key), (cert, cert), ("/nonexistent.pem", key)] as [(String, String?)] {
            var bad = ServerConfiguration()
            bad.tlsCertificate = c
            bad.tlsKey = k
            do {
                try bad.check()
                _ = try bad.tlsConfiguration()
                Issue.record("\(c), \(k ?? "no key") was accepted")
            } catch let error as ServerSetupError {
                #expect(ErrorSentence.isWellFormed(error.message), "\(error.message)")
            }
        }
    }

    // MARK: The live socket

    @Test func liveSocketAnswersAppliesSettingsAndSurvivesBadInput() async throws {
        var server = try TestServer()
        server.mode = .live
        try await server.run { client in
            let added = try await client.addModel(try Data(contentsOf: Self.detector), name: "det.onnx")
            #expect(added.status == .created, "\(String(buffer: added.body))")
            let frame = try Self.jpeg()
            let messages = LockedMessages()
            try await client.ws("/api/detect/live?model=det&conf=0.25", configuration: .init(maxFrameSize: 1 << 24)) { inbound, outbound, _ in
                var reader = SocketReader(inbound, log: messages)
                func next() async throws -> [String: Any] { try await reader.next() }
                #expect(try await next()["type"] as? String == "ready")
                try await outbound.write(.binary(ByteBuffer(bytes: frame)))
                let first = try await next()
                #expect(first["type"] as? String == "result" && first["frameId"] as? Int == 1, "\(first)")
                let many = (first["detections"] as? [Any])?.count ?? 0
                #expect(many > 0)
                // A setting applies to the next frame.
                try await outbound.write(.text(#"{"conf": 0.99}"#))
                #expect((try await next()["settings"] as? [String: Any])?["conf"] as? Double == 0.99)
                try await outbound.write(.binary(ByteBuffer(bytes: frame)))
                let strict = try await next()
                #expect(strict["frameId"] as? Int == 2)
                let kept = strict["detections"] as? [[String: Any]] ?? []
                #expect(kept.count < many && kept.allSatisfy { ($0["confidence"] as? Double ?? 0) > 0.99 })
                // Garbage, a bad setting, an unknown setting: one sentence each, and the socket still answers.
                try await outbound.write(.binary(ByteBuffer(bytes: Data(repeating: 7, count: 1000))))
                let bad = try await next()
                #expect(bad["type"] as? String == "error")
                #expect(ErrorSentence.isWellFormed(bad["error"] as? String ?? ""), "\(bad)")
                for text in [#"{"conf": "high"}"#, #"{"conf": 1e19}"#, #"{"speed": 3}"#, "[1,2]", #"{"classes": [999]}"#] {
                    try await outbound.write(.text(text))
                    let e = try await next()
                    #expect(e["type"] as? String == "error", "\(text) → \(e)")
                    #expect(ErrorSentence.isWellFormed(e["error"] as? String ?? ""), "\(e["error"] as? String ?? "")")
                }
                try await outbound.write(.binary(ByteBuffer(bytes: frame)))
                let after = try await next()
                #expect(after["type"] as? String == "result" && after["frameId"] as? Int == 4)
                // Tracking: on a still picture every object keeps its id from frame to frame.
                try await outbound.write(.text(#"{"track": true, "conf": 0.25}"#))
                #expect((try await next()["settings"] as? [String: Any])?["track"] as? Bool == true)
                var ids: [[Int]] = []
                for _ in 0..<3 {
                    try await outbound.write(.binary(ByteBuffer(bytes: frame)))
                    let tracked = try await next()
                    let dets = tracked["detections"] as? [[String: Any]] ?? []
                    ids.append(dets.compactMap { $0["trackId"] as? Int }.sorted())
                    #expect(dets.allSatisfy { $0["trackId"] != nil })
                    #expect((tracked["trails"] as? [Any])?.count == dets.count)
                }
                #expect(!ids[2].isEmpty && ids[1] == ids[2], "ids changed on a still picture: \(ids)")
                try await outbound.write(.text(#"{"track": false}"#))
                _ = try await next()
                // The model removed from the catalog while the camera uses it: the camera goes on.
                let removed = try await client.execute(uri: "/api/models/det", method: .delete, headers: [:], body: nil)
                #expect(removed.status == .noContent)
                try await outbound.write(.binary(ByteBuffer(bytes: frame)))
                let stillThere = try await next()
                #expect(stillThere["type"] as? String == "result" && stillThere["frameId"] as? Int == 8)
            }
            #expect(messages.count >= 15)
        }
    }

    @Test func runsAreListedWithWhatTheirInterpreterSaw() async throws {
        var server = try TestServer()
        server.mode = .live
        try await server.run { client in
            #expect(try await client.addModel(try Data(contentsOf: Self.detector), name: "det.onnx").status == .created)
            let (_, empty) = try await client.json("/api/detections")
            #expect((empty["runs"] as? [Any])?.isEmpty == true)
            // A picture with the counter: the run says what it counted.
            #expect(try await client.detect(try Self.jpeg(), query: "model=det&interpret=counter").status == .ok)
            let (status, listed) = try await client.json("/api/detections")
            #expect(status == .ok)
            let run = try #require((listed["runs"] as? [[String: Any]])?.first)
            #expect(run["model"] as? String == "det" && run["source"] as? String == "image")
            #expect(run["interpreter"] as? String == "counter")
            #expect((run["summary"] as? String)?.hasPrefix("peak ") == true, "\(run)")
            // The card in the catalog list carries its latest runs; a model never run carries none.
            let (_, catalog) = try await client.json("/api/models")
            let models = catalog["models"] as? [[String: Any]] ?? []
            #expect((models.first { $0["id"] as? String == "det" }?["runs"] as? [Any])?.count == 1)
            #expect(models.first { $0["id"] as? String == "pose_detection" }?["runs"] == nil)

            // The camera with tracking and the counter: every answer carries the line and its counts, and the
            // stored run says what the counter saw, crossings included.
            let frame = try Self.jpeg()
            try await client.ws("/api/detect/live?model=det&conf=0.25&interpret=counter&track=1", configuration: .init(maxFrameSize: 1 << 24)) { inbound, outbound, _ in
                var reader = SocketReader(inbound)
                func next() async throws -> [String: Any] { try await reader.next() }
                #expect(try await next()["type"] as? String == "ready")
                for _ in 0..<3 {
                    try await outbound.write(.binary(ByteBuffer(bytes: frame)))
                    let answer = try await next()
                    let crossings = try #require(answer["crossings"] as? [String: Any], "\(answer)")
                    #expect((crossings["line"] as? [String: Double]) == ["x1": 0, "y1": 0.5, "x2": 1, "y2": 0.5])
                    #expect(crossings["total"] as? Int == 0, "a still picture crosses nothing")
                }
                // Without tracking there is nothing to cross.
                try await outbound.write(.text(#"{"track": false}"#))
                _ = try await next()
                try await outbound.write(.binary(ByteBuffer(bytes: frame)))
                #expect(try await next()["crossings"] == nil)
            }
            var camera: [String: Any]?
            for _ in 0..<50 where camera == nil {
                let (_, runs) = try await client.json("/api/detections?model=DET&limit=10")
                camera = (runs["runs"] as? [[String: Any]])?.first { $0["source"] as? String == "camera" }
                if camera == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            let cameraRun = try #require(camera)
            #expect(cameraRun["frames"] as? Int == 4)
            #expect((cameraRun["summary"] as? String)?.contains("0 crossed the line") == true, "\(cameraRun)")

            // Hostile limits: one sentence each; an unknown model simply has no runs.
            for limit in ["0", "-1", "1e19", "abc", "1001", String(Int.max)] {
                let (code, body) = try await client.json("/api/detections?limit=\(limit)")
                #expect(code == .badRequest, "limit=\(limit)")
                #expect(ErrorSentence.isWellFormed(body["error"] as? String ?? ""), "\(body)")
            }
            #expect((try await client.json("/api/detections?model=nothing-here").1["runs"] as? [Any])?.isEmpty == true)
            // A counting line that is not a line is refused where it is saved.
            let bad = try await client.patch("/api/models/det", #"{"defaults": {"interpreter": "counter", "interpreterOptions": {"line": {"x1": 0, "y1": 0.5, "x2": 7, "y2": 0.5}}}}"#)
            #expect(bad.status == .unprocessableContent, "\(String(buffer: bad.body))")
            let sentence = try Self.object(bad)["error"] as? String ?? ""
            #expect(ErrorSentence.isWellFormed(sentence) && sentence.contains("line"), "\(sentence)")
        }
    }

    @Test func framesFasterThanTheModelAreDroppedNewestFirst() async throws {
        var server = try TestServer()
        server.mode = .live
        try await server.run { client in
            _ = try await client.addModel(try Data(contentsOf: Self.detector), name: "det.onnx")
            // A big picture makes each frame slow to decode and run, so the client outpaces the model.
            let frame = try Self.jpeg(width: 1280, height: 960)
            let sent = 1000
            try await client.ws("/api/detect/live?model=det", configuration: .init(maxFrameSize: 1 << 24)) { inbound, outbound, _ in
                var iterator = inbound.messages(maxSize: 1 << 24).makeAsyncIterator()
                guard case .text = try await iterator.next() else { Issue.record("no ready message"); return }
                for _ in 0..<sent { try await outbound.write(.binary(ByteBuffer(bytes: frame))) }
                var processed = 0
                var last: [String: Any] = [:]
                while let message = try await iterator.next() {
                    guard case .text(let text) = message,
                          let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else { continue }
                    processed += 1
                    last = object
                    if object["frameId"] as? Int == sent { break }
                }
                let dropped = last["dropped"] as? Int ?? -1
                // Every frame is either processed or counted as dropped; the last one sent is always processed.
                #expect(last["frameId"] as? Int == sent)
                #expect(processed + dropped == sent, "processed \(processed) + dropped \(dropped) ≠ \(sent)")
                #expect(dropped > sent / 2, "frames were queued instead of dropped (\(dropped) dropped)")
            }
        }
    }

    @Test func aSocketForAMissingModelIsRefused() async throws {
        var server = try TestServer()
        server.mode = .live
        try await server.run { client in
            await #expect(throws: (any Error).self) {
                try await client.ws("/api/detect/live?model=nope") { _, _, _ in }
            }
        }
    }
}

/// Python's `http.server` on 127.0.0.1 and a free port, serving `directory`. It exits when our end of its
/// stdin closes (``stop()``, or this process dying), so a failed test leaves no server behind.
final class StaticHTTPServer: @unchecked Sendable {
    let port: Int
    private let process = Process()
    private let input = Pipe()

    static let script = """
        import functools, http.server, os, sys, threading
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
        handler.log_message = lambda *a: None
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        print("PORT", server.server_address[1], flush=True)
        threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
        server.serve_forever()
        """

    init(directory: URL) throws {
        let out = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, directory.path]
        process.standardInput = input
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5).prefix { $0.isNumber }) else {
            process.terminate()
            throw CocoaError(.fileReadUnknown)
        }
        self.port = port
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// Messages a socket test saw (its handler is `@Sendable`).
/// Reads a studio socket's text messages as JSON objects, one at a time, keeping each in `log` when given.
struct SocketReader {
    private var iterator: WebSocketInboundMessageStream.AsyncIterator
    private let log: LockedMessages?

    init(_ inbound: WebSocketInboundStream, log: LockedMessages? = nil) {
        iterator = inbound.messages(maxSize: 1 << 24).makeAsyncIterator()
        self.log = log
    }

    /// The next message as a JSON object (empty for a binary message, one that is not an object, or the end).
    mutating func next() async throws -> [String: Any] {
        guard case .text(let text) = try await iterator.next() else { return [:] }
        let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        log?.append(object)
        return object
    }
}

final class LockedMessages: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [[String: Any]] = []
    func append(_ m: [String: Any]) { lock.lock(); items.append(m); lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return items.count }
}

extension TestClientProtocol {
    /// Polls a model download until it is no longer downloading (or `timeout` passes).
    func waitForDownload(_ id: Int, timeout: Double = 60) async throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let (_, job) = try await json("/api/models/jobs/\(id)")
            if job["state"] as? String != "running" { return job }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("download \(id) did not finish within \(timeout) s")
        return [:]
    }

    /// Adds a model file through `POST /api/models`.
    func addModel(_ data: Data, name: String) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.contentType] = "application/octet-stream"
        if let field = HTTPField.Name("X-Filename") { headers.append(.init(name: field, value: name)) }
        return try await execute(uri: "/api/models", method: .post, headers: headers, body: ByteBuffer(bytes: data))
    }

    /// Runs `POST /api/detect?query` on `image`.
    func detect(_ image: Data, query: String) async throws -> TestResponse {
        try await execute(uri: "/api/detect?\(query)", method: .post, headers: [.contentType: "image/jpeg"],
                          body: ByteBuffer(bytes: image))
    }

    /// Sends `json` as a PATCH.
    func patch(_ uri: String, _ json: String) async throws -> TestResponse {
        try await execute(uri: uri, method: .patch, headers: [.contentType: "application/json"], body: ByteBuffer(string: json))
    }
}
