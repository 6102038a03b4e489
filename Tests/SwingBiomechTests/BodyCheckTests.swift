import Foundation
import SwingCore
import SwingTestSupport
import Testing
@testable import SwingBiomech

/// Never an impossible number (issue #39, ``BodyCheck``): a shot whose pose no body can take is not measured,
/// says why and is listed with the turned-down contacts — and no real stroke of the generated sessions is.
struct BodyCheckTests {
    /// A still player hitting at 2 s, 5 s and 8 s at `fps`, the frames within `spoil` s of 5 s changed by `spoil`.
    static func track(fps: Double, spoilAround: Double = 5, within: Double = 0.3,
                      _ spoil: (inout Skeleton, inout [Point2]) -> Void) throws -> PoseTrack {
        try PoseTrack(samples: (0..<Int(10 * fps)).map { i in
            let t = Double(i) / fps
            var sk = Skeleton()
            // A forehand's forward swing around each contact: the wrist comes 60 cm forward at 5 m/s.
            let nearest = [2.0, 5.0, 8.0].min { abs($0 - t) < abs($1 - t) } ?? 2
            sk.wrist = Vec3(x: 0.4 + 5 * max(-0.12, min(0.12, t - nearest)), y: 0.45, z: 0.1)
            // Image landmarks: a body 300 px tall standing at x = 600 px.
            var image = (0..<33).map { k in Point2(x: 600 + Double(k % 5), y: 400 + 6 * Double(k)) }
            image[BodyLandmark.leftShoulder] = Point2(x: 580, y: 300); image[BodyLandmark.rightShoulder] = Point2(x: 620, y: 300)
            image[BodyLandmark.leftHip] = Point2(x: 585, y: 400); image[BodyLandmark.rightHip] = Point2(x: 615, y: 400)
            if abs(t - spoilAround) <= within { spoil(&sk, &image) }
            return PoseSample(time: t, world: sk.world, image: image)
        })
    }

    static let contacts = [2.0, 5.0, 8.0].map { ContactEvent(time: $0, confidence: 0.9) }

    @Test("Each impossible pose at a contact is refused with its reason; the other contacts stay shots",
          arguments: [24.0, 30.0, 60.0, 240.0])
    func impossible(fps: Double) throws {
        let cases: [(String, (inout Skeleton, inout [Point2]) -> Void)] = [
            ("below the feet", { sk, _ in sk.feetUp = [0.20, 0.25, 0.22, 0.18] }),
            ("only", { sk, _ in sk.feetUp = [-0.10, -0.12, -0.11, -0.09] }),
            ("under the ground", { sk, _ in sk.wrist.z = -1.4 }),
            ("higher than anyone", { sk, _ in sk.wrist.z = 2.6 }),
        ]
        for (words, spoil) in cases {
            for hand in [Hand.right, .left] {
                var p = BiomechParameters(hand: hand, soundDelayMs: 0)
                for check in [true, false] {
                    p.swingCheck = check
                    let track = try Self.track(fps: fps, spoil)
                    let mirrored = hand == .left ? try PoseTrack(samples: track.samples.map(mirrored)) : track
                    let r = BiomechAnalyzer.analyze(track: mirrored, contacts: Self.contacts, parameters: p)
                    let refused = r.rejected.filter { $0.kind == .implausible }
                    #expect(refused.map(\.time) == [5.0], "\(words) \(fps) fps \(hand) check \(check): \(r.rejected.map(\.reason))")
                    #expect(refused.first?.reason.contains(words) == true && refused.first.map { ErrorSentence.isWellFormed($0.reason) } == true,
                            "\(refused.first?.reason ?? "")")
                    #expect(r.shots.map(\.time) == [2.0, 8.0] && r.stats.shotCount == 2, "\(words) \(fps) fps \(hand)")
                }
            }
        }
    }

    @Test("A wrist moving faster than any wrist is refused")
    func tooFast() throws {
        // The wrist 1.5 m further forward from the contact's frame on: 60 m/s over the speed's ±3 frames.
        let track = try Self.track(fps: 240, spoilAround: 5.01, within: 0.01) { sk, _ in sk.wrist.x += 1.5 }
        let r = BiomechAnalyzer.analyze(track: track, contacts: Self.contacts, parameters: BiomechParameters(soundDelayMs: 0))
        #expect(r.rejected.first { $0.kind == .implausible }?.reason.contains("faster than any wrist") == true, "\(r.rejected)")
    }

    @Test("No generated stroke is refused: both hands, 24–240 fps, sizes 0.8–1.3, serves and groundstrokes",
          arguments: [24.0, 30.0, 60.0, 120.0, 240.0])
    func strokesPass(fps: Double) throws {
        for (k, hand) in [Hand.right, .left].enumerated() {
            let s = try StrokeSession.make(strokes: 9, delayMs: 60, fps: fps, hand: hand, opponentHits: true, noiseCm: 0.8,
                                           seed: UInt64(fps) + UInt64(k))
            let r = BiomechAnalyzer.analyze(track: s.track, contacts: s.heard, parameters: BiomechParameters(hand: hand, soundDelayMs: nil))
            #expect(!r.rejected.contains { $0.kind == .implausible }, "\(fps) fps \(hand): \(r.rejected.map(\.reason))")
            #expect(r.shots.count == 9, "\(fps) fps \(hand)")
        }
    }
}
