import Foundation
import Testing
import SwingCore
import SwingTestSupport
@testable import SwingBiomech

/// Known-geometry checks. Inputs are built from exact body coordinates, so results must match to
/// floating-point rounding of a few operations on metre-scale numbers (≪ 1e-9 cm).
@Suite struct BodyFrameTests {
    let tol = 1e-9

    @Test(arguments: [0.0, 0.5236, -1.2, 3.0])
    func exactForwardLateralHeightForAnyHeading(heading: Double) throws {
        var sk = Skeleton()
        sk.heading = heading
        sk.wrist = Vec3(x: 0.412, y: 0.58, z: -0.007)
        let track = try makeTrack(count: 120) { _, t in sk.sample(at: t) }
        let result = BiomechAnalyzer.analyze(track: track, contacts: [ContactEvent(time: 1.0, confidence: 0.9)],
                                             parameters: BiomechParameters.geometry)
        let shot = try #require(result.shots.first)
        #expect(shot.status == .ok)
        #expect(abs(try #require(shot.contact?.forwardCm) - 41.2) < tol)
        #expect(abs(try #require(shot.contact?.lateralCm) - 58.0) < tol)
        // g = min foot up = −0.97 m in every frame → height = −0.7 cm + 97 cm.
        #expect(abs(try #require(shot.contact?.heightCm) - 96.3) < tol)
        #expect(abs(try #require(shot.groundCm) + 97) < tol)
        #expect(shot.classification == .optimal)
    }

    @Test func leftHandedMirroredStrokeGivesIdenticalNumbers() throws {
        // A right-hander's stroke with a moving wrist, turning body and uneven feet…
        func sample(_ i: Int, _ t: Double) -> PoseSample {
            var sk = Skeleton()
            sk.heading = 0.3 + 0.8 * t
            sk.wrist = Vec3(x: -0.3 + 0.9 * t, y: 0.4 + 0.1 * sin(5 * t), z: 0.2 * cos(3 * t))
            sk.feetUp = [-0.95 + 0.01 * sin(Double(i)), -0.97, -0.93 - 0.02 * cos(Double(i)), -0.96]
            return sk.sample(at: t)
        }
        let right = try makeTrack(count: 90, sample)
        let left = try PoseTrack(samples: right.samples.map(mirrored))
        let contacts = [ContactEvent(time: 0.5071, confidence: 1), ContactEvent(time: 1.2, confidence: 1)]
        var p = BiomechParameters.geometry
        let r = BiomechAnalyzer.analyze(track: right, contacts: contacts, parameters: p)
        p.hand = .left
        let l = BiomechAnalyzer.analyze(track: left, contacts: contacts, parameters: p)
        for (a, b) in zip(r.shots, l.shots) {
            #expect(a.status == .ok && b.status == .ok)
            #expect(abs((a.contact?.forwardCm ?? .nan) - (b.contact?.forwardCm ?? .nan)) < tol)
            #expect(abs((a.contact?.lateralCm ?? .nan) - (b.contact?.lateralCm ?? .nan)) < tol)
            #expect(abs((a.contact?.heightCm ?? .nan) - (b.contact?.heightCm ?? .nan)) < tol)
            #expect(abs((a.wristSpeedCmS ?? .nan) - (b.wristSpeedCmS ?? .nan)) < 1e-7)
        }
        // …and using the wrong hand on the mirrored track is visibly different (the test can fail).
        p.hand = .right
        let wrong = BiomechAnalyzer.analyze(track: left, contacts: contacts, parameters: p)
        #expect(abs((wrong.shots[0].contact?.lateralCm ?? 0) - (r.shots[0].contact?.lateralCm ?? 0)) > 1)
    }

    @Test func frameWithStackedHipsHasNoBodyFrame() {
        var w = Skeleton().world
        w[BodyLandmark.rightHip] = w[BodyLandmark.leftHip] + Vec3(x: 0, y: -0.2, z: 0)
        #expect(BodyFrame(world: w, hand: .right) == nil)
        #expect(BodyFrame(world: Array(w.prefix(17)), hand: .right) == nil)
    }

    @Test func forwardIsInFrontOfTheChest() throws {
        // Facing away from the camera (heading 0): right hip at +x, so forward must be +z (away).
        let frame = try #require(BodyFrame(world: Skeleton().world, hand: .right))
        #expect(abs(frame.forward.z - 1) < 1e-12 && abs(frame.right.x - 1) < 1e-12)
        #expect(frame.hitting == frame.right)
        let leftFrame = try #require(BodyFrame(world: Skeleton().world, hand: .left))
        #expect(leftFrame.hitting == -leftFrame.right)
    }
}
