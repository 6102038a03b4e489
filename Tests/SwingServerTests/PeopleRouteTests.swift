import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SwingCore
import SwingMedia
import SwingPipeline
import SwingTestSupport
@testable import SwingServer
import SwingStore
import Testing

/// The player says who they are over HTTP (issue #39): the people in a picture (`POST /api/people`) and in a
/// stored session's frame (`GET /api/sessions/{id}/people`), the upload's `player=X,Y@SECONDS`, measuring another
/// person (`POST /api/sessions/{id}/player`), and what each refuses, in one sentence.
@Suite(.serialized) struct PeopleRouteTests {
    /// POSTs `body` to `uri` as `type`: the status, and the answer decoded as `T` (``PeopleInView``, the session
    /// document, or ``APIErrorBody`` for a refusal; an answer of another shape fails with a sentence).
    static func post<T: Decodable>(_ client: any TestClientProtocol, _ answer: T.Type, _ uri: String, type: String,
                                   _ body: Data) async throws -> (HTTPResponse.Status, T) {
        var headers = HTTPFields()
        headers[.contentType] = type
        let r = try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(bytes: body))
        return (r.status, try decoded(T.self, r, "POST \(uri) (\(type), \(body.count) bytes)"))
    }

    static func wellFormed(_ answer: APIErrorBody) -> Bool { ErrorSentence.isWellFormed(answer.error) }

    /// Two real people (``PastedPerson``) 250 and 380 px tall at x = 300 and 960 of a 1280×720 court, as a JPEG.
    static func twoPeopleJPEG() throws -> (jpeg: Data, hipsX: [Double]) {
        let photo = try ImageIO.load(TestFiles.package("Tests/SwingPoseTests/Fixtures/basketball1.png").path)
        let source = try PastedPerson.Source(photo: photo)
        let court = PastedPerson.court(width: 1280, height: 720, seed: 11)
        let left = PastedPerson.paste(source, into: court, height: 250, hips: Point2(x: 300, y: 420))
        let right = PastedPerson.paste(source, into: left.frame, height: 380, hips: Point2(x: 960, y: 420))
        let file = try TestFiles.temporaryDirectory("people-route").appendingPathComponent("two.jpg")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try ImageIO.save(right.frame, to: file.path)
        return (try Data(contentsOf: file), [left.hips.x / 1280, right.hips.x / 1280])
    }

    @Test func aPictureOfSeveralPeopleGivesEachOnesOutlineAndBadPicturesAreRefused() async throws {
        let server = try TestServer()
        let (jpeg, hipsX) = try Self.twoPeopleJPEG()
        try await server.run { client in
            let (status, answer) = try await Self.post(client, PeopleInView.self, "/api/people", type: "image/jpeg", jpeg)
            #expect(status == .ok, "\(answer)")
            let people = answer.people
            try #require(people.count == 2, "\(answer)")
            #expect(answer.width == 1280 && answer.height == 720)
            for (person, x) in zip(people, hipsX) {
                let box = person.box, hips = person.hips
                #expect(abs(hips.x - x) < 0.03, "\(hips) vs \(x)")
                #expect(box.x1 < x && box.x2 > x && box.y1 < hips.y && box.y2 > hips.y)
                #expect(person.size > 0.2 && person.score > 0.5)
            }

            // Refused, each with one sentence: not a picture type, not a picture, a header claiming 20000×20000,
            // more than 8 MB.
            var huge = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + Data("IHDR".utf8)
            huge += Data([0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 2, 0, 0, 0, 0, 0, 0, 0])
            let refusals: [(String, Data, HTTPResponse.Status, String)] = [
                ("text/plain", jpeg, .unsupportedMediaType, "JPEG or PNG"),
                ("video/mp4", jpeg, .unsupportedMediaType, "JPEG or PNG"),
                ("image/jpeg", Data("not a picture".utf8), .unprocessableContent, "not a readable JPEG or PNG"),
                ("image/png", Data(), .unprocessableContent, "not a readable JPEG or PNG"),
                ("image/png", huge, .unprocessableContent, "20000×20000"),
                ("image/jpeg", Data(count: (8 << 20) + 1), .contentTooLarge, "8 MB"),
            ]
            for (type, body, expected, words) in refusals {
                let (s, a) = try await Self.post(client, APIErrorBody.self, "/api/people", type: type, body)
                #expect(s == expected && Self.wellFormed(a) && a.error.contains(words), "\(type) \(body.count) B → \(s) \(a)")
            }
            let (missing, a) = try await client.json(APIErrorBody.self, "/api/sessions/99/people?t=1")
            #expect(missing == .notFound && Self.wellFormed(a))
        }
    }

    /// The upload carries the player's point and moment into the job and the session; the session's frame lists
    /// its people; pointing at another person measures every shot again on them, and the choice is stored.
    @Test func thePlayersChoiceTravelsWithTheUploadIsListedAndIsChangedByPointingAgain() async throws {
        let server = try TestServer()
        let video = try Data(contentsOf: TestServer.demoVideo)
        try await server.run { client in
            // Bad points are refused before a byte is stored.
            for bad in ["2,0.5", "0.5", "a,b", "0.5,0.5@-3", "0.5,0.5@nan"] {
                let r = try await client.upload(video, name: "walkers.mp4", query: "?hand=right&player=\(bad)")
                let answer = try decoded(APIErrorBody.self, r, "the upload with player=\(bad)")
                #expect(r.status == .badRequest && Self.wellFormed(answer), "player=\(bad) → \(r.status) \(answer)")
            }
            #expect(server.mediaFiles.isEmpty, "a refused upload left \(server.mediaFiles)")

            // The demo's two walkers at 7 s: the one on the right (in the red jacket) is the player.
            let r = try await client.upload(video, name: "walkers.mp4", query: "?hand=right&player=0.7300,0.5200@7.000")
            #expect(r.status == .accepted)
            let job = try decoded(Queued<JobView>.self, r, "the upload with the player's point").job
            #expect(job.player == "0.7300,0.5200@7.000", "\(job)")
            let done = try await client.waitForJob(job.id, timeout: 300)
            let id = try #require(done.sessionId, "\(done)")
            let (_, doc) = try await client.json(SessionDocument.self, "/api/sessions/\(id)")
            let session = doc.session
            #expect(session.player == PlayerMark(x: 0.73, y: 0.52, time: 7.0), "\(session.player?.description ?? "none")")
            #expect(!session.warnings.contains { $0.hasPrefix("Where you pointed") }, "\(session.warnings)")

            // The session's frame at 7 s: both walkers, each with an outline and hips inside the picture.
            let (ps, people) = try await client.json(PeopleInView.self, "/api/sessions/\(id)/people?t=7")
            #expect(ps == .ok, "\(people)")
            let listed = people.people
            #expect(listed.count >= 2, "\(people)")
            #expect(abs((people.time ?? -1) - 7) <= 0.1, "the frame shown at 7 s is at \(people.time.map { "\($0)" } ?? "?")")
            for person in listed {
                let hips = person.hips
                #expect((0...1).contains(hips.x) && (0...1).contains(hips.y), "\(hips)")
            }
            for bad in ["", "?t=", "?t=abc", "?t=-5", "?t=500", "?t=nan"] {
                let (s, a) = try await client.json(APIErrorBody.self, "/api/sessions/\(id)/people\(bad)")
                #expect(s == .badRequest && Self.wellFormed(a), "\(bad) → \(s) \(a)")
            }

            // Pointing at the other walker measures every shot again on them; the choice is stored and kept.
            let other = try #require(listed.map(\.hips).min { abs($0.x - 0.73) > abs($1.x - 0.73) })
            #expect(abs(other.x - 0.73) > 0.2, "the other walker is the player: \(listed)")
            let ask = #"{"x": \#(other.x), "y": \#(other.y), "time": \#(people.time ?? 7)}"#
            let (s1, changed) = try await Self.post(client, SessionDocument.self, "/api/sessions/\(id)/player", type: "application/json", Data(ask.utf8))
            #expect(s1 == .ok, "\(changed)")
            let player = changed.session.player
            #expect(abs((player?.x ?? 0) - other.x) < 1e-9, "\(player?.description ?? "none")")
            let (_, reread) = try await client.json(SessionDocument.self, "/api/sessions/\(id)")
            #expect(reread.session.player == player, "the choice was not stored")
            // An edit after it keeps the choice.
            let (s2, undo) = try await Self.post(client, SessionDocument.self, "/api/sessions/\(id)/edits", type: "application/json",
                                                 Data(#"{"action": "add", "time": 11.0}"#.utf8))
            #expect(s2 == .ok && undo.session.player == player, "\(undo)")

            let refusals: [(String, HTTPResponse.Status)] = [
                (#"{"x": 2, "y": 0.5, "time": 1}"#, .unprocessableContent),
                (#"{"x": 0.5, "y": 0.5, "time": 400}"#, .unprocessableContent),
                (#"{"x": 0.5}"#, .badRequest),
                ("nonsense", .badRequest),
            ]
            for (body, expected) in refusals {
                let (s, a) = try await Self.post(client, APIErrorBody.self, "/api/sessions/\(id)/player", type: "application/json", Data(body.utf8))
                #expect(s == expected && Self.wellFormed(a), "\(body) → \(s) \(a)")
            }
            let (s3, _) = try await Self.post(client, APIErrorBody.self, "/api/sessions/999/player", type: "application/json", Data(ask.utf8))
            #expect(s3 == .notFound)
        }
    }
}
