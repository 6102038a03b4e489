import Foundation
import SwingCore
import SwingTestSupport
import Testing
@testable import SwingBiomech

/// The sound delay measured from the body (issue #38, docs/analysis.md "The instant of contact"), on
/// generated sessions whose delay is known: strokes whose wrist is fastest at the ball, heard `delay` ms
/// later (± a few ms of jitter), between them the opponent's hits heard while the player stands, walks or
/// split-steps, at every frame rate a phone films and with either hand.
struct SoundDelayTests {
    typealias Session = StrokeSession

    static func session(strokes: Int, delayMs: Double, fps: Double, hand: Hand, opponentHits: Bool, noiseCm: Double,
                        parameters p: BiomechParameters, seed: UInt64) throws -> Session {
        try StrokeSession.make(strokes: strokes, delayMs: delayMs, fps: fps, hand: hand, opponentHits: opponentHits,
                               noiseCm: noiseCm, impactAfterReachMs: p.impactAfterReachMs, seed: seed)
    }

    static var measuring: BiomechParameters {
        var p = BiomechParameters()
        p.soundDelayMs = nil
        return p
    }

    /// Without noise the parabola's vertex is within a millisecond of the Gaussian's peak at every rate. With
    /// 0.5 cm of noise on every landmark (0.6 cm on the wrist from the pelvis) the reach, which falls only
    /// 0.6–1.3 cm 20 ms from its peak, can move one shot's vertex by ±10–20 ms; the median of eight shots,
    /// each heard with ±4 ms of jitter, moves by the standard error of that spread, ±15 ms / √8 ≈ 5 ms, so
    /// twice that, 10 ms, or a third of a frame at slow rates, bounds it.
    static func tolerance(fps: Double) -> Double { max(10, 333 / fps) }

    @Test("The measured delay is the true one at every frame rate, for either hand, opponents' hits heard too",
          arguments: [24.0, 25.0, 29.97, 30.0, 59.94, 120.0, 240.0])
    func measuresTheTrueDelay(fps: Double) throws {
        for (k, delay) in [0.0, 42, 98, 136, 220].enumerated() {
            for hand in [Hand.right, .left] {
                var p = Self.measuring
                p.hand = hand
                let s = try Self.session(strokes: 8, delayMs: delay, fps: fps, hand: hand, opponentHits: true, noiseCm: 0.5,
                                         parameters: p, seed: UInt64(k) * 31 + UInt64(fps))
                let result = BiomechAnalyzer.analyze(track: s.track, contacts: s.heard, parameters: p)
                let d = result.soundDelay
                #expect(d.source == .measured, "\(fps) fps, \(delay) ms: \(d.summary)")
                #expect(abs(d.ms - delay) <= Self.tolerance(fps: fps), "\(fps) fps \(hand): measured \(d.ms) ms for \(delay) ms")
                // Every stroke but at most one gives evidence (one may peak a frame outside the searched range).
                #expect(d.shotsAsked == s.heard.count && (d.shotsUsed ?? 0) >= 7, "\(fps) fps \(delay) ms \(hand): \(d)")
                // Every one of the player's shots is measured at its instant, within the same tolerance.
                let shots = result.shots.filter { shot in s.hits.contains { abs($0 - shot.contactTime) < 0.1 } }
                #expect(shots.count == s.hits.count)
                for shot in shots {
                    let truth = try #require(s.hits.min { abs($0 - shot.contactTime) < abs($1 - shot.contactTime) })
                    #expect(abs(shot.contactTime - truth) * 1000 <= Self.tolerance(fps: fps) + 4, "\(fps) fps \(delay) ms")
                }
            }
        }
    }

