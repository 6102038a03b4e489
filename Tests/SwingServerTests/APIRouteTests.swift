import Foundation
import SwingTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SwingBiomech
import SwingCore
import SwingMedia
@testable import SwingPipeline
@testable import SwingServer
import SwingStore
import Testing

/// The HTTP contract of issue #12, through `buildApplication` (the same code `swingmaster serve` runs).
@Suite(.serialized) struct APIRouteTests {
    /// Upload → job → the stored session, served as the very document the CLI prints.
    @Test func anUploadBecomesAJobWhoseSessionIsTheCLIDocument() async throws {
        let server = try TestServer()
        let video = try Data(contentsOf: TestServer.demoVideo)
        let db = try server.database()
        try await server.run { client in
            // The demo's people walk (docs/analysis.md, "Swing check"): this test is about the job, so the check is off.
            let r = try await client.upload(video, name: "my session.mp4", query: "?hand=right&duration=6&swingCheck=off")
            #expect(r.status == .accepted)
            let job = try decoded(Queued<JobView>.self, r, "the upload").job
            #expect(job.state == .queued)
            let final = try await client.waitForJob(job.id)
            #expect(final.state == .done, "job ended \(final)")
            #expect(final.stage == 4 && final.progress == 1)
            let sessionId = try #require(final.sessionId)

            // The list, newest first, with the display name the browser sent.
            let (_, list) = try await client.json(SessionList.self, "/api/sessions")
            let sessions = list.sessions
            #expect(sessions.count == 1 && sessions.first?.file == "my session.mp4")
            #expect((sessions.first?.shots ?? 0) >= 2)

            // GET /api/sessions/{id} is byte for byte the stored document (what `sessions export --json` prints).
            let doc = try await client.execute(uri: "/api/sessions/\(sessionId)", method: .get, headers: [:], body: nil)
            #expect(doc.status == .ok)
            let stored = try #require(try await SessionArchive.documentJSON(id: sessionId, in: db))
            #expect(Data(buffer: doc.body) == stored)

            // A shot with its posed frames: 2D joints in image pixels and 3D joints in centimetres.
            let (status, shot) = try await client.json(ShotView.self, "/api/sessions/\(sessionId)/shots/1")
            #expect(status == .ok)
            #expect(shot.frames.count > 5)
            // The pages find the hitting wrist's row through the landmark vocabulary, not by spelling it.
            let (_, vocabulary) = try await client.json(APIRoutes.Landmarks.self, "/api/landmarks")
            let joints = vocabulary.joints
            #expect(joints == shot.joints)
            #expect(shot.bones == vocabulary.bones)
            let wrist = try #require(vocabulary.wrist["right"])
            #expect(joints[wrist] == "rightWrist" && vocabulary.wrist["left"].map { joints[$0] } == "leftWrist")
            #expect(vocabulary.landmarks.count == 33 && vocabulary.edges.count == 35)
            let (missing, error) = try await client.json(APIErrorBody.self, "/api/sessions/\(sessionId)/shots/999")
            #expect(missing == .notFound && ErrorSentence.isWellFormed(error.error))

            // The pose for OpenSim, as `sessions export --trc/--mot` writes it, offered as downloads.
            for format in OpenSimFormat.allCases {
                let r = try await client.execute(uri: "/api/sessions/\(sessionId)/export.\(format.rawValue)", method: .get, headers: [:], body: nil)
                let expected = try await SessionArchive.openSim(format, id: sessionId, name: "session-\(sessionId).\(format.rawValue)", in: db)
                #expect(r.status == .ok && String(buffer: r.body) == expected)
                #expect(r.headers[.contentDisposition]?.contains("session-\(sessionId).\(format.rawValue)") == true)
            }
            // One shot's swing (?shot=N), named after it; a shot that is not there is a 404, a bad number a 400.
            let one = try await client.execute(uri: "/api/sessions/\(sessionId)/export.trc?shot=1", method: .get, headers: [:], body: nil)
            let oneExpected = try await SessionArchive.openSim(.trc, id: sessionId, shot: 1, name: "session-\(sessionId)-shot-1.trc", in: db)
            #expect(one.status == .ok && String(buffer: one.body) == oneExpected)
            #expect(one.headers[.contentDisposition]?.contains("session-\(sessionId)-shot-1.trc") == true)
            for (query, status) in [("shot=999", HTTPResponse.Status.notFound), ("shot=0", .badRequest), ("shot=two", .badRequest)] {
                let (code, body) = try await client.json(APIErrorBody.self, "/api/sessions/\(sessionId)/export.mot?\(query)")
                #expect(code == status && ErrorSentence.isWellFormed(body.error), "\(query)")
            }
            let (noSuch, why) = try await client.json(APIErrorBody.self, "/api/sessions/999/export.trc")
            #expect(noSuch == .notFound && ErrorSentence.isWellFormed(why.error))

            // The video answers Range requests (the browser's seeking), and a start past the end is 416.
            var range = HTTPFields(); range[.range] = "bytes=0-99"
            let part = try await client.execute(uri: "/api/sessions/\(sessionId)/video", method: .get, headers: range, body: nil)
            #expect(part.status == .partialContent && part.body.readableBytes == 100)
            #expect(part.headers[.contentRange] == "bytes 0-99/\(video.count)")
            range[.range] = "bytes=\(video.count + 10)-"
            let past = try await client.execute(uri: "/api/sessions/\(sessionId)/video", method: .get, headers: range, body: nil)
            #expect(past.status == .rangeNotSatisfiable)

            // The video with the skeleton: drawn on first request (202 with progress), then an H.264 MP4 of
            // the analysed six seconds at most 1280 px wide, offered as a download and answering Range.
            var annotated: TestResponse?
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline {
                let r = try await client.execute(uri: "/api/sessions/\(sessionId)/annotated.mp4", method: .get, headers: [:], body: nil)
                if r.status != .accepted { annotated = r; break }
                let drawing = try decoded(APIRoutes.Drawing.self, r, "the annotated video being drawn")
                #expect((0...1).contains(drawing.progress), "202 without progress")
                try await Task.sleep(for: .milliseconds(200))
            }
            let drawn = try #require(annotated, "the annotated video was not drawn within 2 minutes")
            #expect(drawn.status == .ok && drawn.headers[.contentType] == "video/mp4")
            #expect(drawn.headers[.contentDisposition]?.contains("attachment") == true)
            let mp4 = server.home.appendingPathComponent("annotated.mp4").path
            try Data(buffer: drawn.body).write(to: URL(fileURLWithPath: mp4))
            let probe = try MediaProbe.probe(mp4)
            #expect(probe.video?.codec == "h264" && probe.video.map { max($0.width, $0.height) <= 1280 } == true)
            #expect(abs(probe.duration - 6) < 0.2, "annotated video lasts \(probe.duration) s")
            range[.range] = "bytes=0-0"
            let first = try await client.execute(uri: "/api/sessions/\(sessionId)/annotated.mp4", method: .get, headers: range, body: nil)
            #expect(first.status == .partialContent && first.body.readableBytes == 1)
            // The highlights: made on first request too, one chapter per shot, offered as a download.
            var reel: TestResponse?
            let until = Date().addingTimeInterval(120)
            while Date() < until {
                let r = try await client.execute(uri: "/api/sessions/\(sessionId)/highlights.mp4", method: .get, headers: [:], body: nil)
                if r.status != .accepted { reel = r; break }
                try await Task.sleep(for: .milliseconds(200))
            }
            let cut = try #require(reel, "the highlights were not cut within 2 minutes")
            #expect(cut.status == .ok && cut.headers[.contentDisposition]?.contains("session-\(sessionId)-highlights.mp4") == true)
            let reelPath = server.home.appendingPathComponent("highlights.mp4")
            try Data(buffer: cut.body).write(to: reelPath)
            let chapters = try await Subprocess.output("ffprobe", ["-v", "error", "-show_chapters", "-of", "csv=p=0", reelPath.path])
            let storedDocument = try #require(try await SessionArchive.document(id: sessionId, in: db))
            #expect(String(decoding: chapters, as: UTF8.self).split(separator: "\n").count == storedDocument.session.shots.count)
            let (unknown, sentence) = try await client.json(APIErrorBody.self, "/api/sessions/999/annotated.mp4")
            #expect(unknown == .notFound && !sentence.error.isEmpty)

            // The same file again is recognised: one stored copy.
            let again = try await client.upload(video, name: "again.mp4", query: "?duration=6")
            #expect(again.status == .accepted)
            #expect(server.mediaFiles.filter { !$0.hasSuffix(".part") && !$0.hasPrefix("session-") }.count == 1)

            // Deleting the session takes its drawings with it; the upload stays for the second session.
            let secondJob = try decoded(Queued<JobView>.self, again, "the second upload").job.id
            _ = try await client.waitForJob(secondJob)
            let deleted = try await client.bodiless("/api/sessions/\(sessionId)", method: .delete)
            #expect(deleted == .noContent)
            #expect(!server.mediaFiles.contains { $0.hasPrefix("session-\(sessionId).") }, "left \(server.mediaFiles)")
            #expect(server.mediaFiles.filter { !$0.hasPrefix("session-") }.count == 1, "the second session's upload went")
        }
    }

