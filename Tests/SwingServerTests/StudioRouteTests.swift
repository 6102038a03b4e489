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
import SwingVision
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

    @Test func bundledPoseModelsShowAsBlazePose() async throws {
        try await TestServer().run { client in
            let (status, body) = try await client.json(ModelList.self, "/api/models")
            #expect(status == .ok)
            let pose = body.models.filter { $0.id.hasPrefix("pose_") }
            #expect(pose.count >= 2, "the bundled BlazePose models are listed")
            for m in pose {
                #expect(m.kind == .blazepose)
                #expect(m.sha256?.count == 64)
            }
            // The studio refuses to run them, with a sentence.
            let r = try await client.execute(uri: "/api/detect?model=pose_detection", method: .post, headers: [:],
                                             body: ByteBuffer(bytes: try Self.jpeg()))
            #expect(r.status == .unprocessableContent)
            let sentence = try decoded(APIErrorBody.self, r, "detecting with pose_detection").error
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
            let model = try decoded(ModelView.self, added, "adding My Detector.onnx")
            #expect(model.id == "my-detector")
            #expect(model.kind == .yolo && model.task == "detect")
            #expect(model.sha256 == SHA256.hex(bytes))
            #expect(model.defaults.conf == 0.25)

            // The same id again, and a file that is not a model: refused, nothing left behind.
            #expect(try await client.addModel(bytes, name: "my detector.onnx").status == .conflict)
            let junk = try await client.addModel(Data("not a model at all".utf8), name: "junk.onnx")
            #expect(junk.status == .unprocessableContent)
            let sentence = try decoded(APIErrorBody.self, junk, "adding junk.onnx").error
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
            let firstBody = try decoded(Wire.InterpretedDetections<JSONValue>.self, first, "detecting at the defaults")
            let frame = try #require(firstBody.document.results.first)
            #expect(frame.width == 320 && frame.height == 240)
            let many = frame.detections.count
            #expect(many > 0, "the fixture model finds something at conf 0.25")

            let patched = try await client.patch("/api/models/my-detector", #"{"favorite": true, "defaults": {"conf": 0.97, "maxDet": 5, "lineWidth": 4, "interpreter": "counter", "interpreterOptions": {"minimumConfidence": 0.5}}}"#)
            #expect(patched.status == .ok)
            let changed = try decoded(ModelView.self, patched, "the patch")
            let defaults = changed.defaults
            #expect(defaults.conf == 0.97 && defaults.maxDet == 5 && defaults.lineWidth == 4)
            #expect(defaults.interpreter == "counter")
            #expect(changed.favorite == true)

            let strict = try decoded(Wire.InterpretedDetections<JSONValue>.self, try await client.detect(image, query: "model=my-detector"),
                                     "detecting at the stored defaults")
            let kept = try #require(strict.document.results.first?.detections)
            #expect(kept.count <= min(5, many))
            #expect(kept.allSatisfy { $0.confidence > 0.97 })
            let interpretation = try #require(strict.interpretation)
            #expect(interpretation.interpreter == "counter")
            // The query wins over the stored default.
            let loose = try decoded(Wire.InterpretedDetections<JSONValue>.self,
                                    try await client.detect(image, query: "model=my-detector&conf=0.25&maxDet=300"), "detecting at conf 0.25")
            #expect(loose.document.results.first?.detections.count == many)

            // A run is recorded per picture: the same picture again (a slider moved) is not another run.
            _ = try await client.detect(try Self.jpeg(seed: 9), query: "model=my-detector")
            let (_, detail) = try await client.json(ModelView.self, "/api/models/my-detector")
            let runs = try #require(detail.runs)
            #expect(runs.count == 2)
            #expect(runs.first?.source == "image")
            #expect(detail.useCount == 2)

            // Remove it; a bundled model cannot be removed.
            #expect(try await client.execute(uri: "/api/models/my-detector", method: .delete, headers: [:], body: nil).status == .noContent)
            #expect(try await client.json(APIErrorBody.self, "/api/models/my-detector").0 == .notFound)
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
                let sentence = try decoded(APIErrorBody.self, r, "detecting with \(query)").error
                #expect(ErrorSentence.isWellFormed(sentence), "\(sentence)")
            }
            for body in [#"{"defaults": {"conf": 1e19}}"#, #"{"defaults": {"iou": -0.5}}"#, #"{"defaults": {"lineWidth": 0}}"#,
                         #"{"defaults": {"interpreter": "nope"}}"#, #"{"defaults": {"interpreterOptions": [1]}}"#,
                         #"{"defaults": {"interpreter": "counter", "interpreterOptions": {"minimumConfidence": "high"}}}"#,
                         "not json"] {
                let r = try await client.patch("/api/models/det", body)
                #expect(r.status == .badRequest || r.status == .unprocessableContent, "\(body) answered \(r.status)")
                let sentence = try decoded(APIErrorBody.self, r, "the patch \(body)").error
                #expect(ErrorSentence.isWellFormed(sentence), "\(sentence)")
            }
            // Not a picture, an empty body, no model, an unknown model.
            let garbage = try await client.detect(Data(repeating: 0x42, count: 5000), query: "model=det")
            #expect(garbage.status == .unprocessableContent)
            let sentence = try decoded(APIErrorBody.self, garbage, "detecting on garbage").error
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
            let sentence = try decoded(APIErrorBody.self, r, "adding big.onnx").error
            #expect(sentence.hasPrefix("The model is larger than this server accepts") && ErrorSentence.isWellFormed(sentence), "\(sentence)")
            #expect(try await client.json(APIErrorBody.self, "/api/models/big").0 == .notFound)
        }
    }

    @Test func classifierAnswersTopClasses() async throws {
        try await TestServer().run { client in
            _ = try await client.addModel(try Data(contentsOf: Self.classifier), name: "cls.onnx")
            let r = try decoded(Wire.InterpretedDetections<JSONValue>.self, try await client.detect(try Self.jpeg(), query: "model=cls"), "classifying")
            let frame = try #require(r.document.results.first)
            let top = try #require(frame.classification)
            #expect(top.count == 5)
            let scores = top.map(\.confidence)
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
            let wrongId = try decoded(Queued<ModelDownloads.Job>.self, wrong, "the download with a wrong checksum").job.id
            let failed = try await client.waitForDownload(wrongId)
            #expect(failed.state == .failed)
            #expect(ErrorSentence.isWellFormed(failed.error ?? ""), "\(failed)")
            #expect(try await client.json(APIErrorBody.self, "/api/models/remote-det").0 == .notFound)
            // The right one: the event stream ends with the installed model.
            let started = try await start(#"{"url": "\#(url)", "sha256": "\#(SHA256.hex(bytes))"}"#)
            #expect(started.status == .accepted)
            let jobId = try decoded(Queued<ModelDownloads.Job>.self, started, "the download").job.id
            _ = try await client.waitForDownload(jobId)
            let events = try await client.execute(uri: "/api/models/jobs/\(jobId)/events", method: .get, headers: [:], body: nil)
            let text = String(buffer: events.body)
            #expect(text.contains("event: download"))
            #expect(text.contains(#""state":"done""#), "\(text)")
            let (_, job) = try await client.json(ModelDownloads.Job.self, "/api/models/jobs/\(jobId)")
            #expect(job.model?.id == "remote-det")
            #expect(job.model?.source == .remote)
            // Hostile bodies.
            for body in [#"{"url": "file:///etc/passwd"}"#, #"{"url": "ftp://x/y.onnx"}"#, #"{"url": 3}"#,
                         #"{"url": "http://127.0.0.1/x.onnx", "sha256": "abc"}"#] {
                let r = try await client.execute(uri: "/api/models", method: .post, headers: [.contentType: "application/json"],
                                                 body: ByteBuffer(string: body))
                #expect(r.status == .badRequest, "\(body)")
                #expect(ErrorSentence.isWellFormed(try decoded(APIErrorBody.self, r, "the download \(body)").error))
            }
            #expect(try await client.json(APIErrorBody.self, "/api/models/jobs/999").0 == .notFound)
        }
    }

    @Test func httpsNeedsAReadableCertificateAndKey() async throws {
        let dir = try TestFiles.temporaryDirectory("studio-tls")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cert = dir.appendingPathComponent("cert.pem").path, key = dir.appendingPathComponent("key.pem").path
        let made = try await Subprocess.run("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
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
                typealias Answer = Wire.LiveFrameAnswer<JSONValue>
                #expect(try await reader.next(LiveSocket.Ready.self).type == "ready")
                try await outbound.write(.binary(ByteBuffer(bytes: frame)))
                let first = try await reader.next(Answer.self)
                #expect(first.type == "result" && first.frameId == 1, "\(first)")
                let many = first.detections.count
                #expect(many > 0)
                // A setting applies to the next frame.
                try await outbound.write(.text(#"{"conf": 0.99}"#))
                #expect(try await reader.next(LiveSocket.SettingsMessage.self).settings.conf == 0.99)
                try await outbound.write(.binary(ByteBuffer(bytes: frame)))
                let strict = try await reader.next(Answer.self)
                #expect(strict.frameId == 2)
                let kept = strict.detections
                #expect(kept.count < many && kept.allSatisfy { $0.confidence > 0.99 })
                // Garbage, a bad setting, an unknown setting: one sentence each, and the socket still answers.
                try await outbound.write(.binary(ByteBuffer(bytes: Data(repeating: 7, count: 1000))))
                let bad = try await reader.next(LiveSocket.ErrorMessage.self)
                #expect(bad.type == "error")
                #expect(ErrorSentence.isWellFormed(bad.error), "\(bad)")
                for text in [#"{"conf": "high"}"#, #"{"conf": 1e19}"#, #"{"speed": 3}"#, "[1,2]", #"{"classes": [999]}"#] {
                    try await outbound.write(.text(text))
                    let e = try await reader.next(LiveSocket.ErrorMessage.self)
                    #expect(e.type == "error", "\(text) → \(e)")
                    #expect(ErrorSentence.isWellFormed(e.error), "\(e.error)")
                }
                try await outbound.write(.binary(ByteBuffer(bytes: frame)))
                let after = try await reader.next(Answer.self)
                #expect(after.type == "result" && after.frameId == 4)
                // Tracking: on a still picture every object keeps its id from frame to frame.
                try await outbound.write(.text(#"{"track": true, "conf": 0.25}"#))
                #expect(try await reader.next(LiveSocket.SettingsMessage.self).settings.track == true)
                var ids: [[Int]] = []
                for _ in 0..<3 {
                    try await outbound.write(.binary(ByteBuffer(bytes: frame)))
                    let tracked = try await reader.next(Answer.self)
                    let dets = tracked.detections
                    ids.append(dets.compactMap(\.trackId).sorted())
                    #expect(dets.allSatisfy { $0.trackId != nil })
                    #expect(tracked.trails?.count == dets.count)
                }
                #expect(!ids[2].isEmpty && ids[1] == ids[2], "ids changed on a still picture: \(ids)")
                try await outbound.write(.text(#"{"track": false}"#))
                _ = try await reader.next(LiveSocket.SettingsMessage.self)
                // The model removed from the catalog while the camera uses it: the camera goes on.
                let removed = try await client.execute(uri: "/api/models/det", method: .delete, headers: [:], body: nil)
                #expect(removed.status == .noContent)
                try await outbound.write(.binary(ByteBuffer(bytes: frame)))
                let stillThere = try await reader.next(Answer.self)
                #expect(stillThere.type == "result" && stillThere.frameId == 8)
            }
            #expect(messages.count >= 15)
        }
    }

    @Test func runsAreListedWithWhatTheirInterpreterSaw() async throws {
        var server = try TestServer()
        server.mode = .live
        try await server.run { client in
            #expect(try await client.addModel(try Data(contentsOf: Self.detector), name: "det.onnx").status == .created)
            let (_, empty) = try await client.json(RunList.self, "/api/detections")
            #expect(empty.runs.isEmpty)
            // A picture with the counter: the run says what it counted.
            #expect(try await client.detect(try Self.jpeg(), query: "model=det&interpret=counter").status == .ok)
            let (status, listed) = try await client.json(RunList.self, "/api/detections")
            #expect(status == .ok)
            let run = try #require(listed.runs.first)
            #expect(run.model == "det" && run.source == "image")
            #expect(run.interpreter == "counter")
            #expect(run.summary?.hasPrefix("peak ") == true, "\(run)")
            // The card in the catalog list carries its latest runs; a model never run carries none.
            let catalog = try await client.execute(uri: "/api/models", method: .get, headers: [:], body: nil)
            let models = try decoded(ModelList.self, catalog, "GET /api/models").models
            #expect(models.first { $0.id == "det" }?.runs?.count == 1)
            // Raw JSON on purpose: `runs` is left out for a model never run, not sent as null (docs/studio.md); decoding reads both as nil.
            let rawModels = try decoded(JSONValue.self, catalog, "GET /api/models")["models"]?.elements ?? []
            #expect(rawModels.first { $0["id"] == .string("pose_detection") }?["runs"] == nil)

            // The camera with tracking and the counter: every answer carries the line and its counts, and the
            // stored run says what the counter saw, crossings included.
            let frame = try Self.jpeg()
            try await client.ws("/api/detect/live?model=det&conf=0.25&interpret=counter&track=1", configuration: .init(maxFrameSize: 1 << 24)) { inbound, outbound, _ in
                var reader = SocketReader(inbound)
                typealias Answer = Wire.LiveFrameAnswer<JSONValue>
                #expect(try await reader.next(LiveSocket.Ready.self).type == "ready")
                for _ in 0..<3 {
                    try await outbound.write(.binary(ByteBuffer(bytes: frame)))
                    let answer = try await reader.next(Answer.self)
                    let crossings = try #require(answer.crossings, "\(answer)")
                    #expect(crossings.line == LineCrossings.Line(x1: 0, y1: 0.5, x2: 1, y2: 0.5))
                    #expect(crossings.total == 0, "a still picture crosses nothing")
                }
                // Without tracking there is nothing to cross.
                try await outbound.write(.text(#"{"track": false}"#))
                _ = try await reader.next(LiveSocket.SettingsMessage.self)
                try await outbound.write(.binary(ByteBuffer(bytes: frame)))
                _ = try await reader.next(Answer.self)
                // Raw JSON on purpose: `crossings` is left out, not sent as null (docs/studio.md); decoding reads both as nil.
                #expect(try decoded(JSONValue.self, reader.last, "the answer without tracking")["crossings"] == nil)
            }
            var camera: RunView?
            for _ in 0..<50 where camera == nil {
                let (_, runs) = try await client.json(RunList.self, "/api/detections?model=DET&limit=10")
                camera = runs.runs.first { $0.source == "camera" }
                if camera == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            let cameraRun = try #require(camera)
            #expect(cameraRun.frames == 4)
            #expect(cameraRun.summary?.contains("0 crossed the line") == true, "\(cameraRun)")

            // Hostile limits: one sentence each; an unknown model simply has no runs.
            for limit in ["0", "-1", "1e19", "abc", "1001", String(Int.max)] {
                let (code, body) = try await client.json(APIErrorBody.self, "/api/detections?limit=\(limit)")
                #expect(code == .badRequest, "limit=\(limit)")
                #expect(ErrorSentence.isWellFormed(body.error), "\(body)")
            }
            #expect(try await client.json(RunList.self, "/api/detections?model=nothing-here").1.runs.isEmpty)
            // A counting line that is not a line is refused where it is saved.
            let bad = try await client.patch("/api/models/det", #"{"defaults": {"interpreter": "counter", "interpreterOptions": {"line": {"x1": 0, "y1": 0.5, "x2": 7, "y2": 0.5}}}}"#)
            #expect(bad.status == .unprocessableContent, "\(String(buffer: bad.body))")
            let sentence = try decoded(APIErrorBody.self, bad, "the patch of a line out of the picture").error
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
                guard case .text(let ready) = try await iterator.next() else { Issue.record("no ready message"); return }
                _ = try decoded(LiveSocket.Ready.self, Data(ready.utf8), "the socket's first message")
                for _ in 0..<sent { try await outbound.write(.binary(ByteBuffer(bytes: frame))) }
                var processed = 0
                var last: Wire.LiveFrameAnswer<JSONValue>?
                while let message = try await iterator.next() {
                    guard case .text(let text) = message else { continue }
                    let answer = try decoded(Wire.LiveFrameAnswer<JSONValue>.self, Data(text.utf8), "the socket's answer \(processed + 1)")
                    processed += 1
                    last = answer
                    if answer.frameId == sent { break }
                }
                let dropped = last?.dropped ?? -1
                // Every frame is either processed or counted as dropped; the last one sent is always processed.
                #expect(last?.frameId == sent)
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
    private let child: Child

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
        child = try Child("python3", ["-c", Self.script, directory.path], input: .pipe, output: .pipe)
        let text = child.lineBlocking(seconds: 30) ?? ""
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5).prefix { $0.isNumber }) else {
            child.closeInputAndEnd()
            throw CocoaError(.fileReadUnknown)
        }
        self.port = port
    }

    func stop() { child.closeInputAndEnd() }
}

/// Reads a studio socket's text messages one at a time, each decoded as the message the test expects next
/// (``LiveSocket/Ready``, ``Wire/LiveFrameAnswer``, ``LiveSocket/SettingsMessage``, ``LiveSocket/ErrorMessage``),
/// keeping each in `log` when given. A binary message, the end, or a message of another shape fails with a sentence.
struct SocketReader {
    private var iterator: WebSocketInboundMessageStream.AsyncIterator
    private let log: LockedMessages?
    private var read = 0
    /// The last message read, as it came (for the few checks of its raw JSON).
    private(set) var last = Data()

    init(_ inbound: WebSocketInboundStream, log: LockedMessages? = nil) {
        iterator = inbound.messages(maxSize: 1 << 24).makeAsyncIterator()
        self.log = log
    }

    /// The next message, decoded as `T`.
    mutating func next<T: Decodable>(_ type: T.Type) async throws -> T {
        read += 1
        guard case .text(let text) = try await iterator.next() else {
            throw UnexpectedAnswer(description: "the socket's message \(read) is binary or missing, not the \(T.self) expected")
        }
        log?.append(text)
        last = Data(text.utf8)
        return try decoded(T.self, last, "the socket's message \(read)")
    }
}

/// The text messages a socket test saw (its handler is `@Sendable`).
final class LockedMessages: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ m: String) { lock.lock(); items.append(m); lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return items.count }
}

// MARK: The studio's answers, decoded

/// `GET /api/models`.
struct ModelList: Decodable { var models: [ModelView] }

/// `GET /api/detections`.
struct RunList: Decodable { var runs: [RunView] }

/// Test-side mirrors of studio answers whose types are only `Encodable` (each holds an interpreter's result as
/// `any Encodable`), named after the real types. `Result` is the interpreter's own result type, or `JSONValue`
/// where a test reads only which interpreter ran.
enum Wire {
    /// ``StudioPrediction/Interpretation``: `{"interpreter", "result"}`.
    struct Interpretation<Result: Decodable>: Decodable {
        var interpreter: String
        var result: Result
    }

    /// ``SwingPipeline/InterpretedDetections``, the answer of `POST /api/detect` and a video job's result: the
    /// ``DetectionDocument``'s keys with `interpretation` beside them when an interpreter ran, and the `skeleton`
    /// that tennis mode adds (``TennisAnswer``; absent otherwise).
    struct InterpretedDetections<Result: Decodable>: Decodable {
        var document: DetectionDocument
        var interpretation: Interpretation<Result>?
        var skeleton: PoseSkeleton?

        private enum Key: String, CodingKey { case interpretation, skeleton }

        init(from decoder: any Decoder) throws {
            document = try DetectionDocument(from: decoder)
            let c = try decoder.container(keyedBy: Key.self)
            interpretation = try c.decodeIfPresent(Interpretation<Result>.self, forKey: .interpretation)
            skeleton = try c.decodeIfPresent(PoseSkeleton.self, forKey: .skeleton)
        }
    }

    /// ``LiveFrameAnswer``: one processed frame on the live socket, `{"type": "result", …}`.
    struct LiveFrameAnswer<Result: Decodable>: Decodable {
        struct Timings: Decodable {
            var decodeMs, preMs, inferenceMs, postMs, serverMs: Double
            var poseMs, yoloMs: Double?
        }
        var type: String
        var frameId: Int
        var width: Int
        var height: Int
        var detections: [DetectionDocument.Item]
        var classification: [DetectionDocument.ClassScore]?
        var pose: StudioPose?
        var interpretation: Interpretation<Result>?
        var trails: [StudioPrediction.Trail]?
        var crossings: LineCrossings.Summary?
        var timings: Timings
        var dropped: Int
        var fps: Double
    }

    enum CounterInterpreter {
        /// ``SwingVision/CounterInterpreter/VideoResult``: how many frames the counter read (the tests read no more).
        struct VideoResult: Decodable { var frameCount: Int }
    }
}

extension TestClientProtocol {
    /// Polls a model download until it is no longer downloading (or `timeout` passes: then an issue is recorded
    /// and the download is returned as last seen).
    func waitForDownload(_ id: Int, timeout: Double = 60) async throws -> ModelDownloads.Job {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let (_, job) = try await json(ModelDownloads.Job.self, "/api/models/jobs/\(id)")
            if job.state != .running { return job }
            guard Date() < deadline else {
                Issue.record("download \(id) did not finish within \(timeout) s: \(job)")
                return job
            }
            try await Task.sleep(for: .milliseconds(100))
        }
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
