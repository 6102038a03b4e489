import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import NIOCore
import SwingCore
import SwingPipeline
@testable import SwingServer
import SwingTestSupport
import SwingVision
import Testing

/// The studio's tennis mode (`mode=tennis`, docs/studio.md): BlazePose's pose next to a detect model's boxes,
/// tennis-contact by default. The racket-and-ball model is tools/make_tennis_fixture.py's (a racket and a ball
/// touching on any picture that is not black); the player is a real photo (messi5.jpg, SwingPose's fixtures).
@Suite(.serialized) struct StudioTennisTests {
    static let racketBall = StudioRouteTests.fixtures.appendingPathComponent("tennis-contact.onnx")
    static let player = TestFiles.packageRoot.appendingPathComponent("Tests/SwingPoseTests/Fixtures/messi5.jpg")
    static let cat = TestFiles.packageRoot.appendingPathComponent("Tests/SwingPoseTests/Fixtures/chelsea.png")

    /// The answer of `POST /api/detect` in tennis mode, its interpreter tennis-contact's.
    typealias TennisDetections = Wire.InterpretedDetections<TennisContactInterpreter.Result>

    /// Checks a `pose`: 33 landmarks of [x, y, visibility], the body inside the picture.
    static func checkPose(_ value: StudioPose?, _ context: String) throws {
        let pose = try #require(value, "no pose: \(context)")
        let landmarks = pose.landmarks
        #expect(landmarks.count == 33)
        #expect(landmarks.allSatisfy { $0.count == 3 && (0...1).contains($0[2]) })
        #expect(pose.score > 0.5)
        // The shoulders and hips of the footballer are seen, inside the picture, shoulders above hips.
        for i in [11, 12, 23, 24] {
            #expect((0...1).contains(landmarks[i][0]) && (0...1).contains(landmarks[i][1]) && landmarks[i][2] > 0.5, "landmark \(i): \(landmarks[i])")
        }
        #expect(landmarks[11][1] < landmarks[23][1] && landmarks[12][1] < landmarks[24][1])
    }

    static func labels(_ detections: [DetectionDocument.Item]) -> [String] { detections.map(\.label).sorted() }