    /// The web app lists sessions the CLI analysed too; deleting one there removes the session, never the
    /// player's own video, and nothing is written beside it.
    @Test func deletingACLISessionKeepsThePlayersVideo() async throws {
        let server = try TestServer()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("my videos-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let own = folder.appendingPathComponent("match.mp4")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestServer.demoVideo, to: own)
        let db = try server.database()
        let id = try await db.saveSession(SessionRecord(filePath: own.path, fileSHA256: try SHA256.hex(ofFile: own.path),
                                                  durationSeconds: 6, fps: 30, hand: .right,
                                                  stats: SessionStats(shotCount: 0)), shots: [])
        try await server.run { client in
            let thumb = try await client.execute(uri: "/api/sessions/\(id)/thumbnail.jpg", method: .get, headers: [:], body: nil)
            #expect(thumb.status == .ok)
            let deleted = try await client.bodiless("/api/sessions/\(id)", method: .delete)
            #expect(deleted == .noContent)
            let (gone, _) = try await client.json(APIErrorBody.self, "/api/sessions/\(id)")
            #expect(gone == .notFound)
            #expect(server.mediaFiles.isEmpty, "left \(server.mediaFiles)")
        }
        #expect(FileManager.default.fileExists(atPath: own.path), "the player's video was deleted")
        let beside = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(beside == ["match.mp4"], "written beside the player's video: \(beside)")
    }

    /// An iPhone-style HEVC `.mov`: the analysis reads it, and the video the page plays is an H.264
    /// MP4 copy with the same duration; the original is still served as it came, and deleting the
    /// session removes both.
    @Test func anHEVCMovIsServedAsAnH264CopyAndTheOriginalAsItCame() async throws {
        let server = try TestServer()
        let mov = server.home.appendingPathComponent("IMG_0001.MOV").path
        try TestFiles.ffmpeg(["-i", TestServer.demoVideo.path, "-t", "6", "-c:v", "libx265", "-x265-params", "log-level=error",
                               "-preset", "ultrafast", "-tag:v", "hvc1", "-c:a", "aac", mov])
        let original = try Data(contentsOf: URL(fileURLWithPath: mov))
        try await server.run { client in
            let r = try await client.upload(original, name: "IMG_0001.MOV", type: "video/quicktime")
            let id = try decoded(Queued<JobView>.self, r, "the upload").job.id
            let final = try await client.waitForJob(id)
            #expect(final.state == .done, "\(final)")
            let session = try #require(final.sessionId)
            let video = try await client.execute(uri: "/api/sessions/\(session)/video", method: .get, headers: [:], body: nil)
            #expect(video.status == .ok && video.headers[.contentType] == "video/mp4")
            let copy = server.home.appendingPathComponent("copy.mp4").path
            try Data(buffer: video.body).write(to: URL(fileURLWithPath: copy))
            let probe = try MediaProbe.probe(copy)
            #expect(probe.video?.codec == "h264" && probe.audio?.codec == "aac")
            #expect(abs(probe.duration - (try MediaProbe.probe(mov).duration)) < 0.1)
            let served = try await client.execute(uri: "/api/sessions/\(session)/original", method: .get, headers: [:], body: nil)
            #expect(Data(buffer: served.body) == original)
            #expect(server.mediaFiles.contains { $0.hasSuffix(".playback.mp4") })
            // The session list's picture: a small upright JPEG, kept next to the media.
            let thumb = try await client.execute(uri: "/api/sessions/\(session)/thumbnail.jpg", method: .get, headers: [:], body: nil)
            #expect(thumb.status == .ok && thumb.headers[.contentType] == "image/jpeg")
            let jpeg = server.home.appendingPathComponent("thumb.jpg").path
            try Data(buffer: thumb.body).write(to: URL(fileURLWithPath: jpeg))
            let picture = try ImageIO.load(jpeg)
            #expect(max(picture.width, picture.height) == 320, "\(picture.width)×\(picture.height)")
            let (none, _) = try await client.json(APIErrorBody.self, "/api/sessions/999/thumbnail.jpg")
            #expect(none == .notFound)
            let deleted = try await client.bodiless("/api/sessions/\(session)", method: .delete)
            #expect(deleted == .ok || deleted == .noContent)
            #expect(server.mediaFiles.isEmpty, "left \(server.mediaFiles)")
        }
    }

    /// A file the engine refuses: its sentence and status, and nothing on disk or in the store.
    @Test func invalidMediaIs422WithTheEnginesSentenceAndNothingIsKept() async throws {
        let server = try TestServer()
        try await server.run(analyze: { job, _ in Issue.record("no job should run"); return .standIn(job) }) { client in
            let r = try await client.upload(Data("this is not a video\n".utf8), name: "notes.mp4")
            #expect(r.status == .unprocessableContent)
            let body = try decoded(APIErrorBody.self, r, "the upload of notes.mp4")
            let sentence = body.error
            #expect(sentence.contains("notes.mp4") && !sentence.contains(server.home.path), "\(sentence)")
            #expect(ErrorSentence.isWellFormed(sentence), "\(sentence)")
            #expect(body.code > 0)
            #expect(server.mediaFiles.isEmpty, "left \(server.mediaFiles)")
            let (_, list) = try await client.json(SessionList.self, "/api/sessions")
            #expect(list.sessions.isEmpty)
        }
    }

    /// Too large (by Content-Length and by counted bytes), wrong type, bad parameters: 4xx with a sentence.
    @Test func refusedUploadsSayWhyAndLeaveNoFile() async throws {
        var configured = try TestServer()
        configured.configuration.maxUploadBytes = 4096
        let server = configured
        try await server.run(analyze: { job, _ in .standIn(job) }) { client in
            let big = try await client.upload(Data(count: 10_000))
            #expect(big.status == .contentTooLarge)
            let text = try await client.upload(Data("x".utf8), type: "text/plain")
            #expect(text.status == .unsupportedMediaType)
            for refused in [big, text] {
                let body = try decoded(APIErrorBody.self, refused, "a refused upload")
                #expect(ErrorSentence.isWellFormed(body.error), "\(body)")
            }
            for query in ["?hand=both", "?start=-1", "?duration=abc", "?duration=0", "?start=1e400"] {
                let r = try await client.upload(Data(count: 10), query: query)
                #expect(r.status == .badRequest, "\(query) → \(r.status)")
                let body = try decoded(APIErrorBody.self, r, "the upload with \(query)")
                #expect(ErrorSentence.isWellFormed(body.error), "\(query): \(body)")
            }
            #expect(server.mediaFiles.isEmpty, "left \(server.mediaFiles)")
        }
    }

    /// Cancelling a running job stops the analysis; nothing is stored and the upload is removed.
    @Test func cancellingARunningJobStoresNothing() async throws {
        let server = try TestServer()
        let video = try Data(contentsOf: TestServer.demoVideo)
        try await server.run(analyze: { _, report in
            report(.detectingContacts, 0.5)
            while true { try await Task.sleep(for: .milliseconds(20)) }   // until cancelled
        }) { client in
            let r = try await client.upload(video)
            let id = try decoded(Queued<JobView>.self, r, "the upload").job.id
            // Wait until the worker has it.
            for _ in 0..<100 {
                let (_, job) = try await client.json(JobView.self, "/api/jobs/\(id)")
                if job.state == .running { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            let (status, _) = try await client.json(JobView.self, "/api/jobs/\(id)", method: .delete)
            #expect(status == .ok)
            let final = try await client.waitForJob(id, timeout: 20)
            #expect(final.state == .cancelled)
            #expect(final.error?.isEmpty == false)
            #expect(final.sessionId == nil)
            // Raw JSON on purpose: a job writes `sessionId` as null, never leaves it out (JobView.encode); decoding reads both as nil.
            let raw = try await client.execute(uri: "/api/jobs/\(id)", method: .get, headers: [:], body: nil)
            #expect(try decoded(JSONValue.self, raw, "GET /api/jobs/\(id)")["sessionId"] == .null, "\(String(buffer: raw.body))")
            // The worker removes the upload right after it ends the job (the job held it until then).
            let deadline = Date().addingTimeInterval(5)
            while !server.mediaFiles.isEmpty && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(server.mediaFiles.isEmpty, "left \(server.mediaFiles)")
        }
    }

    /// A server stopped while it analyses (SIGTERM, Ctrl-C) cancels the analysis and puts the job back in
    /// the queue; the next server on the same home takes it and finishes it. Nothing is lost, nothing is
    /// stored twice.
    @Test func aJobRunningWhenTheServerStopsIsFinishedByTheNextStart() async throws {
        let server = try TestServer()
        let video = try Data(contentsOf: TestServer.demoVideo)
        let started = Flag()
        let job = JobBox()
        try await server.run(analyze: { _, report in
            report(.runningPose, 0.5)
            started.set()
            while true { try await Task.sleep(for: .milliseconds(20)) }   // until the shutdown cancels it
        }, keepHome: true) { client in
            let r = try await client.upload(video, name: "restart.mp4")
            job.id = try decoded(Queued<JobView>.self, r, "the upload").job.id
            for _ in 0..<200 where !started.isSet { try await Task.sleep(for: .milliseconds(25)) }
            #expect(started.isSet, "the job never started")
        }   // the application shuts down gracefully here
        let id = try #require(job.id)
        let db = try server.database()
        let requeued = try #require(try await db.job(id: id))
        #expect(requeued.state == .queued, "after the stop the job is \(requeued.state)")
        #expect(try await db.sessions().isEmpty)

        try await server.run(analyze: { job, _ in .standIn(job) }) { client in
            let final = try await client.waitForJob(id, timeout: 30)
            #expect(final.state == .done, "\(final)")
            #expect(final.sessionId != nil)
            #expect(try await db.sessions().count == 1)
        }
    }

    final class JobBox: @unchecked Sendable { var id: Int64? }

    /// `GET /metrics` is Prometheus text from swift-metrics: requests by status, the upload, each stage's
    /// duration as the job went through it, the job's duration by outcome, and the store's jobs by state.
    @Test func metricsCountRequestsUploadsStagesAndJobs() async throws {
        let server = try TestServer()
        let video = try Data(contentsOf: TestServer.demoVideo)
        try await server.run(analyze: { job, report in
            for stage in JobView.stages.prefix(3) {
                report(stage, 0.5)
                try await Task.sleep(for: .milliseconds(50))
            }
            throw PipelineError(.noContacts, "No racket–ball contact was heard in \(job.mediaPath).")
        }) { client in
            let r = try await client.upload(video)
            let id = try decoded(Queued<JobView>.self, r, "the upload").job.id
            _ = try await client.waitForJob(id, timeout: 20)
            _ = try await client.json(APIErrorBody.self, "/api/sessions/999")
            let response = try await client.execute(uri: "/metrics", method: .get, headers: [:], body: nil)
            #expect(response.status == .ok && response.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = String(buffer: response.body)
            func value(_ series: String) -> Double? {
                text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
            }
            #expect(value(#"swingmaster_http_requests_total{status="202"}"#) == 1, "\(text)")
            #expect(value(#"swingmaster_http_requests_total{status="404"}"#) == 1)
            #expect(value("swingmaster_uploads_total") == 1)
            #expect(value("swingmaster_upload_bytes_total") == Double(video.count))
            // Stages 1–3 each ended when the next began; the failed stage 3 is not a stage duration.
            for stage in ["Extracting audio", "Detecting contacts"] {
                let count = value(#"swingmaster_job_stage_duration_seconds_count{stage="\#(stage)"}"#)
                let sum = value(#"swingmaster_job_stage_duration_seconds_sum{stage="\#(stage)"}"#) ?? 0
                #expect(count == 1 && sum >= 0.04 && sum < 5, "\(stage): \(String(describing: count)) in \(sum) s")
            }
            #expect(value(#"swingmaster_job_stage_duration_seconds_count{stage="Running body pose"}"#) == nil)
            #expect(value(#"swingmaster_job_duration_seconds_count{state="failed"}"#) == 1)
            #expect(value(#"swingmaster_jobs{state="failed"}"#) == 1 && value(#"swingmaster_jobs{state="queued"}"#) == 0)
            // The queue, from the store: nothing waits, the one job ran once and its lease never ran out.
            #expect(value("swingmaster_queue_depth") == 0 && value("swingmaster_queue_oldest_job_age_seconds") == 0)
            #expect(value("swingmaster_job_lease_expiries") == 0 && value("swingmaster_job_retries") == 0)
        }
    }

    /// A failed analysis reports the engine's sentence about the file as the user named it, and the
    /// event stream sends each change and closes after the final state.
    @Test func aFailedJobCarriesItsSentenceAndTheEventStreamCloses() async throws {
        let server = try TestServer()
        let video = try Data(contentsOf: TestServer.demoVideo)
        try await server.run(analyze: { job, report in
            report(.extractingAudio, 0.3)
            try await Task.sleep(for: .milliseconds(300))
            throw PipelineError(.noContacts, "No racket–ball contact was heard in \(job.mediaPath).")
        }) { client in
            let r = try await client.upload(video, name: "quiet.mp4")
            let id = try decoded(Queued<JobView>.self, r, "the upload").job.id
            let events = try await client.execute(uri: "/api/jobs/\(id)/events", method: .get, headers: [:], body: nil)
            #expect(events.headers[.contentType] == "text/event-stream")
            let text = String(buffer: events.body)
            let jobs = try text.split(separator: "\n").filter { $0.hasPrefix("data: ") }
                .map { try decoded(JobView.self, Data($0.dropFirst(6).utf8), "an event of job \(id)'s stream") }
            #expect(jobs.count >= 2, "\(text)")
            #expect(jobs.last?.state == .failed)
            let sentence = jobs.last?.error ?? ""
            #expect(sentence.contains("quiet.mp4") && !sentence.contains(server.home.path), "\(sentence)")
        }
    }

    /// Pages render; static files are served and cannot be used to read outside their folder.
    @Test func pagesAndStaticFilesAndNoWayOut() async throws {
        let server = try TestServer()
        try await server.run(analyze: { job, _ in .standIn(job) }) { client in
            for page in ["/", "/sessions/new", "/onboarding", "/compare", "/progress", "/login"] {
                let r = try await client.execute(uri: page, method: .get, headers: [:], body: nil)
                #expect(r.status == .ok, "\(page) → \(r.status)")
                #expect(String(buffer: r.body).contains("<html"), "\(page) is not a page")
            }
            let css = try await client.execute(uri: "/static/app.css", method: .get, headers: [:], body: nil)
            #expect(css.status == .ok && css.headers[.contentType]?.hasPrefix("text/css") == true)
            for escape in ["/static/../Package.swift", "/static/%2e%2e/%2e%2e/Package.swift", "/static/..%2fPackage.swift",
                           "/vendor/../../etc/passwd"] {
                let r = try await client.execute(uri: escape, method: .get, headers: [:], body: nil)
                #expect(r.status == .notFound || r.status == .badRequest, "\(escape) → \(r.status)")
                #expect(!String(buffer: r.body).contains("swift-tools-version"))
            }
            let (status, body) = try await client.json(APIErrorBody.self, "/api/sessions/12345")
            #expect(status == .notFound && body.error.hasSuffix("."))
        }
    }
}
