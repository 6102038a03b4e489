import Foundation
import SwingBiomech
import SwingCore
import SwingTestSupport
import Testing

/// The measure the pose stage keeps the hitter by (``BiomechAnalyzer/swingEvidence(track:spans:parameters:)``):
/// a player's stroke around their own hit reads as a swing, the same player drifting between strokes as none,
/// on any frame rate, either hand, with noise, and on a slow-motion file's real clock.
@Suite struct SwingEvidenceTests {
    @Test(arguments: [(30.0, Hand.right), (60, .left), (120, .right), (240, .left)])
    func aStrokeReadsAsASwingAndDriftingDoesNot(fps: Double, hand: Hand) throws {
        for seed in UInt64(1)...3 {
            let session = try StrokeSession.make(strokes: 5, delayMs: 0, fps: fps, hand: hand, opponentHits: false,
                                                 noiseCm: 1, seed: seed)
            let p = BiomechParameters(hand: hand)
            for hit in session.hits {
                let v = try #require(BiomechAnalyzer.swingEvidence(track: session.track, spans: [(hit - 0.05)...hit], parameters: p))
                #expect(v >= p.soundDelayMinSwingCmS, "\(fps) fps, hit at \(hit): \(v) cm/s")
            }
            // Halfway between strokes the wrist only drifts.
            for (a, b) in zip(session.hits, session.hits.dropFirst()) {
                let mid = (a + b) / 2
                let v = try #require(BiomechAnalyzer.swingEvidence(track: session.track, spans: [mid...mid], parameters: p))
                #expect(v < p.swingMinSpeedCmS, "\(fps) fps, between strokes at \(mid): \(v) cm/s")
            }
            // The other hand's wrist does not swing.
            var other = p
            other.hand = hand == .right ? .left : .right
            let hit = session.hits[0]
            let v = try #require(BiomechAnalyzer.swingEvidence(track: session.track, spans: [hit...hit], parameters: other))
            #expect(v < p.swingMinSpeedCmS, "the other wrist: \(v) cm/s")
            // Outside the track there is no evidence at all.
            #expect(BiomechAnalyzer.swingEvidence(track: session.track, spans: [1000...1001], parameters: p) == nil)
            #expect(BiomechAnalyzer.swingEvidence(track: session.track, spans: [], parameters: p) == nil)
        }
    }

    /// A file that plays k times slower, read with its factor, gives the real-time evidence.
    @Test(arguments: [2.0, 4, 8])
    func slowMotionIsReadOnTheRealClock(factor: Double) throws {
        let real = try StrokeSession.make(strokes: 4, delayMs: 0, fps: 240, hand: .right, opponentHits: false, noiseCm: 0, seed: 7)
        let slow = try StrokeSession.make(strokes: 4, delayMs: 0, fps: 240, hand: .right, opponentHits: false, noiseCm: 0,
                                          timeScale: factor, seed: 7)
        var p = BiomechParameters(hand: .right)
        let expected = try #require(BiomechAnalyzer.swingEvidence(track: real.track, spans: [real.hits[1]...real.hits[1]], parameters: p))
        p.slowMotion = factor
        let read = try #require(BiomechAnalyzer.swingEvidence(track: slow.track, spans: [slow.hits[1]...slow.hits[1]], parameters: p))
        #expect(abs(read - expected) <= 0.02 * expected, "\(factor)×: \(read) against \(expected) cm/s")
    }
}
