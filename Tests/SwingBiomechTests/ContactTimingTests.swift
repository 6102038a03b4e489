import Foundation
import Testing
import SwingCore
import SwingTestSupport
@testable import SwingBiomech

/// Interpolation to t_c, the sound delay, best-confidence frames, wrist speed and the edge cases.
@Suite struct ContactTimingTests {
    let tol = 1e-9

    /// Forward distance steps 0.30 m → 0.50 m between frames 60 and 61 (t = 1.0 and 1.01666…).
    func steppedTrack(missing: Set<Int> = []) throws -> PoseTrack {
        try makeTrack(count: 120) { i, t in
            guard !missing.contains(i) else { return PoseSample(time: t, world: []) }
            var sk = Skeleton()
            sk.wrist = Vec3(x: i <= 60 ? 0.30 : 0.50, y: 0.5, z: i <= 60 ? 0.0 : 0.1)
            return sk.sample(at: t)
        }
    }

    func shot(_ track: PoseTrack, at time: Double, _ p: BiomechParameters = BiomechParameters.geometry) throws -> Shot {
        try measured(track, at: time, p).shot
    }

    func measured(_ track: PoseTrack, at time: Double, _ p: BiomechParameters = BiomechParameters.geometry) throws -> MeasuredShot {
        try #require(BiomechAnalyzer.analyze(track: track, contacts: [ContactEvent(time: time, confidence: 0.8)],
                                             parameters: p).measured.first)
    }

    @Test func metricsAreInterpolatedLinearlyBetweenTheFramesAroundContact() throws {
        let track = try steppedTrack()
        let t0 = 60.0 / 60, t1 = 61.0 / 60
        let s = try shot(track, at: t0 + 0.3 * (t1 - t0))
        #expect(abs(try #require(s.contact?.forwardCm) - 36) < 1e-6)     // 30 + 0.3 · 20
        #expect(abs(try #require(s.contact?.heightCm) - (97 + 3)) < 1e-6) // up 0 → 10 cm, 30 % of the way
        #expect(s.contactFrame == 60)                             // nearest frame
    }

    @Test func contactExactlyOnAFrameUsesThatFrame() throws {
        let s = try shot(try steppedTrack(), at: 61.0 / 60)
        #expect(abs(try #require(s.contact?.forwardCm) - 50) < tol)
        #expect(s.contactFrame == 61)
    }

    @Test func soundDelayShiftsTheContactEarlier() throws {
        var p = BiomechParameters.geometry
        p.soundDelayMs = 10
        // audio 1.0 + 0.7 frame; minus 10 ms (0.6 frame) → 0.1 of the way from frame 60 to 61.
        let s = try shot(try steppedTrack(), at: 1.0 + 0.7 / 60 + 0.0, p)
        #expect(abs(s.contactTime - (1.0 + 0.7 / 60 - 0.010)) < 1e-12)
        #expect(abs(try #require(s.contact?.forwardCm) - 32) < 1e-6)
    }

    @Test func framesWithoutPoseAreSkippedWhenInterpolating() throws {
        // Frame 61 missing: interpolate between 60 (0.30) and 62 (0.50) at the midpoint of 60…62.
        let m = try measured(try steppedTrack(missing: [61]), at: 61.0 / 60)
        #expect(abs(try #require(m.shot.contact?.forwardCm) - 40) < 1e-6)
        #expect(m.windowFrames.contains(61) == false)
    }

    @Test func contactOutsideTheTrackOrWithoutPoseIsNoPerson() throws {
        let track = try steppedTrack(missing: Set(0..<40))
        let contacts = [ContactEvent(time: -0.01, confidence: 1), ContactEvent(time: 2.5, confidence: 1),
                        ContactEvent(time: 0.2, confidence: 1),   // window −0.8…0.7: frames 0…42 → 40…42 posed
                        ContactEvent(time: 0.1, confidence: 1)]   // window ends at 0.6 < 40/60: nothing posed
        let r = BiomechAnalyzer.analyze(track: track, contacts: contacts, parameters: BiomechParameters.geometry)
        #expect(r.shots.map(\.status) == [.noPerson, .noPerson, .ok, .noPerson])  // sorted: −0.01, 0.1, 0.2, 2.5
        #expect(r.shots.map(\.index) == [1, 2, 3, 4])
        #expect(r.stats.shotCount == 1)
        // Only posed frames after t_c: the nearest one (frame 40) is held, not extrapolated.
        #expect(abs((r.shots[2].contact?.forwardCm ?? 0) - 30) < tol)
    }

    @Test func oneFrameWindowUsesThatFrame() throws {
        var p = BiomechParameters.geometry
        p.windowBefore = 0.001; p.windowAfter = 0.001
        let s = try shot(try steppedTrack(), at: 61.0 / 60)
        let narrow = BiomechAnalyzer.analyze(track: try steppedTrack(), contacts: [ContactEvent(time: 61.0 / 60, confidence: 1)], parameters: p).measured[0]
        #expect(narrow.windowFrames == [61])
        #expect(narrow.shot.contact?.forwardCm == s.contact?.forwardCm)
    }

    @Test func groundIsTheMedianOfTheWindowFramesLowestFoot() throws {
        // Four window frames with lowest feet −0.90, −1.00, −0.94, −0.98 → median −0.96 (mean of middle two).
        let lows = [-0.90, -1.00, -0.94, -0.98]
        let track = try makeTrack(fps: 10, count: 4) { i, t in
            var sk = Skeleton()
            sk.wrist = Vec3(x: 0.4, y: 0.5, z: 0.0)
            sk.feetUp = [-0.5, lows[i], -0.6, -0.7]
            return sk.sample(at: t)
        }
        let s = try shot(track, at: 0.1)
        #expect(abs(try #require(s.groundCm) + 96) < tol)
        #expect(abs(try #require(s.contact?.heightCm) - 96) < tol)
    }

    @Test func wristSpeedUsesFramesThreeEitherSideInWorldAxes() throws {
        // Pelvis fixed, wrist moving at a constant 8 m/s, body turning (rotation must not be removed).
        let v = Vec3(x: 4.8, y: -6.4, z: 0)   // |v| = 8 m/s
        let track = try makeTrack(count: 60) { i, t in
            var sk = Skeleton()
            sk.heading = 0.5 * t
            var s = sk.sample(at: t)
            s.world[BodyLandmark.rightWrist] = sk.pelvis + Vec3(x: 0.3, y: 0, z: 0.2) + v * t
            return s
        }
        let s = try shot(track, at: 0.5)
        #expect(abs(try #require(s.wristSpeedCmS) - 800) < 1e-6)
    }

    @Test func wristSpeedClampsIndicesAtTheTrackStartAndBreaksTiesEarly() throws {
        // Wrist x = t² (m): the speed between frames a and b is (t_a + t_b) m/s, so the indices show.
        // 8 fps keeps every time exact in binary, so the tie below is a real tie.
        let track = try makeTrack(fps: 8, count: 20) { _, t in
            var s = Skeleton().sample(at: t)
            s.world[BodyLandmark.rightWrist] = Skeleton().pelvis + Vec3(x: t * t, y: 0, z: 0)
            return s
        }
        // Nearest frame 1 (t = 0.125): indices −2 → 0 and 4 → speed (0 + 0.5) m/s.
        #expect(abs(try #require(try shot(track, at: 0.125).wristSpeedCmS) - 50) < 1e-9)
        // Tie between frames 5 and 6 (t = 0.6875) → frame 5: indices 2 and 8 → (0.25 + 1.0) m/s.
        let tie = try shot(track, at: 0.6875)
        #expect(tie.contactFrame == 5)
        #expect(abs(try #require(tie.wristSpeedCmS) - 125) < 1e-9)
        // Nearest frame 19 (last): indices 16 and 19 → (2.0 + 2.375) m/s.
        #expect(abs(try #require(try shot(track, at: 2.375).wristSpeedCmS) - 437.5) < 1e-9)
    }

    @Test func bestConfidenceTakesTheHighestScoringFrameWithinFiveFrames() throws {
        let scores: [Int: Double] = [63: 0.99, 68: 1.0 /* 7 frames away: out of reach */]
        let track = try makeTrack(count: 120) { i, t in
            var sk = Skeleton()
            sk.wrist = Vec3(x: 0.01 * Double(i), y: 0.5, z: 0)
            return sk.sample(at: t, score: scores[i] ?? 0.5)
        }
        var p = BiomechParameters.geometry
        p.contactFrame = .bestConfidence
        let s = try shot(track, at: 61.0 / 60, p)
        #expect(s.contactFrame == 63)
        #expect(abs(try #require(s.contact?.forwardCm) - 63) < 1e-9)
        // Interpolate mode on the same input gives frame 61's value.
        #expect(abs(try #require(try shot(track, at: 61.0 / 60).contact?.forwardCm) - 61) < 1e-9)
    }

    @Test func bestConfidenceFallsBackToMeanVisibilityAndPrefersTheNearerFrame() throws {
        let track = try makeTrack(count: 120) { i, t in
            var sk = Skeleton()
            sk.wrist = Vec3(x: 0.01 * Double(i), y: 0.5, z: 0)
            var s = sk.sample(at: t)
            s.visibility = Array(repeating: (i == 58 || i == 64) ? 0.9 : 0.6, count: 33)
            return s
        }
        var p = BiomechParameters.geometry
        p.contactFrame = .bestConfidence
        // Frames 58 and 64 tie on confidence; 64 is 2 frames from t_c (frame 62), 58 is 4.
        #expect(try shot(track, at: 62.0 / 60, p).contactFrame == 64)
    }
}
