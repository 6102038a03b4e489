import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SwingBiomech
import SwingCore
import SwingPipeline
import SwingTestSupport
@testable import SwingServer
import SwingStore
import Testing

/// The player's corrections over HTTP (issue #27): edits, undo, the timeline's envelope, and what is
/// refused. The demo clip's people walk, so the swing check turns most of its contacts down.
@Suite(.serialized) struct EditRouteTests {
    /// POSTs `body` as JSON to `uri`: the status, and the answer decoded as `T` (the session document, or
    /// ``APIErrorBody`` for a refusal; an answer of another shape fails with a sentence).
    static func post<T: Decodable>(_ client: any TestClientProtocol, _ type: T.Type, _ uri: String,
                                   _ body: String?) async throws -> (HTTPResponse.Status, T) {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        let r = try await client.execute(uri: uri, method: .post, headers: headers, body: body.map { ByteBuffer(string: $0) })
        return (r.status, try decoded(T.self, r, "POST \(uri)"))
    }

    static func shotTimes(_ doc: SessionDocument) -> [Double] { doc.session.shots.map(\.time) }
    /// The contacts that are not shots (`nil` in documents written before the swing check: none).
    static func rejected(_ doc: SessionDocument) -> [RejectedContact] { doc.session.rejectedContacts ?? [] }

