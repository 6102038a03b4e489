import Foundation
import SwingCore
import SwingTestSupport
import Testing
@testable import SwingBiomech

/// What a session says about slow motion (``SlowMotionCheck``): the factor it was measured with, or a warning
/// when nothing said the file is slow motion but the wrist made strokes at no stroke's speed.
struct SlowMotionCheckTests {
    static func still(fps: Double, walking: Bool) throws -> PoseTrack {
        try PoseTrack(samples: (0..<Int(12 * fps)).map { i in
            let t = Double(i) / fps
            var sk = Skeleton()
            // Walking swings the arm ±15 cm at 1 Hz; standing, the landmarks only jitter.
            sk.wrist = walking ? Vec3(x: 0.15 * sin(2 * .pi * t), y: 0.4, z: 0.05 * cos(2 * .pi * t))
                               : Vec3(x: 0.3 + 0.004 * sin(37 * t), y: 0.45, z: 0.1)
            return sk.sample(at: t)
        })
    }

    @Test("Strokes played 4–8× slower than filmed get the warning; the same strokes in real time, or measured with their factor, do not",
          arguments: [4.0, 6.0, 8.0])
    func suspicion(k: Double) throws {
        for hand in [Hand.right, .left] {
            let p = BiomechParameters(hand: hand, soundDelayMs: 0)
            let real = try StrokeSession.make(strokes: 5, delayMs: 0, fps: 240, hand: hand, opponentHits: false, noiseCm: 0.3, seed: 5)
            let slow = try StrokeSession.make(strokes: 5, delayMs: 0, fps: 240, hand: hand, opponentHits: false, noiseCm: 0.3,
                                              timeScale: k, seed: 5)
            let slowed = BiomechAnalyzer.analyze(track: slow.track, contacts: slow.heard, parameters: p)
            let warned = SlowMotionCheck.suspicion(slowed, track: slow.track, parameters: p)
            let note = try #require(warned, "×\(k) \(hand): \(slowed.rejected.count) turned down, \(slowed.shots.count) shots")
            #expect(note.contains("--slow-motion") && ErrorSentence.isWellFormed(note), "\(note)")
            let realResult = BiomechAnalyzer.analyze(track: real.track, contacts: real.heard, parameters: p)
            #expect(SlowMotionCheck.suspicion(realResult, track: real.track, parameters: p) == nil, "×\(k) \(hand)")
            var known = p
            known.slowMotion = k
            let measured = BiomechAnalyzer.analyze(track: slow.track, contacts: slow.heard, parameters: known)
            #expect(SlowMotionCheck.suspicion(measured, track: slow.track, parameters: known) == nil)
        }
    }

    @Test("A player standing or walking at every contact is not taken for slow motion", arguments: [30.0, 60.0, 240.0])
    func notStrokes(fps: Double) throws {
        let p = BiomechParameters(soundDelayMs: 0)
        for walking in [false, true] {
            let track = try Self.still(fps: fps, walking: walking)
            let r = BiomechAnalyzer.analyze(track: track, contacts: [2.0, 5.0, 8.0].map { ContactEvent(time: $0, confidence: 0.9) },
                                            parameters: p)
            #expect(r.shots.isEmpty && r.rejected.count == 3)
            #expect(SlowMotionCheck.suspicion(r, track: track, parameters: p) == nil, "\(fps) fps walking \(walking)")
        }
    }

    @Test("The session says how it was measured: from the file's capture rate, or the factor given")
    func note() {
        #expect(SlowMotionCheck.note(factor: 1, captureRate: 240, playbackRate: 30) == nil)
        let fromFile = SlowMotionCheck.note(factor: 8, captureRate: 240, playbackRate: 30) ?? ""
        #expect(fromFile.contains("240 fps") && fromFile.contains("8×") && ErrorSentence.isWellFormed(fromFile), "\(fromFile)")
        let given = SlowMotionCheck.note(factor: 4, captureRate: nil, playbackRate: 30) ?? ""
        #expect(given.contains("--slow-motion 4") && ErrorSentence.isWellFormed(given), "\(given)")
    }
}
