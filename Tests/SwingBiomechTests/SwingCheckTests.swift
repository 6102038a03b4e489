import Foundation
import Testing
@testable import SwingBiomech
import SwingCore
import SwingTestSupport

/// The swing check (issue #27, docs/analysis.md "Swing check"): a heard contact is a shot only when the
/// dominant wrist swings around it. The strokes and no-swing contacts of `tools/make_stroke_tracks.py` are
/// checked in StrokeTypeTests; these pin the definition on tracks whose wrist speed is known exactly.
struct SwingCheckTests {
    /// A wrist moving forward at `speed` cm/s (constant, so every chord measures it exactly), at `fps`.
    static func track(speed: Double, fps: Double, seconds: Double = 3, hand: Hand = .right) throws -> PoseTrack {
        try makeTrack(fps: fps, count: Int(seconds * fps) + 1) { _, t in
            var sk = Skeleton()
            sk.hand = hand
            sk.heading = 0.4
            sk.wrist = Vec3(x: -0.5 + speed / 100 * t, y: 0.45, z: 0.1)
            return sk.sample(at: t)
        }
    }

    @Test("The peak speed is the wrist's speed, and the threshold decides, at any frame rate and either hand",
          arguments: [24.0, 30.0, 59.94, 120.0, 240.0])
    func thresholdDecides(fps: Double) throws {
        let p = BiomechParameters()
        for hand in [Hand.right, .left] {
            var q = p
            q.hand = hand
            for speed in [0.0, 60, 130, 139, 141, 200, 900] {
                let track = try Self.track(speed: speed, fps: fps, hand: hand)
                let result = BiomechAnalyzer.analyze(track: track, contacts: [ContactEvent(time: 1.5, confidence: 0.7)], parameters: q)
                let peak = try #require(result.shots.first?.peakWristSpeedCmS ?? result.rejected.first?.peakWristSpeedCmS)
                #expect(abs(peak - speed) < 1e-6, "\(hand) \(fps) fps: \(peak) for \(speed)")
                if speed < p.swingMinSpeedCmS {
                    #expect(result.shots.isEmpty && result.rejected.count == 1, "\(speed) cm/s at \(fps) fps was kept")
                    let r = try #require(result.rejected.first)
                    #expect(r.kind == .noSwing && r.time == 1.5 && r.confidence == 0.7 && r.origin == .heard)
                    #expect(r.reason.contains("\(Int(speed.rounded())) cm/s") && r.reason.contains("140 cm/s"), "\(r.reason)")
                    #expect(result.stats.shotCount == 0)
                } else {
                    #expect(result.shots.count == 1 && result.rejected.isEmpty, "\(speed) cm/s at \(fps) fps was rejected")
                }
            }
        }
    }

    @Test("A confirmed contact and a session with the check off keep the shot; its speed is still reported")
    func overrides() throws {
        let track = try Self.track(speed: 0, fps: 60)
        let confirmed = BiomechAnalyzer.analyze(track: track, contacts: [ContactEvent(time: 1, confidence: 1, origin: .added, confirmed: true)],
                                                parameters: BiomechParameters())
        let shot = try #require(confirmed.shots.first)
        #expect(shot.status == .ok && shot.origin == .added && shot.confirmed == true && shot.peakWristSpeedCmS == 0)
        #expect(confirmed.stats.shotCount == 1)
        var off = BiomechParameters()
        off.swingCheck = false
        #expect(BiomechAnalyzer.analyze(track: track, contacts: [ContactEvent(time: 1, confidence: 1)], parameters: off).shots.count == 1)
    }