    @Test func restoreRemoveAddUndoAndTheRefusals() async throws {
        let server = try TestServer()
        let video = try Data(contentsOf: TestServer.demoVideo)
        try await server.run { client in
            let r = try await client.upload(video, name: "walkers.mp4", query: "?hand=right")
            let job = try decoded(Queued<JobView>.self, r, "the upload").job
            let done = try await client.waitForJob(job.id)
            let id = try #require(done.sessionId)
            let (_, original) = try await client.json(SessionDocument.self, "/api/sessions/\(id)")
            let rejected = Self.rejected(original)
            try #require(rejected.count >= 2, "the demo's walkers should be rejected: \(original)")
            #expect(rejected.allSatisfy { $0.reason.hasPrefix("No swing") && $0.kind == .noSwing })

            // Restore one: it is a shot, and the session list counts it.
            let t = try #require(rejected.first?.time)
            let (s1, restored) = try await Self.post(client, SessionDocument.self, "/api/sessions/\(id)/edits", #"{"action": "restore", "time": \#(t)}"#)
            #expect(s1 == .ok, "\(restored)")
            #expect(Self.shotTimes(restored).contains(t) && Self.rejected(restored).count == rejected.count - 1)
            let (_, list) = try await client.json(SessionList.self, "/api/sessions")
            #expect(list.sessions.first?.shots == Self.shotTimes(restored).count)
            let (_, stored) = try await client.json(SessionDocument.self, "/api/sessions/\(id)")
            #expect(Self.shotTimes(stored) == Self.shotTimes(restored), "GET does not return what the edit stored")

            // Add a missed hit (its window is posed now), remove it, undo the removal.
            let (s2, added) = try await Self.post(client, SessionDocument.self, "/api/sessions/\(id)/edits", #"{"action": "add", "time": 11.0}"#)
            #expect(s2 == .ok && Self.shotTimes(added).contains(11.0), "\(added)")
            let (s3, removed) = try await Self.post(client, SessionDocument.self, "/api/sessions/\(id)/edits", #"{"action": "remove", "time": 11.0}"#)
            #expect(s3 == .ok && !Self.shotTimes(removed).contains(11.0))
            let (s4, undone) = try await Self.post(client, SessionDocument.self, "/api/sessions/\(id)/edits/undo", nil)
            #expect(s4 == .ok && Self.shotTimes(undone) == Self.shotTimes(added))
            #expect(undone.session.edits?.map(\.action) == [.restore, .add])

            // Refused, with one sentence and the CLI's code; the session is unchanged.
            let refusals: [(String, String?, HTTPResponse.Status, Int?)] = [
                ("edits", #"{"action": "add", "time": 400}"#, .unprocessableContent, Int(StatusCode.invalidEdit)),
                ("edits", #"{"action": "remove", "time": 5.5}"#, .unprocessableContent, Int(StatusCode.invalidEdit)),
                ("edits", #"{"action": "jump", "time": 1}"#, .badRequest, nil),
                ("edits", #"{"action": "add"}"#, .badRequest, nil),
                ("edits", String(repeating: "x", count: 10_000), .contentTooLarge, nil),
            ]
            for (path, body, status, code) in refusals {
                let (s, answer) = try await Self.post(client, APIErrorBody.self, "/api/sessions/\(id)/\(path)", body)
                #expect(s == status, "\(body?.prefix(40) ?? "") → \(s) \(answer)")
                #expect(ErrorSentence.isWellFormed(answer.error), "\(answer)")
                if let code { #expect(answer.code == code) }
            }
            let (_, after) = try await client.json(SessionDocument.self, "/api/sessions/\(id)")
            #expect(Self.shotTimes(after) == Self.shotTimes(undone))
            let (missing, _) = try await Self.post(client, APIErrorBody.self, "/api/sessions/999/edits/undo", nil)
            #expect(missing == .notFound)

            // The timeline's envelope: louder at the heard contacts than in between.
            let (es, envelope) = try await client.json(SoundEnvelope.self, "/api/sessions/\(id)/envelope?bins=120")
            let peaks = envelope.peaksDb
            #expect(es == .ok && peaks.count == 120)
            let duration = envelope.duration
            let at = { (time: Double) in peaks[min(119, max(0, Int(time / duration * 120)))] }
            let quiet = peaks.sorted()[60]
            for c in rejected.map(\.time) { #expect(at(c) > quiet + 6, "no peak at \(c): \(at(c)) vs median \(quiet)") }
            let (bad, _) = try await client.json(APIErrorBody.self, "/api/sessions/\(id)/envelope?bins=5")
            #expect(bad == .badRequest)
            // Decoded once and kept: with the video moved away the same envelope still comes back; another
            // number of slices has to read the sound again, and says it cannot.
            let media = server.home.appendingPathComponent("media")
            let upload = try #require(try FileManager.default.contentsOfDirectory(atPath: media.path)
                .first { $0.hasSuffix(".mp4") && !$0.hasPrefix("session-") && !$0.contains(".playback") })
            let file = media.appendingPathComponent(upload).path
            try FileManager.default.moveItem(atPath: file, toPath: file + ".away")
            let (again, kept) = try await client.json(SoundEnvelope.self, "/api/sessions/\(id)/envelope?bins=120")
            #expect(again == .ok && kept.peaksDb == peaks)
            let (other, _) = try await client.json(APIErrorBody.self, "/api/sessions/\(id)/envelope?bins=130")
            #expect(other == .unprocessableContent)
            try FileManager.default.moveItem(atPath: file + ".away", toPath: file)

            // Listening again keeps the player's edits that still name a contact and records the level.
            let (ls, listened) = try await Self.post(client, SessionDocument.self, "/api/sessions/\(id)/listen", #"{"sensitivity": "more"}"#)
            #expect(ls == .ok && listened.session.sensitivity == .more, "\(listened)")
            #expect(listened.session.edits?.count == 2)
            let (lbad, _) = try await Self.post(client, APIErrorBody.self, "/api/sessions/\(id)/listen", #"{"sensitivity": "loud"}"#)
            #expect(lbad == .badRequest)
            // Expert thresholds beside the level, recorded; out of range is one sentence.
            let (xs, expert) = try await Self.post(client, SessionDocument.self, "/api/sessions/\(id)/listen",
                                                   #"{"sensitivity": "more", "peakThresholdFactor": 2.2, "minRelativeAmplitude": 0.08}"#)
            #expect(xs == .ok && expert.session.detectorThresholds == .init(peakThresholdFactor: 2.2, minRelativeAmplitude: 0.08))
            let (xbad, xerr) = try await Self.post(client, APIErrorBody.self, "/api/sessions/\(id)/listen", #"{"sensitivity": "more", "peakThresholdFactor": 0}"#)
            #expect(xbad == .unprocessableContent && xerr.error.contains("1 to 20"))
        }
    }
}
