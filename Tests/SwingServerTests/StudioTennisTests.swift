import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import NIOCore
import SwingCore
@testable import SwingServer
import SwingTestSupport
import Testing

/// The studio's tennis mode (`mode=tennis`, docs/studio.md): BlazePose's pose next to a detect model's boxes,
/// tennis-contact by default. The racket-and-ball model is tools/make_tennis_fixture.py's (a racket and a ball
/// touching on any picture that is not black); the player is a real photo (messi5.jpg, SwingPose's fixtures).
@Suite(.serialized) struct StudioTennisTests {
    static let racketBall = StudioRouteTests.fixtures.appendingPathComponent("tennis-contact.onnx")
    static let player = TestFiles.packageRoot.appendingPathComponent("Tests/SwingPoseTests/Fixtures/messi5.jpg")
    static let cat = TestFiles.packageRoot.appendingPathComponent("Tests/SwingPoseTests/Fixtures/chelsea.png")

    static func object(_ r: TestResponse) throws -> [String: Any] { try StudioRouteTests.object(r) }

    /// Checks a `pose` object: 33 landmarks of [x, y, visibility], the body inside the picture.
    static func checkPose(_ value: Any?, _ context: String) throws {
        let pose = try #require(value as? [String: Any], "no pose: \(context)")
        let landmarks = try #require(pose["landmarks"] as? [[Double]])
        #expect(landmarks.count == 33)
        #expect(landmarks.allSatisfy { $0.count == 3 && (0...1).contains($0[2]) })
        #expect((pose["score"] as? Double ?? 0) > 0.5)
        // The shoulders and hips of the footballer are seen, inside the picture, shoulders above hips.
        for i in [11, 12, 23, 24] {
            #expect((0...1).contains(landmarks[i][0]) && (0...1).contains(landmarks[i][1]) && landmarks[i][2] > 0.5, "landmark \(i): \(landmarks[i])")
        }
        #expect(landmarks[11][1] < landmarks[23][1] && landmarks[12][1] < landmarks[24][1])
    }

    static func labels(_ frame: [String: Any]) -> [String] {
        (frame["detections"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }.sorted()
    }

    @Test func aPictureOfAPlayerAnswersThePoseBesideTheBoxes() async throws {
        try await TestServer().run { client in
            #expect(try await client.addModel(try Data(contentsOf: Self.racketBall), name: "racket-ball.onnx").status == .created)
            let photo = try Data(contentsOf: Self.player)
            let r = try await client.detect(photo, query: "model=racket-ball&mode=tennis")
            #expect(r.status == .ok, "\(String(buffer: r.body))")
            let body = try Self.object(r)
            let frame = try #require((body["results"] as? [[String: Any]])?.first)
            try Self.checkPose(frame["pose"], "tennis mode on a player")
            #expect(Self.labels(frame) == ["sports ball", "tennis racket"])
            // How to draw it: bones between landmarks.
            let bones = try #require((body["skeleton"] as? [String: Any])?["bones"] as? [[Int]])
            #expect(bones.count >= 12 && bones.allSatisfy { $0.count == 2 && $0.allSatisfy { (0..<33).contains($0) } })
            #expect(((body["skeleton"] as? [String: Any])?["names"] as? [String])?[15] == "leftWrist")
            // tennis-contact is the interpreter unless the query names another: the ball touches the racket.
            let interpretation = try #require(body["interpretation"] as? [String: Any])
            #expect(interpretation["interpreter"] as? String == "tennis-contact")
            let contact = try #require((interpretation["result"] as? [String: Any])?["contact"] as? [String: Any])
            #expect(contact["rule"] as? String == "proximity")

            // Settings still apply: above the ball's score only the racket is left, and the interpreter says so.
            let strict = try Self.object(try await client.detect(photo, query: "model=racket-ball&mode=tennis&conf=0.85"))
            let strictFrame = try #require((strict["results"] as? [[String: Any]])?.first)
            #expect(Self.labels(strictFrame) == ["tennis racket"])
            try Self.checkPose(strictFrame["pose"], "conf 0.85")
            #expect(((strict["interpretation"] as? [String: Any])?["result"] as? [String: Any])?["reason"] as? String == "no ball")
            // interpret=none is honoured; another interpreter can be named.
            let none = try Self.object(try await client.detect(photo, query: "model=racket-ball&mode=tennis&interpret=none"))
            #expect(none["interpretation"] == nil)
            let counted = try Self.object(try await client.detect(photo, query: "model=racket-ball&mode=tennis&interpret=counter"))
            #expect((counted["interpretation"] as? [String: Any])?["interpreter"] as? String == "counter")

            // Without tennis mode: no pose, no skeleton, no interpreter by default.
            let plain = try Self.object(try await client.detect(photo, query: "model=racket-ball"))
            #expect((plain["results"] as? [[String: Any]])?.first?["pose"] == nil)
            #expect(plain["skeleton"] == nil && plain["interpretation"] == nil)
            // Nobody in the picture: the boxes come, the pose is left out.
            let empty = try Self.object(try await client.detect(try Data(contentsOf: Self.cat), query: "model=racket-ball&mode=tennis"))
            let catFrame = try #require((empty["results"] as? [[String: Any]])?.first)
            #expect(catFrame["pose"] == nil)
            #expect(Self.labels(catFrame) == ["sports ball", "tennis racket"])
        }
    }

    @Test func tennisModeNeedsADetectModelAndAKnownMode() async throws {
        var server = try TestServer()
        server.mode = .live
        try await server.run { client in
            _ = try await client.addModel(try Data(contentsOf: StudioRouteTests.classifier), name: "cls.onnx")
            _ = try await client.addModel(try Data(contentsOf: Self.racketBall), name: "racket-ball.onnx")
            let photo = try Data(contentsOf: Self.player)
            let classify = try await client.detect(photo, query: "model=cls&mode=tennis")
            #expect(classify.status == .unprocessableContent)
            let sentence = try Self.object(classify)["error"] as? String ?? ""
            #expect(sentence.contains("detect model") && ErrorSentence.isWellFormed(sentence), "\(sentence)")
            for mode in ["badminton", "TENNIS", String(repeating: "x", count: 5000)] {
                let r = try await client.detect(photo, query: "model=racket-ball&mode=\(mode)")
                #expect(r.status == .badRequest, "mode \(mode.prefix(20)) answered \(r.status)")
                let text = try Self.object(r)["error"] as? String ?? ""
                #expect(ErrorSentence.isWellFormed(text) && text.count < 200, "\(text)")
            }
            await #expect(throws: (any Error).self) {
                try await client.ws("/api/detect/live?model=cls&mode=tennis") { _, _, _ in }
            }
        }
    }

