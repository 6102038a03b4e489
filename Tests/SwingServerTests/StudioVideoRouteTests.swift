import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SwingCore
import SwingMedia
import SwingPipeline
@testable import SwingServer
import SwingTestSupport
import Testing

/// The studio's video input (docs/studio.md): a video uploaded as a job, its progress, its results, the
/// annotated MP4 and the upload served for playback, cancellation, and refusals. The clips are made here with
/// ffmpeg from the fixtures' astronaut photograph panning; the model is the detect fixture (seeded weights
/// whose spread class biases give detections on any picture).
@Suite(.serialized) struct StudioVideoRouteTests {
    static let astronaut = StudioRouteTests.fixtures.appendingPathComponent("astronaut.ppm")

    /// An H.264 MP4 of `frames` frames at 15 fps, 320×240: the photo panning up and down.
    static func clip(frames: Int, in dir: URL, name: String = "clip.mp4") throws -> URL {
        let url = dir.appendingPathComponent(name)
        try TestFiles.ffmpeg(["-loop", "1", "-i", astronaut.path, "-vf", "scale=320:320,crop=320:240:0:'40+30*sin(t)'",
                              "-r", "15", "-frames:v", String(frames), "-pix_fmt", "yuv420p", "-c:v", "libx264", url.path])
        return url
    }

    static func jobsFolder(_ server: TestServer) -> URL { server.home.appendingPathComponent("cache/detect-jobs") }

    static func leftovers(_ server: TestServer) -> [String] {
        (try? FileManager.default.subpathsOfDirectory(atPath: jobsFolder(server).path)) ?? []
    }

    @Test func aVideoRunsAsAJobAndItsResultsAreServed() async throws {
        let dir = try TestFiles.temporaryDirectory("studio-video")
        defer { try? FileManager.default.removeItem(at: dir) }
        let n = 31, stride = 3
        let video = try Data(contentsOf: try Self.clip(frames: n, in: dir))
        let server = try TestServer()
        try await server.run { client in
            #expect(try await client.addModel(try Data(contentsOf: StudioRouteTests.detector), name: "det.onnx").status == .created)
            let started = try await client.detectVideo(video, name: "My Rally.mp4", query: "model=det&stride=\(stride)&interpret=counter")
            #expect(started.status == .accepted, "\(String(buffer: started.body))")
            let job = try decoded(Queued<StudioVideoJobs.Job>.self, started, "the video upload").job
            let id = job.id
            let expected = (n + stride - 1) / stride
            #expect(job.framesTotal == expected)
            #expect(job.width == 320 && job.height == 240)

            let done = try await client.waitForVideoJob(id)
            #expect(done.state == .done, "\(done)")
            #expect(done.progress == 1 && done.framesDone == expected)
            #expect((done.meanFps ?? 0) > 0)
            // The events of a finished job: its final state, then the stream ends.
            let events = String(buffer: try await client.execute(uri: "/api/detect/jobs/\(id)/events", method: .get, headers: [:], body: nil).body)
            #expect(events.hasPrefix("event: job\ndata: ") && events.contains(#""state":"done""#), "\(events)")

            // The result: the detect --json document, one frame per stride, in time order, with the summary.
            let result = try await client.execute(uri: "/api/detect/jobs/\(id)/result", method: .get, headers: [:], body: nil)
            #expect(result.status == .ok)
            let body = try decoded(Wire.InterpretedDetections<Wire.CounterInterpreter.VideoResult>.self, result, "the job's result")
            let frames = body.document.results
            #expect(frames.count == expected)
            #expect(frames.map(\.frame) == Array(Swift.stride(from: 0, to: n, by: stride)))
            let times = frames.map(\.time)
            #expect(times.count == expected && zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(times)")
            #expect(abs((times.last ?? 0) - 30.0 / 15) < 1e-3, "the last processed frame (30) is at 2 s: \(times)")
            #expect(frames.allSatisfy { $0.source == "My Rally.mp4" })
            #expect(frames.map(\.detections.count).reduce(0, +) > 0, "the fixture model found nothing")
            let interpretation = try #require(body.interpretation)
            #expect(interpretation.interpreter == "counter")
            #expect(interpretation.result.frameCount == expected)

            // The annotated MP4: one picture per processed frame, index first (streams), served in ranges.
            let mp4 = try await client.execute(uri: "/api/detect/jobs/\(id)/video", method: .get, headers: [:], body: nil)
            #expect(mp4.status == .ok && mp4.headers[.contentType] == "video/mp4")
            #expect(mp4.headers[.contentDisposition]?.contains("My Rally-det-annotated.mp4") == true)
            let bytes = Data(buffer: mp4.body)
            let moov = try #require(bytes.range(of: Data("moov".utf8))), mdat = try #require(bytes.range(of: Data("mdat".utf8)))
            #expect(moov.lowerBound < mdat.lowerBound, "the MP4's index is not at the front")
            let saved = dir.appendingPathComponent("annotated.mp4")
            try bytes.write(to: saved)
            let info = try MediaProbe.probe(saved.path)
            #expect(info.video?.frameCount == expected && info.video?.width == 320)
            let part = try await client.execute(uri: "/api/detect/jobs/\(id)/video", method: .get, headers: [.range: "bytes=100-199"], body: nil)
            #expect(part.status == .partialContent)
            #expect(part.headers[.contentRange] == "bytes 100-199/\(bytes.count)")
            #expect(Data(buffer: part.body) == bytes[100..<200])
            // The upload, for the page to play under its drawing.
            let source = try await client.execute(uri: "/api/detect/jobs/\(id)/source", method: .get, headers: [.range: "bytes=0-"], body: nil)
            #expect(source.status == .partialContent && Data(buffer: source.body) == video)

            // The run is recorded with the model.
            let (_, model) = try await client.json(ModelView.self, "/api/models/det")
            let run = try #require(model.runs?.first)
            #expect(run.source == "video" && run.frames == expected)
            #expect(run.interpreter == "counter")

            // Deleting a finished job removes it and its files.
            #expect(!Self.leftovers(server).isEmpty)
            #expect(try await client.execute(uri: "/api/detect/jobs/\(id)", method: .delete, headers: [:], body: nil).status == .noContent)
            #expect(try await client.json(APIErrorBody.self, "/api/detect/jobs/\(id)").0 == .notFound)
            #expect(try await client.execute(uri: "/api/detect/jobs/\(id)/video", method: .get, headers: [:], body: nil).status == .notFound)
            #expect(Self.leftovers(server).isEmpty, "\(Self.leftovers(server))")
        }
    }

