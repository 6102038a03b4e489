import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SwingCore
import SwingTestSupport
@testable import SwingServer
import SwingStore
import Testing

/// The player's corrections over HTTP (issue #27): edits, undo, the timeline's envelope, and what is
/// refused. The demo clip's people walk, so the swing check turns most of its contacts down.
@Suite(.serialized) struct EditRouteTests {
    static func post(_ client: any TestClientProtocol, _ uri: String, _ body: String?) async throws -> (HTTPResponse.Status, [String: Any]) {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        let r = try await client.execute(uri: uri, method: .post, headers: headers, body: body.map { ByteBuffer(string: $0) })
        return (r.status, try apiObject(r.body, from: uri))
    }

    static func session(_ doc: [String: Any]) -> [String: Any] { doc["session"] as? [String: Any] ?? [:] }
    static func shotTimes(_ doc: [String: Any]) -> [Double] {
        (session(doc)["shots"] as? [[String: Any]] ?? []).compactMap { $0["time"] as? Double }
    }
    static func rejected(_ doc: [String: Any]) -> [[String: Any]] { session(doc)["rejectedContacts"] as? [[String: Any]] ?? [] }

    @Test func restoreRemoveAddUndoAndTheRefusals() async throws {
        let server = try TestServer()
        let video = try Data(contentsOf: TestServer.demoVideo)
        try await server.run { client in
            let r = try await client.upload(video, name: "walkers.mp4", query: "?hand=right")
            let job = try #require((try JSONSerialization.jsonObject(with: Data(buffer: r.body)) as? [String: Any])?["job"] as? [String: Any])
            let done = try await client.waitForJob(try #require(job["id"] as? Int))
            let id = try #require(done["sessionId"] as? Int)
            let (_, original) = try await client.json("/api/sessions/\(id)")
            let rejected = Self.rejected(original)
            try #require(rejected.count >= 2, "the demo's walkers should be rejected: \(original)")
            #expect(rejected.allSatisfy { ($0["reason"] as? String)?.hasPrefix("No swing") == true && $0["kind"] as? String == "noSwing" })

            // Restore one: it is a shot, and the session list counts it.
            let t = try #require(rejected.first?["time"] as? Double)
            let (s1, restored) = try await Self.post(client, "/api/sessions/\(id)/edits", #"{"action": "restore", "time": \#(t)}"#)
            #expect(s1 == .ok, "\(restored)")
            #expect(Self.shotTimes(restored).contains(t) && Self.rejected(restored).count == rejected.count - 1)
            let (_, list) = try await client.json("/api/sessions")
            #expect((list["sessions"] as? [[String: Any]])?.first?["shots"] as? Int == Self.shotTimes(restored).count)
            let (_, stored) = try await client.json("/api/sessions/\(id)")
            #expect(Self.shotTimes(stored) == Self.shotTimes(restored), "GET does not return what the edit stored")

            // Add a missed hit (its window is posed now), remove it, undo the removal.
            let (s2, added) = try await Self.post(client, "/api/sessions/\(id)/edits", #"{"action": "add", "time": 11.0}"#)
            #expect(s2 == .ok && Self.shotTimes(added).contains(11.0), "\(added)")
            let (s3, removed) = try await Self.post(client, "/api/sessions/\(id)/edits", #"{"action": "remove", "time": 11.0}"#)
            #expect(s3 == .ok && !Self.shotTimes(removed).contains(11.0))
            let (s4, undone) = try await Self.post(client, "/api/sessions/\(id)/edits/undo", nil)
            #expect(s4 == .ok && Self.shotTimes(undone) == Self.shotTimes(added))
            #expect((Self.session(undone)["edits"] as? [[String: Any]])?.compactMap { $0["action"] as? String } == ["restore", "add"])

            // Refused, with one sentence and the CLI's code; the session is unchanged.
            let refusals: [(String, String?, HTTPResponse.Status, Int?)] = [
                ("edits", #"{"action": "add", "time": 400}"#, .unprocessableContent, Int(StatusCode.invalidEdit)),
                ("edits", #"{"action": "remove", "time": 5.5}"#, .unprocessableContent, Int(StatusCode.invalidEdit)),
                ("edits", #"{"action": "jump", "time": 1}"#, .badRequest, nil),
                ("edits", #"{"action": "add"}"#, .badRequest, nil),
                ("edits", String(repeating: "x", count: 10_000), .contentTooLarge, nil),
            ]
            for (path, body, status, code) in refusals {
                let (s, answer) = try await Self.post(client, "/api/sessions/\(id)/\(path)", body)
                #expect(s == status, "\(body?.prefix(40) ?? "") → \(s) \(answer)")
                #expect((answer["error"] as? String).map(ErrorSentence.isWellFormed) == true, "\(answer)")
                if let code { #expect(answer["code"] as? Int == code) }
            }
            let (_, after) = try await client.json("/api/sessions/\(id)")
            #expect(Self.shotTimes(after) == Self.shotTimes(undone))
            let (missing, _) = try await Self.post(client, "/api/sessions/999/edits/undo", nil)
            #expect(missing == .notFound)

            // The timeline's envelope: louder at the heard contacts than in between.
            let (es, envelope) = try await client.json("/api/sessions/\(id)/envelope?bins=120")
            let peaks = try #require(envelope["peaksDb"] as? [Double])
            #expect(es == .ok && peaks.count == 120)
            let duration = try #require(envelope["duration"] as? Double)
            let at = { (time: Double) in peaks[min(119, max(0, Int(time / duration * 120)))] }
            let quiet = peaks.sorted()[60]
            for c in rejected.compactMap({ $0["time"] as? Double }) { #expect(at(c) > quiet + 6, "no peak at \(c): \(at(c)) vs median \(quiet)") }
            let (bad, _) = try await client.json("/api/sessions/\(id)/envelope?bins=5")
            #expect(bad == .badRequest)
            // Decoded once and kept: with the video moved away the same envelope still comes back; another
            // number of slices has to read the sound again, and says it cannot.
            let media = server.home.appendingPathComponent("media")
            let upload = try #require(try FileManager.default.contentsOfDirectory(atPath: media.path)
                .first { $0.hasSuffix(".mp4") && !$0.hasPrefix("session-") && !$0.contains(".playback") })
            let file = media.appendingPathComponent(upload).path
            try FileManager.default.moveItem(atPath: file, toPath: file + ".away")
            let (again, kept) = try await client.json("/api/sessions/\(id)/envelope?bins=120")
            #expect(again == .ok && kept["peaksDb"] as? [Double] == peaks)
            let (other, _) = try await client.json("/api/sessions/\(id)/envelope?bins=130")
            #expect(other == .unprocessableContent)
            try FileManager.default.moveItem(atPath: file + ".away", toPath: file)

            // Listening again keeps the player's edits that still name a contact and records the level.
            let (ls, listened) = try await Self.post(client, "/api/sessions/\(id)/listen", #"{"sensitivity": "more"}"#)
            #expect(ls == .ok && Self.session(listened)["sensitivity"] as? String == "more", "\(listened)")
            #expect((Self.session(listened)["edits"] as? [[String: Any]])?.count == 2)
            let (lbad, _) = try await Self.post(client, "/api/sessions/\(id)/listen", #"{"sensitivity": "loud"}"#)
            #expect(lbad == .badRequest)
            // Expert thresholds beside the level, recorded; out of range is one sentence.
            let (xs, expert) = try await Self.post(client, "/api/sessions/\(id)/listen",
                                                   #"{"sensitivity": "more", "peakThresholdFactor": 2.2, "minRelativeAmplitude": 0.08}"#)
            #expect(xs == .ok && (Self.session(expert)["detectorThresholds"] as? [String: Double]) == ["peakThresholdFactor": 2.2, "minRelativeAmplitude": 0.08])
            let (xbad, xerr) = try await Self.post(client, "/api/sessions/\(id)/listen", #"{"sensitivity": "more", "peakThresholdFactor": 0}"#)
            #expect(xbad == .unprocessableContent && (xerr["error"] as? String)?.contains("1 to 20") == true)
        }
    }
}