    @Test func theCameraInTennisModeAnswersEachFrameWithThePose() async throws {
        var server = try TestServer()
        server.mode = .live
        try await server.run { client in
            _ = try await client.addModel(try Data(contentsOf: Self.racketBall), name: "racket-ball.onnx")
            let photo = try Data(contentsOf: Self.player)
            let messages = LockedMessages()
            try await client.ws("/api/detect/live?model=racket-ball&mode=tennis", configuration: .init(maxFrameSize: 1 << 24)) { inbound, outbound, _ in
                var reader = SocketReader(inbound, log: messages)
                func next() async throws -> [String: Any] { try await reader.next() }
                let ready = try await next()
                #expect(ready["type"] as? String == "ready")
                #expect(((ready["skeleton"] as? [String: Any])?["bones"] as? [Any])?.isEmpty == false)
                #expect((ready["settings"] as? [String: Any])?["interpret"] as? String == "tennis-contact")
                var detectorRuns: [Bool] = []
                for id in 1...3 {
                    try await outbound.write(.binary(ByteBuffer(bytes: photo)))
                    let m = try await next()
                    #expect(m["type"] as? String == "result" && m["frameId"] as? Int == id, "\(m)")
                    try Self.checkPose(m["pose"], "frame \(id)")
                    detectorRuns.append((m["pose"] as? [String: Any])?["detectorRan"] as? Bool ?? true)
                    #expect(Self.labels(m) == ["sports ball", "tennis racket"])
                    let timings = m["timings"] as? [String: Any] ?? [:]
                    #expect((timings["poseMs"] as? Double ?? 0) > 0 && (timings["yoloMs"] as? Double ?? 0) > 0, "\(timings)")
                    let contact = ((m["interpretation"] as? [String: Any])?["result"] as? [String: Any])?["contact"] as? [String: Any]
                    #expect(contact?["rule"] as? String == "proximity")
                    // The contact's time is the frame's time since the camera connected, not 0.
                    #expect((contact?["time"] as? Double ?? 0) > 0)
                }
                // The person is found once, then tracked from frame to frame.
                #expect(detectorRuns == [true, false, false])
                // A setting applies to the next frame in tennis mode too.
                try await outbound.write(.text(#"{"conf": 0.85}"#))
                #expect((try await next()["settings"] as? [String: Any])?["conf"] as? Double == 0.85)
                try await outbound.write(.binary(ByteBuffer(bytes: photo)))
                let strict = try await next()
                #expect(Self.labels(strict) == ["tennis racket"])
                try Self.checkPose(strict["pose"], "after conf 0.85")
                // Garbage is one sentence, and the socket goes on.
                try await outbound.write(.binary(ByteBuffer(bytes: Data(repeating: 7, count: 1000))))
                let bad = try await next()
                #expect(bad["type"] as? String == "error" && ErrorSentence.isWellFormed(bad["error"] as? String ?? ""), "\(bad)")
                try await outbound.write(.binary(ByteBuffer(bytes: photo)))
                let after = try await next()
                #expect(after["frameId"] as? Int == 6)
                try Self.checkPose(after["pose"], "after garbage")
            }
            #expect(messages.count == 8)
        }
    }
}