    @Test func refusalsSayOneSentenceAndLeaveNoFile() async throws {
        let dir = try TestFiles.temporaryDirectory("studio-video-refusals")
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = try Data(contentsOf: try Self.clip(frames: 5, in: dir))
        let png = dir.appendingPathComponent("photo.png")
        try TestFiles.ffmpeg(["-i", Self.astronaut.path, png.path])
        let server = try TestServer()
        try await server.run { client in
            _ = try await client.addModel(try Data(contentsOf: StudioRouteTests.detector), name: "det.onnx")
            _ = try await client.addModel(try Data(contentsOf: StudioRouteTests.classifier), name: "cls.onnx")
            func expectRefused(_ r: TestResponse, _ status: HTTPResponse.Status, _ what: String) throws {
                #expect(r.status == status, "\(what) answered \(r.status): \(String(buffer: r.body))")
                let sentence = try decoded(APIErrorBody.self, r, what).error
                #expect(ErrorSentence.isWellFormed(sentence), "\(what): \(sentence)")
            }
            for query in ["stride=0", "stride=-1", "stride=1e19", "stride=NaN", "stride=301", "stride=9223372036854775807",
                          "stride=three", "conf=1e19", "conf=NaN", "conf=-1", "iou=inf", "maxDet=0", "classes=999",
                          "interpret=nope"] {
                try expectRefused(try await client.detectVideo(video, query: "model=det&" + query), .badRequest, query)
            }
            try expectRefused(try await client.detectVideo(video, query: "model=cls&track=1"), .badRequest, "tracking a classifier")
            try expectRefused(try await client.detectVideo(video, query: "stride=3"), .badRequest, "no model")
            try expectRefused(try await client.detectVideo(video, query: "model=nothing-here"), .notFound, "an unknown model")
            try expectRefused(try await client.detectVideo(video, query: "model=det", type: "text/plain"), .unsupportedMediaType, "text/plain")

            // Not a video: garbage, an empty body, a picture. One sentence naming the file, nothing kept.
            let garbage = try await client.detectVideo(Data(repeating: 0x42, count: 5000), name: "holiday.mp4", query: "model=det")
            try expectRefused(garbage, .unprocessableContent, "garbage")
            #expect(try decoded(APIErrorBody.self, garbage, "garbage").error.hasPrefix("holiday.mp4 is not a video"))
            try expectRefused(try await client.detectVideo(Data(), query: "model=det"), .unprocessableContent, "an empty body")
            let picture = try await client.detectVideo(try Data(contentsOf: png), name: "photo.png", query: "model=det")
            try expectRefused(picture, .unprocessableContent, "a picture")
            #expect(try decoded(APIErrorBody.self, picture, "a picture").error.contains("choose Image"))
            #expect(Self.leftovers(server).isEmpty, "refused uploads left \(Self.leftovers(server))")

            // Over the server's upload limit: refused before it is stored.
            #expect(try await client.json(APIErrorBody.self, "/api/detect/jobs/1").0 == .notFound)
            #expect(try await client.json(APIErrorBody.self, "/api/detect/jobs/abc").0 == .notFound)
            #expect(try await client.json(APIErrorBody.self, "/api/detect/jobs/-1", method: .delete).0 == .notFound)
        }
        var limited = try TestServer()
        limited.configuration.maxUploadBytes = 1 << 20   // the model (0.8 MB) fits, a 1.5 MB video does not
        let small = limited
        try await small.run { client in
            _ = try await client.addModel(try Data(contentsOf: StudioRouteTests.detector), name: "det.onnx")
            let big = try await client.detectVideo(Data(repeating: 0, count: 3 << 19), query: "model=det")
            #expect(big.status == .contentTooLarge)
            #expect(ErrorSentence.isWellFormed(try decoded(APIErrorBody.self, big, "a video over the limit").error))
            #expect(Self.leftovers(small).isEmpty)
        }
    }