    @Test func aPictureOfAPlayerAnswersThePoseBesideTheBoxes() async throws {
        try await TestServer().run { client in
            #expect(try await client.addModel(try Data(contentsOf: Self.racketBall), name: "racket-ball.onnx").status == .created)
            let photo = try Data(contentsOf: Self.player)
            let r = try await client.detect(photo, query: "model=racket-ball&mode=tennis")
            #expect(r.status == .ok, "\(String(buffer: r.body))")
            let body = try decoded(TennisDetections.self, r, "tennis mode on a player")
            let frame = try #require(body.document.results.first)
            try Self.checkPose(frame.pose, "tennis mode on a player")
            #expect(Self.labels(frame.detections) == ["sports ball", "tennis racket"])
            // How to draw it: bones between landmarks.
            let bones = try #require(body.skeleton?.bones)
            #expect(bones.count >= 12 && bones.allSatisfy { $0.count == 2 && $0.allSatisfy { (0..<33).contains($0) } })
            #expect(body.skeleton?.names[15] == "leftWrist")
            // tennis-contact is the interpreter unless the query names another: the ball touches the racket.
            let interpretation = try #require(body.interpretation)
            #expect(interpretation.interpreter == "tennis-contact")
            let contact = try #require(interpretation.result.contact)
            #expect(contact.rule == .proximity)

            // Settings still apply: above the ball's score only the racket is left, and the interpreter says so.
            let strict = try decoded(TennisDetections.self, try await client.detect(photo, query: "model=racket-ball&mode=tennis&conf=0.85"),
                                     "tennis mode at conf 0.85")
            let strictFrame = try #require(strict.document.results.first)
            #expect(Self.labels(strictFrame.detections) == ["tennis racket"])
            try Self.checkPose(strictFrame.pose, "conf 0.85")
            #expect(strict.interpretation?.result.reason == "no ball")
            // interpret=none is honoured; another interpreter can be named.
            let none = try await client.detect(photo, query: "model=racket-ball&mode=tennis&interpret=none")
            _ = try decoded(Wire.InterpretedDetections<JSONValue>.self, none, "tennis mode without an interpreter")
            // Raw JSON on purpose (here and for the absent fields below): left out, not sent as null (docs/studio.md); decoding reads both as nil.
            #expect(try decoded(JSONValue.self, none, "tennis mode without an interpreter")["interpretation"] == nil)
            let counted = try decoded(Wire.InterpretedDetections<JSONValue>.self,
                                      try await client.detect(photo, query: "model=racket-ball&mode=tennis&interpret=counter"), "tennis mode with the counter")
            #expect(counted.interpretation?.interpreter == "counter")

            // Without tennis mode: no pose, no skeleton, no interpreter by default.
            let plainAnswer = try await client.detect(photo, query: "model=racket-ball")
            _ = try decoded(Wire.InterpretedDetections<JSONValue>.self, plainAnswer, "detecting without tennis mode")
            let plain = try decoded(JSONValue.self, plainAnswer, "detecting without tennis mode")
            #expect(plain["results"]?[0]?["pose"] == nil)
            #expect(plain["skeleton"] == nil && plain["interpretation"] == nil)
            // Nobody in the picture: the boxes come, the pose is left out.
            let empty = try await client.detect(try Data(contentsOf: Self.cat), query: "model=racket-ball&mode=tennis")
            let catFrame = try #require(try decoded(TennisDetections.self, empty, "tennis mode on a cat").document.results.first)
            #expect(try decoded(JSONValue.self, empty, "tennis mode on a cat")["results"]?[0]?["pose"] == nil)
            #expect(Self.labels(catFrame.detections) == ["sports ball", "tennis racket"])
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
            let sentence = try decoded(APIErrorBody.self, classify, "tennis mode with a classifier").error
            #expect(sentence.contains("detect model") && ErrorSentence.isWellFormed(sentence), "\(sentence)")
            for mode in ["badminton", "TENNIS", String(repeating: "x", count: 5000)] {
                let r = try await client.detect(photo, query: "model=racket-ball&mode=\(mode)")
                #expect(r.status == .badRequest, "mode \(mode.prefix(20)) answered \(r.status)")
                let text = try decoded(APIErrorBody.self, r, "mode \(mode.prefix(20))").error
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
                typealias Answer = Wire.LiveFrameAnswer<TennisContactInterpreter.Result>
                let ready = try await reader.next(LiveSocket.Ready.self)
                #expect(ready.type == "ready")
                #expect(ready.skeleton?.bones.isEmpty == false)
                #expect(ready.settings.interpret == "tennis-contact")
                var detectorRuns: [Bool] = []
                for id in 1...3 {
                    try await outbound.write(.binary(ByteBuffer(bytes: photo)))
                    let m = try await reader.next(Answer.self)
                    #expect(m.type == "result" && m.frameId == id, "\(m)")
                    try Self.checkPose(m.pose, "frame \(id)")
                    detectorRuns.append(m.pose?.detectorRan ?? true)
                    #expect(Self.labels(m.detections) == ["sports ball", "tennis racket"])
                    let timings = m.timings
                    #expect((timings.poseMs ?? 0) > 0 && (timings.yoloMs ?? 0) > 0, "\(timings)")
                    let contact = m.interpretation?.result.contact
                    #expect(contact?.rule == .proximity)
                    // The contact's time is the frame's time since the camera connected, not 0.
                    #expect((contact?.time ?? 0) > 0)
                }
                // The person is found once, then tracked from frame to frame.
                #expect(detectorRuns == [true, false, false])
                // A setting applies to the next frame in tennis mode too.
                try await outbound.write(.text(#"{"conf": 0.85}"#))
                #expect(try await reader.next(LiveSocket.SettingsMessage.self).settings.conf == 0.85)
                try await outbound.write(.binary(ByteBuffer(bytes: photo)))
                let strict = try await reader.next(Answer.self)
                #expect(Self.labels(strict.detections) == ["tennis racket"])
                try Self.checkPose(strict.pose, "after conf 0.85")
                // Garbage is one sentence, and the socket goes on.
                try await outbound.write(.binary(ByteBuffer(bytes: Data(repeating: 7, count: 1000))))
                let bad = try await reader.next(LiveSocket.ErrorMessage.self)
                #expect(bad.type == "error" && ErrorSentence.isWellFormed(bad.error), "\(bad)")
                try await outbound.write(.binary(ByteBuffer(bytes: photo)))
                let after = try await reader.next(Answer.self)
                #expect(after.frameId == 6)
                try Self.checkPose(after.pose, "after garbage")
            }
            #expect(messages.count == 8)
        }
    }
}
