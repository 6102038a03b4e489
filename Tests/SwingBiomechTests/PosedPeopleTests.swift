import Foundation
import SwingCore
import SwingTestSupport
import Testing
@testable import SwingBiomech

/// A shot is measured on the person posed at it (issue #39, ``PosedPeople``): another person's frames inside its
/// window — a ball kid posed for a squeak 0.3 s before the hit — count as frames nobody posed.
struct PosedPeopleTests {
    /// A picture body `size` px across with its hips at (`x`, `y`).
    static func body(x: Double, y: Double, size: Double) -> [Point2] {
        var points: [Point2] = []
        for k in 0..<BodyLandmark.count {
            let across = Double(k % 5) / 4 - 0.5, down = Double(k) / 32 - 0.5
            points.append(Point2(x: x + size * across, y: y + size * down))
        }
        points[BodyLandmark.leftHip] = Point2(x: x, y: y)
        points[BodyLandmark.rightHip] = Point2(x: x, y: y)
        return points
    }

    /// A generated session whose player is seen in the picture, 300 px across, walking slowly.
    static func seen(_ s: StrokeSession) throws -> StrokeSession {
        var s = s
        s.track = try PoseTrack(samples: s.track.samples.map { f in
            var f = f
            f.image = body(x: 600 + 80 * sin(0.8 * f.time), y: 500, size: 300)
            return f
        })
        return s
    }

    @Test("Another person's frames in a shot's window change nothing a blank there would not: any stretch, both hands, 30–120 fps",
          arguments: [30.0, 60.0, 120.0])
    func anotherPersonIsNobody(fps: Double) throws {
        var rng = SplitMix64(seed: UInt64(fps) * 7)
        for hand in [Hand.right, .left] {
            let s = try Self.seen(StrokeSession.make(strokes: 6, delayMs: 80, fps: fps, hand: hand, opponentHits: true,
                                                      noiseCm: 0.5, seed: UInt64(fps) + (hand == .right ? 0 : 1)))
            let p = BiomechParameters(hand: hand, soundDelayMs: nil)
            // Where a contact is heard or measured is the contact's own person: stretches keep 0.12 s away.
            let marks = s.heard.map(\.time) + s.heard.map { $0.time - 0.08 }
            for _ in 0..<12 {
                let start = rng.uniform(0.5, s.track.samples.last?.time ?? 10), length = rng.uniform(0.08, 0.5)
                let stretch = start...(start + length)
                guard !marks.contains(where: { $0 >= start - 0.12 && $0 <= stretch.upperBound + 0.12 }) else { continue }
                // Someone small and far off, the wrist held out on the other side: a backswing the player never made.
                var other = Skeleton()
                other.hand = hand
                other.wrist = Vec3(x: 0.2, y: -0.6, z: 0.3)
                let x = rng.uniform(1300, 1800), size = rng.uniform(60, 120)
                func replaced(_ change: (inout PoseSample) -> Void) throws -> PoseTrack {
                    try PoseTrack(samples: s.track.samples.map { f in
                        var f = f
                        if stretch.contains(f.time) { change(&f) }
                        return f
                    })
                }
                let intruded = try replaced { f in f.world = other.world; f.image = Self.body(x: x, y: 300, size: size) }
                let blank = try replaced { f in f = PoseSample(time: f.time, world: []) }
                let a = BiomechAnalyzer.analyze(track: intruded, contacts: s.heard, parameters: p)
                let b = BiomechAnalyzer.analyze(track: blank, contacts: s.heard, parameters: p)
                #expect(a.shots == b.shots && a.rejected == b.rejected && a.soundDelay == b.soundDelay,
                        "\(fps) fps \(hand), another person over \(stretch): \(a.shots.map(\.stroke)) vs \(b.shots.map(\.stroke))")
            }
        }
    }

    @Test("A player running three body sizes a second, or gone for a second, is one person; two people side by side are two")
    func whoIsWho() throws {
        func people(_ frames: [(Double, [Point2])]) throws -> PosedPeople {
            PosedPeople(track: try PoseTrack(samples: frames.map { t, image in PoseSample(time: t, world: Skeleton().world, image: image) }),
                        hand: .right)
        }
        for fps in [24.0, 30.0, 60.0, 240.0] {
            let times = (0..<Int(2 * fps)).map { Double($0) / fps }
            // Up to 3 sizes/s, back and forth, 80 px tall.
            let runner = try people(times.map { t in (t, Self.body(x: 400 + 120 * sin(2 * t), y: 300, size: 80)) })
            #expect(runner.count == 1, "\(fps) fps")
            // Seen, gone for a second (frames nobody was posed on are not in the track), seen again a size away.
            let gone = try people(times.filter { $0 < 0.5 || $0 > 1.5 }.map { t in (t, Self.body(x: t < 1 ? 400 : 500, y: 300, size: 100)) })
            #expect(gone.count == 1, "\(fps) fps")
            // Two people five sizes apart, posed in turns, and a child half the player's size beside them.
            let two = try people(times.map { t in
                let k = Int((t * fps).rounded()) % 3
                return (t, Self.body(x: k == 0 ? 400 : k == 1 ? 900 : 470, y: 300, size: k == 2 ? 45 : 100))
            })
            #expect(two.count == 3, "\(fps) fps")
            #expect(Set(two.person.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)).count == 1, "\(fps) fps")
        }
    }
}
