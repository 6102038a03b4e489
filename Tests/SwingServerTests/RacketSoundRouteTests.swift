import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SwingCore
import SwingPipeline
import SwingTestSupport
@testable import SwingServer
import Testing

/// The player's racket sound over HTTP (issue #38): learnt from a session's hits as the player left them,
/// listed, chosen for a later upload (whose hits it then finds), forgotten, and every refusal one sentence.
/// Answers are decoded into the API's own types.
@Suite(.serialized) struct RacketSoundRouteTests {
    struct Learnt: Decodable { var racketSound: RacketSound }
    struct Listed: Decodable { var racketSounds: [RacketSound] }

    static func post(_ client: any TestClientProtocol, _ uri: String, _ body: String? = nil) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return try await client.execute(uri: uri, method: .post, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    /// Uploads `video` with `query` and waits for its session.
    static func analyse(_ client: any TestClientProtocol, _ video: URL, query: String) async throws -> (job: JobView, session: Int64) {
        let r = try await client.upload(try Data(contentsOf: video), name: video.lastPathComponent, query: query)
        let queued = try decoded(Queued<JobView>.self, r, "the upload")
        let done = try await client.waitForJob(queued.job.id)
        let session = try #require(done.sessionId, "the job did not store a session: \(done)")
        return (queued.job, session)
    }

    @Test func learnListChooseHearAndForget() async throws {
        let dir = try TestFiles.temporaryDirectory("racket-route")
        defer { try? FileManager.default.removeItem(at: dir) }
        // 36 s of the demo's court sound hitting 13 times, under its footage.
        let (court, times) = try CourtSession.video(seconds: 36, hits: 13, seed: 5, in: dir)
        let server = try TestServer()
        try await server.run { client in
            let none = try decoded(Listed.self, try await client.execute(uri: "/api/racket-sounds", method: .get), "the list")
            #expect(none.racketSounds.isEmpty)
            let (_, courtSession) = try await Self.analyse(client, court, query: "?hand=right&swingCheck=off")

            // Learnt from the session's 13 hits, named as asked, and listed.
            let r = try await Self.post(client, "/api/sessions/\(courtSession)/racket-sound", #"{"name": "  My Pure\u0007 Drive\n  "}"#)
            #expect(r.status == .created)
            let sound = try decoded(Learnt.self, r, "learning").racketSound
            #expect(sound.name == "My Pure Drive" && sound.sessionId == courtSession && sound.contacts == times.count, "\(sound)")
            #expect(sound.f1 >= 0.9, "the model misses its own session's hits: F1 \(sound.f1)")
            let listed = try decoded(Listed.self, try await client.execute(uri: "/api/racket-sounds", method: .get), "the list")
            #expect(listed.racketSounds == [sound])

            // An upload heard with it: the job says so, and the demo's four hits are found by it.
            let (job, demoSession) = try await Self.analyse(client, TestServer.demoVideo, query: "?hand=right&swingCheck=off&racketSound=\(sound.id)")
            #expect(job.racketSound == sound.id)
            let document = try decoded(SessionDocument.self, try await client.execute(uri: "/api/sessions/\(demoSession)", method: .get), "the session")
            #expect(document.session.contactModel?.contacts == times.count, "the session does not say it was heard with the racket sound")
            let heard = document.session.shots.map(\.time) + (document.session.rejectedContacts ?? []).map(\.time)
            struct Truth: Decodable { var contacts: [Double] }
            let truth = try JSONDecoder().decode(Truth.self, from: Data(contentsOf: TestFiles.package("Samples/demo_session.truth.json"))).contacts
            #expect(ContactScore(detected: heard, truth: truth, tolerance: 0.050).f1 == 1, "heard \(heard), truth \(truth)")
            // Listening again uses the detector, and the session no longer claims the racket sound.
            let listened = try await Self.post(client, "/api/sessions/\(demoSession)/listen", #"{"sensitivity": "normal"}"#)
            #expect(listened.status == .ok)
            #expect(try decoded(SessionDocument.self, listened, "listening").session.contactModel == nil)
            // And with the racket sound again: the same hits, and the session says so again.
            let rehear = try await Self.post(client, "/api/sessions/\(demoSession)/listen", #"{"racketSound": \#(sound.id)}"#)
            #expect(rehear.status == .ok)
            let reheard = try decoded(SessionDocument.self, rehear, "listening with the racket sound").session
            #expect(reheard.contactModel?.contacts == times.count)
            #expect((reheard.shots.map(\.time) + (reheard.rejectedContacts ?? []).map(\.time)).sorted() == heard.sorted())
            for (body, status) in [(#"{"racketSound": 999}"#, HTTPResponse.Status.notFound),
                                   (#"{"racketSound": \#(sound.id), "sensitivity": "more"}"#, .badRequest), ("{}", .badRequest)] {
                #expect(try await Self.post(client, "/api/sessions/\(demoSession)/listen", body).status == status, "\(body)")
            }

            // Refusals: one sentence each, with the CLI's code where there is one; nothing stored.
            let refusals: [(TestResponse, HTTPResponse.Status, Int?)] = [
                // The demo holds 4 hits, fewer than a racket sound learns from.
                (try await Self.post(client, "/api/sessions/\(demoSession)/racket-sound"), .unprocessableContent, Int(StatusCode.tooFewToLearn)),
                (try await Self.post(client, "/api/sessions/999/racket-sound"), .notFound, Int(StatusCode.notFound)),
                (try await Self.post(client, "/api/sessions/\(courtSession)/racket-sound", "[1, 2]"), .badRequest, nil),
                (try await Self.post(client, "/api/sessions/\(courtSession)/racket-sound", #"{"name": "\#(String(repeating: "x", count: 5000))"}"#),
                 .contentTooLarge, nil),
                (try await client.upload(Data(count: 10), query: "?racketSound=999"), .badRequest, nil),
                (try await client.upload(Data(count: 10), query: "?racketSound=abc"), .badRequest, nil),
                (try await client.execute(uri: "/api/racket-sounds/999", method: .delete), .notFound, nil),
                (try await client.execute(uri: "/api/racket-sounds/x", method: .delete), .notFound, nil),
            ]
            for (answer, status, code) in refusals {
                #expect(answer.status == status)
                let refusal = try decoded(APIErrorBody.self, answer, "a refusal")
                #expect(ErrorSentence.isWellFormed(refusal.error), "\(refusal.error)")
                if let code { #expect(refusal.code == code, "\(refusal)") }
            }
            let few = try decoded(APIErrorBody.self, try await Self.post(client, "/api/sessions/\(demoSession)/racket-sound"), "a refusal")
            #expect(few.error.contains("at least 10 hits") && few.error.contains("has 4"), "\(few.error)")
            #expect(try decoded(Listed.self, try await client.execute(uri: "/api/racket-sounds", method: .get), "the list").racketSounds == [sound])

            // Forgotten: gone from the list, and an upload can no longer ask for it.
            #expect(try await client.execute(uri: "/api/racket-sounds/\(sound.id)", method: .delete).status == .noContent)
            #expect(try decoded(Listed.self, try await client.execute(uri: "/api/racket-sounds", method: .get), "the list").racketSounds.isEmpty)
            let late = try await client.upload(try Data(contentsOf: TestServer.demoVideo), query: "?racketSound=\(sound.id)")
            #expect(late.status == .badRequest)
            // The sessions heard with it keep what they heard.
            #expect(try await client.execute(uri: "/api/sessions/\(demoSession)", method: .get).status == .ok)
        }
    }
}