    @Test("A given delay is used as given; a session with no swing falls back to the heard time and says why")
    func givenAndNone() throws {
        let p = Self.measuring
        let s = try Self.session(strokes: 4, delayMs: 120, fps: 60, hand: .right, opponentHits: false, noiseCm: 0.5,
                                 parameters: p, seed: 7)
        var given = p
        given.soundDelayMs = 50
        let r = BiomechAnalyzer.analyze(track: s.track, contacts: s.heard, parameters: given)
        #expect(r.soundDelay == .given(50))
        for (shot, heard) in zip(r.shots, s.heard) { #expect(abs(shot.contactTime - (heard.time - 0.05)) < 1e-12) }

        // An edited session keeps the delay it was measured with, and where it came from.
        let kept = SoundDelay(ms: 118, source: .measured, spreadMs: 9, shotsUsed: 4, shotsAsked: 4)
        let edited = BiomechAnalyzer.analyze(track: s.track, contacts: s.heard, parameters: given, soundDelay: kept)
        #expect(edited.soundDelay == kept)
        for (shot, heard) in zip(edited.shots, s.heard) { #expect(abs(shot.contactTime - (heard.time - 0.118)) < 1e-12) }

        // Nobody swings: the wrist drifts at walking pace only.
        let still = try makeTrack(fps: 30, count: 300) { _, t in
            var sk = Skeleton()
            sk.wrist = Vec3(x: -0.4 + 0.3 * sin(0.8 * t), y: 0.45, z: 0.1)
            return sk.sample(at: t)
        }
        let none = BiomechAnalyzer.analyze(track: still, contacts: [2.0, 5.0].map { ContactEvent(time: $0, confidence: 0.9) },
                                           parameters: p)
        #expect(none.soundDelay.source == .none && none.soundDelay.ms == 0)
        #expect(none.soundDelay.summary.contains("no swing"), "\(none.soundDelay.summary)")
        #expect(none.rejected.count == 2)
        for r in none.rejected { #expect(r.time == 2.0 || r.time == 5.0) }
    }

    @Test("Outliers do not move it: a third of the heard contacts come at random offsets from a swing")
    func robustToOutliers() throws {
        var p = Self.measuring
        p.swingCheck = false
        var s = try Self.session(strokes: 12, delayMs: 136, fps: 30, hand: .right, opponentHits: false, noiseCm: 0.8,
                                 parameters: p, seed: 99)
        var rng = SplitMix64(seed: 5)
        // Four contacts heard 40–90 ms off the true delay either way (a grunt, a bounce, the wrong person).
        for i in [1, 4, 7, 10] { s.heard[i].time += (rng.int(0...1) == 0 ? -1 : 1) * rng.uniform(0.04, 0.09) }
        let d = BiomechAnalyzer.analyze(track: s.track, contacts: s.heard, parameters: p).soundDelay
        #expect(d.source == .measured && abs(d.ms - 136) <= Self.tolerance(fps: 30), "\(d)")
        #expect((d.spreadMs ?? 0) < 40, "\(d)")
    }

    @Test("A peak beyond the delay range is no evidence: no delay is made up from a swing 0.5 s before the sound")
    func bounded() throws {
        let p = Self.measuring
        let s = try Self.session(strokes: 5, delayMs: 500, fps: 60, hand: .right, opponentHits: false, noiseCm: 0.5,
                                 parameters: p, seed: 3)
        let d = BiomechAnalyzer.analyze(track: s.track, contacts: s.heard, parameters: p).soundDelay
        #expect(d.source == .none && d.ms == 0, "\(d)")
    }
    @Test("One shot measures nothing (nothing could check it); two measure only when they agree", arguments: [30.0, 60.0])
    func oneShotIsNoMeasurement(fps: Double) throws {
        let p = Self.measuring
        for delay in [42.0, 136] {
            let s = try Self.session(strokes: 2, delayMs: delay, fps: fps, hand: .right, opponentHits: false, noiseCm: 0.5,
                                     parameters: p, seed: UInt64(delay))
            // One heard hit: the heard time, and the sentence says why.
            let one = BiomechAnalyzer.analyze(track: s.track, contacts: [s.heard[0]], parameters: p)
            #expect(one.soundDelay.source == .none && one.soundDelay.ms == 0, "\(one.soundDelay)")
            #expect(one.soundDelay.summary.contains("only 1 of 1 hit sound had a swing just before it; 2 are needed"),
                    "\(one.soundDelay.summary)")
            #expect(one.soundDelay.shotsUsed == 1 && one.soundDelay.shotsAsked == 1)
            #expect(one.shots.first.map { abs($0.contactTime - s.heard[0].time) < 1e-12 } == true)
            // Both: they agree, so the delay is measured on two.
            let two = BiomechAnalyzer.analyze(track: s.track, contacts: s.heard, parameters: p)
            #expect(two.soundDelay.source == .measured && two.soundDelay.shotsUsed == 2, "\(two.soundDelay)")
            #expect(abs(two.soundDelay.ms - delay) <= Self.tolerance(fps: fps), "\(two.soundDelay)")
            // The second heard 80 ms later than it was: they disagree by more than the outlier limit.
            var apart = s.heard
            apart[1].time += 0.08
            let split = BiomechAnalyzer.analyze(track: s.track, contacts: apart, parameters: p).soundDelay
            #expect(split.source == .none && split.summary.contains("disagree by"), "\(split.summary)")
        }
    }
}