    @Test func cancellingMidJobLeavesNothingAndTheQueueIsBounded() async throws {
        let dir = try TestFiles.temporaryDirectory("studio-video-cancel")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Long enough that it is still running when cancelled: 600 frames at stride 1.
        let long = try Data(contentsOf: try Self.clip(frames: 600, in: dir, name: "long.mp4"))
        let server = try TestServer()
        try await server.run { client in
            _ = try await client.addModel(try Data(contentsOf: StudioRouteTests.detector), name: "det.onnx")
            var ids: [Int] = []
            for _ in 0..<StudioVideoJobs.maxPending {
                let r = try await client.detectVideo(long, query: "model=det&stride=1")
                #expect(r.status == .accepted)
                ids.append(try decoded(Queued<StudioVideoJobs.Job>.self, r, "the video upload").job.id)
            }
            // A fourth while three wait or run: refused, nothing stored for it.
            let busy = try await client.detectVideo(long, query: "model=det&stride=1")
            #expect(busy.status == .tooManyRequests)
            #expect(ErrorSentence.isWellFormed(try decoded(APIErrorBody.self, busy, "a fourth video").error))
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: Self.jobsFolder(server).path)) == Set(ids.map(String.init)))

            // The first is running: cancel it mid-way; the two waiting are cancelled before they start.
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                let (_, job) = try await client.json(StudioVideoJobs.Job.self, "/api/detect/jobs/\(ids[0])")
                if job.state == .running, job.framesDone > 0 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            for id in ids {
                let (status, job) = try await client.json(StudioVideoJobs.Job.self, "/api/detect/jobs/\(id)", method: .delete)
                #expect(status == .ok && job.state == .cancelled, "\(job)")
            }
            let first = try await client.waitForVideoJob(ids[0])
            #expect(first.state == .cancelled)
            #expect(first.framesDone < 600, "the job ran to its end")
            #expect(ErrorSentence.isWellFormed(first.error ?? ""), "\(first)")
            // The worker lets go of the files within a frame; then nothing is left. (60 s: on 2 cores shared with
            // other suites the cancelled jobs' folders went 20 s after the cancel, a moment after a 20-s wait gave up.)
            let gone = Date().addingTimeInterval(60)
            while !Self.leftovers(server).isEmpty && Date() < gone { try await Task.sleep(for: .milliseconds(50)) }
            #expect(Self.leftovers(server).isEmpty, "a cancelled job left \(Self.leftovers(server))")
            let events = String(buffer: try await client.execute(uri: "/api/detect/jobs/\(ids[0])/events", method: .get, headers: [:], body: nil).body)
            #expect(events.contains(#""state":"cancelled""#))
            #expect(try await client.execute(uri: "/api/detect/jobs/\(ids[0])/result", method: .get, headers: [:], body: nil).status == .gone)
            // Nothing ran to its end, so no run is recorded.
            let (_, model) = try await client.json(ModelView.self, "/api/models/det")
            #expect(model.runs?.isEmpty ?? true)
        }
    }

    @Test func tracksAndAVideoBrowsersCannotPlay() async throws {
        let dir = try TestFiles.temporaryDirectory("studio-video-hevc")
        defer { try? FileManager.default.removeItem(at: dir) }
        // HEVC in a .mov, as an iPhone records: the page gets an H.264 MP4 copy with the same frames to play.
        let hevc = dir.appendingPathComponent("phone.mov")
        try TestFiles.ffmpeg(["-loop", "1", "-i", Self.astronaut.path, "-vf", "scale=320:320,crop=320:240:0:'40+30*sin(t)'",
                              "-r", "15", "-frames:v", "12", "-pix_fmt", "yuv420p", "-c:v", "libx265", "-x265-params", "log-level=error",
                              hevc.path])
        let server = try TestServer()
        try await server.run { client in
            _ = try await client.addModel(try Data(contentsOf: StudioRouteTests.detector), name: "det.onnx")
            let r = try await client.detectVideo(try Data(contentsOf: hevc), name: "phone.mov", query: "model=det&stride=1&track=1")
            #expect(r.status == .accepted, "\(String(buffer: r.body))")
            let id = try decoded(Queued<StudioVideoJobs.Job>.self, r, "the video upload").job.id
            let done = try await client.waitForVideoJob(id)
            #expect(done.state == .done, "\(done)")
            #expect(done.settings.track == true)
            // Tracking: every reported detection belongs to a track, and the still-ish scene keeps some ids.
            let result = try await client.execute(uri: "/api/detect/jobs/\(id)/result", method: .get, headers: [:], body: nil)
            let frames = try decoded(Wire.InterpretedDetections<JSONValue>.self, result, "the job's result").document.results
            #expect(frames.count == 12)
            let detections = frames.flatMap(\.detections)
            #expect(!detections.isEmpty && detections.allSatisfy { $0.trackId != nil })
            // The copy to play: H.264 in MP4, the same 12 frames.
            let source = try await client.execute(uri: "/api/detect/jobs/\(id)/source", method: .get, headers: [:], body: nil)
            #expect(source.status == .ok && source.headers[.contentType] == "video/mp4")
            let copy = dir.appendingPathComponent("copy.mp4")
            try Data(buffer: source.body).write(to: copy)
            let info = try MediaProbe.probe(copy.path)
            #expect(info.video?.codec == "h264" && info.video?.frameCount == 12, "\(String(describing: info.video))")
        }
    }

    @Test func onlyTheNewestFinishedJobsAreKept() async throws {
        let dir = try TestFiles.temporaryDirectory("studio-video-kept")
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = try Data(contentsOf: try Self.clip(frames: 10, in: dir))
        let server = try TestServer()
        try await server.run { client in
            _ = try await client.addModel(try Data(contentsOf: StudioRouteTests.detector), name: "det.onnx")
            var ids: [Int] = []
            for _ in 0...StudioVideoJobs.keptFinished {
                let r = try await client.detectVideo(video, query: "model=det&stride=5")
                let id = try decoded(Queued<StudioVideoJobs.Job>.self, r, "the video upload").job.id
                #expect(try await client.waitForVideoJob(id).state == .done)
                ids.append(id)
            }
            #expect(try await client.json(APIErrorBody.self, "/api/detect/jobs/\(ids[0])").0 == .notFound, "the oldest job was kept")
            for id in ids.dropFirst() { #expect(try await client.json(StudioVideoJobs.Job.self, "/api/detect/jobs/\(id)").0 == .ok) }
            let folders = try FileManager.default.contentsOfDirectory(atPath: Self.jobsFolder(server).path)
            #expect(Set(folders) == Set(ids.dropFirst().map(String.init)))
        }
    }
}

extension TestClientProtocol {
    /// `POST /api/detect/video?query` with `data` as the body.
    func detectVideo(_ data: Data, name: String = "clip.mp4", query: String,
                     type: String = "application/octet-stream") async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.contentType] = type
        if let field = HTTPField.Name("X-Filename") { headers.append(.init(name: field, value: name)) }
        return try await execute(uri: "/api/detect/video?\(query)", method: .post, headers: headers, body: ByteBuffer(bytes: data))
    }

    /// Polls a video job until it reaches a final state (or `timeout` passes: then an issue is recorded and the
    /// job is returned as last seen).
    func waitForVideoJob(_ id: Int, timeout: Double = 120) async throws -> StudioVideoJobs.Job {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let (_, job) = try await json(StudioVideoJobs.Job.self, "/api/detect/jobs/\(id)")
            if job.state.isFinal { return job }
            guard Date() < deadline else {
                Issue.record("video job \(id) did not finish within \(timeout) s: \(job)")
                return job
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
