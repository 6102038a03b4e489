import Foundation
import SwingCore
import SwingTestSupport
import Testing
@testable import SwingBiomech

/// Slow-motion sessions on the real clock (``BiomechParameters/slowMotion``, issue #38): the same swings
/// filmed at 240 fps, played back 2–8× slower, measure as the real-time ones once the factor is known.
struct SlowMotionTests {
    static func pair(k: Double, hand: Hand, delayMs: Double) throws -> (real: StrokeSession, slow: StrokeSession) {
        let seed: UInt64 = hand == .right ? 21 : 22
        return (try StrokeSession.make(strokes: 6, delayMs: delayMs, fps: 240, hand: hand, opponentHits: true, noiseCm: 0.3, seed: seed),
                try StrokeSession.make(strokes: 6, delayMs: delayMs, fps: 240, hand: hand, opponentHits: true, noiseCm: 0.3,
                                       timeScale: k, seed: seed))
    }

    @Test("With its factor a slow-motion session reads the real-time speeds, shots and verdicts; times stay the video's",
          arguments: [1.5, 2.0, 4.0, 8.0, 16.0])
    func realClock(k: Double) throws {
        for hand in [Hand.right, .left] {
            let (real, slow) = try Self.pair(k: k, hand: hand, delayMs: 0)
            let p = BiomechParameters(hand: hand, soundDelayMs: 0)
            var withFactor = p
            withFactor.slowMotion = k
            let a = BiomechAnalyzer.analyze(track: real.track, contacts: real.heard, parameters: p)
            let b = BiomechAnalyzer.analyze(track: slow.track, contacts: slow.heard, parameters: withFactor)
            #expect(a.shots.count == b.shots.count && a.rejected.map(\.kind) == b.rejected.map(\.kind), "×\(k) \(hand)")
            #expect(a.shots.count >= 6)
            for (x, y) in zip(a.shots, b.shots) {
                #expect(abs(y.contactTime - x.contactTime * k) < 1e-6 && y.stroke == x.stroke && y.status == x.status)
                #expect(abs((y.wristSpeedCmS ?? -1) - (x.wristSpeedCmS ?? -1)) < 1e-6 * max(1, x.wristSpeedCmS ?? 1))
                #expect(abs((y.peakWristSpeedCmS ?? -1) - (x.peakWristSpeedCmS ?? -1)) < 1e-6 * max(1, x.peakWristSpeedCmS ?? 1))
                #expect(abs((y.contact?.forwardCm ?? 0) - (x.contact?.forwardCm ?? 0)) < 1e-6)
                if let ax = x.arc, let ay = y.arc {
                    #expect(ax.body.count == ay.body.count)
                    for (u, v) in zip(ax.body, ay.body) { #expect(abs(v.time - u.time * k) < 1e-6) }
                }
            }
            for (x, y) in zip(a.rejected, b.rejected) { #expect(abs(y.time - x.time * k) < 1e-6) }

            // Without the factor the same swings read k times slower: the swing check turns real strokes down.
            let unaware = BiomechAnalyzer.analyze(track: slow.track, contacts: slow.heard, parameters: p)
            let fastest = (unaware.shots.compactMap(\.peakWristSpeedCmS) + unaware.rejected.compactMap(\.peakWristSpeedCmS)).max() ?? 0
            let realFastest = a.shots.compactMap(\.peakWristSpeedCmS).max() ?? 0
            #expect(fastest < realFastest / k * 1.2, "×\(k): \(fastest) vs \(realFastest)")
            if k >= 4 { #expect(unaware.shots.count < a.shots.count, "×\(k) \(hand)") }
        }
    }

    @Test("The sound delay is measured on the real clock and reported on the video's", arguments: [2.0, 4.0, 8.0])
    func delay(k: Double) throws {
        let (_, slow) = try Self.pair(k: k, hand: .right, delayMs: 136)
        var p = BiomechParameters(soundDelayMs: nil)
        p.slowMotion = k
        let d = BiomechAnalyzer.analyze(track: slow.track, contacts: slow.heard, parameters: p).soundDelay
        #expect(d.source == .measured && abs(d.ms - 136 * k) <= 10 * k, "×\(k): \(d)")
        #expect(abs(BiomechAnalyzer.measureSoundDelay(track: slow.track, contacts: slow.heard, parameters: p).ms - d.ms) < 1e-9)
    }

    @Test("A factor outside 1…64 is refused with one sentence")
    func bounds() {
        for bad in [0.5, 0, -2, 65, .nan, .infinity] {
            var p = BiomechParameters()
            p.slowMotion = bad
            #expect(p.problem?.contains("slow-motion factor") == true, "\(bad)")
        }
        var ok = BiomechParameters()
        ok.slowMotion = 64
        #expect(ok.problem == nil)
    }
}