    @Test("Too few frames to tell is not counted (unmeasured, one tap counts it); no person stays a no-person shot")
    func cannotTell() throws {
        // One posed frame: no chord can be taken.
        let one = try makeTrack(count: 1) { _, t in Skeleton().sample(at: t) }
        let r1 = BiomechAnalyzer.analyze(track: one, contacts: [ContactEvent(time: 0, confidence: 1)], parameters: BiomechParameters())
        #expect(r1.shots.isEmpty && r1.stats.shotCount == 0)
        let unknown = try #require(r1.rejected.first)
        #expect(unknown.kind == .unmeasured && unknown.peakWristSpeedCmS == nil && unknown.reason.contains("Count it"))
        // Counted by the player, it is a shot.
        let counted = BiomechAnalyzer.analyze(track: one, contacts: [ContactEvent(time: 0, confidence: 1, confirmed: true)],
                                              parameters: BiomechParameters())
        #expect(counted.shots.count == 1 && counted.rejected.isEmpty)
        // A contact outside the track.
        let still = try Self.track(speed: 0, fps: 30)
        let r2 = BiomechAnalyzer.analyze(track: still, contacts: [ContactEvent(time: 9, confidence: 1)], parameters: BiomechParameters())
        #expect(r2.shots.first?.status == .noPerson && r2.rejected.isEmpty)
    }

    @Test("A much quieter sound is the opponent's unless the player hits at its instant; loud ones keep today's rules")
    func quieterIsTheOpponent() throws {
        // Standing still (no swing) at 2.0 s; swinging through 2.6 s.
        let track = try makeTrack(fps: 60, count: 241) { _, t in
            var sk = Skeleton()
            sk.wrist = Vec3(x: t < 2.3 ? -0.4 : -0.4 + 5 * min(t - 2.3, 0.6), y: 0.45, z: 0.1)
            return sk.sample(at: t)
        }
        let p = BiomechParameters()
        let still = BiomechAnalyzer.analyze(track: track, contacts: [ContactEvent(time: 1.0, confidence: 0.8, loudnessDb: -15)], parameters: p)
        let r = try #require(still.rejected.first)
        #expect(r.kind == .opponent && r.reason.hasPrefix("Probably your opponent: 15 dB quieter") && r.reason.contains("not swinging"), "\(r.reason)")
        // Loud and still: today's no-swing rejection; quiet but swinging with a given delay: a shot.
        #expect(BiomechAnalyzer.analyze(track: track, contacts: [ContactEvent(time: 1.0, confidence: 0.8, loudnessDb: -3)], parameters: p)
            .rejected.first?.kind == .noSwing)
        #expect(BiomechAnalyzer.analyze(track: track, contacts: [ContactEvent(time: 2.6, confidence: 0.8, loudnessDb: -15)], parameters: p)
            .shots.count == 1)
        // Exactly at the gap counts as quieter; just inside it does not.
        var q = p
        q.opponentQuieterDb = 15
        #expect(BiomechAnalyzer.analyze(track: track, contacts: [ContactEvent(time: 1.0, confidence: 0.8, loudnessDb: -15)], parameters: q)
            .rejected.first?.kind == .opponent)
        #expect(BiomechAnalyzer.analyze(track: track, contacts: [ContactEvent(time: 1.0, confidence: 0.8, loudnessDb: -14.9)], parameters: q)
            .rejected.first?.kind == .noSwing)
    }

    @Test("Shots are numbered 1…n after the check; rejected contacts keep their times in order")
    func numbering() throws {
        // Still for 2 s, then a swing: contacts at 0.5 and 1.2 (still) and 2.6 (swinging), 3.4 (still again).
        let track = try makeTrack(fps: 60, count: 241) { _, t in
            var sk = Skeleton()
            let x = t < 2.2 ? -0.4 : (t < 3.0 ? -0.4 + 5 * (t - 2.2) : 3.6)
            sk.wrist = Vec3(x: x, y: 0.45, z: 0.1)
            return sk.sample(at: t)
        }
        let contacts = [3.4, 0.5, 2.6, 1.2].map { ContactEvent(time: $0, confidence: 0.9) }
        let r = BiomechAnalyzer.analyze(track: track, contacts: contacts, parameters: BiomechParameters())
        #expect(r.shots.map(\.index) == [1])
        #expect(r.shots.map(\.time) == [2.6])
        #expect(r.rejected.map(\.time) == [0.5, 1.2, 3.4])
    }

    @Test("Bad swing-check settings are refused with a sentence")
    func settings() {
        var p = BiomechParameters()
        p.swingMinSpeedCmS = -1
        #expect(p.problem?.contains("swing") == true)
        p = BiomechParameters()
        p.swingSpeedAveraging = 0.2
        #expect(p.problem?.contains("span") == true)
        p = BiomechParameters()
        p.swingWindow = .nan
        #expect(p.problem != nil)
    }
}
