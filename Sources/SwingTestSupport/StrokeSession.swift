import Foundation
import SwingBiomech
import SwingCore

/// A generated session of strokes with a known sound delay (issue #38): the track, the contacts as heard,
/// and the truth. Used by the sound-delay tests (SwingBiomechTests) and the pose passes' (SwingPipelineTests).
package struct StrokeSession: Sendable {
    /// The player's pose track.
    package var track: PoseTrack
    /// The contacts as heard (time order): the player's hits `delayMs` after the picture, and between them
    /// the opponent's when asked for.
    package var heard: [ContactEvent]
    /// Ball-on-strings instants of the player's own hits (video clock).
    package var hits: [Double]

    /// `strokes` strokes 2.4 s apart, every third a serve. A groundstroke's wrist comes forward and wraps
    /// back across the body along a Gaussian of 0.12 s (furthest forward exactly at the instant of contact,
    /// plus `impactAfterReachMs`; peak speed 400–650 cm/s, as the labelled real strokes' 370–584); a serve's
    /// rises the same way, 0.7–0.9 m. Between strokes the player drifts at walking pace and the opponent's
    /// hits are heard. Landmarks carry `noiseCm` of Gaussian noise. `timeScale` stretches the clock (a
    /// slow-motion file that plays `timeScale` times slower).
    package static func make(strokes: Int, delayMs: Double, fps: Double, hand: Hand, opponentHits: Bool, noiseCm: Double,
                            impactAfterReachMs: Double = 0, timeScale: Double = 1, seed: UInt64) throws -> StrokeSession {
        var rng = SplitMix64(seed: seed)
        let spacing = 2.4, first = 1.5, sigma = 0.12
        let hits = (0..<strokes).map { first + Double($0) * spacing + rng.uniform(-0.2, 0.2) }
        let reaches = hits.map { $0 - impactAfterReachMs / 1000 }
        let sizes = hits.map { _ in rng.uniform(0.8, 1.3) }
        let duration = first + Double(strokes) * spacing + 1
        let count = Int(duration * fps)
        var samples: [PoseSample] = []
        for i in 0..<count {
            let t = Double(i) / fps
            var sk = Skeleton()
            sk.hand = hand
            sk.heading = 0.3 + 0.1 * sin(t)
            var x = -0.3 + 0.2 * sin(0.8 * t), z = 0.1
            for (k, (reach, size)) in zip(reaches, sizes).enumerated() {
                let bump = exp(-0.5 * pow((t - reach) / sigma, 2))
                if k % 3 == 2 { z += (0.4 + 0.4 * size) * bump } else { x += size * bump }
            }
            sk.wrist = Vec3(x: x, y: 0.45, z: z)
            var world = sk.world
            for k in world.indices {
                world[k] = world[k] + Vec3(x: rng.gaussian(), y: rng.gaussian(), z: rng.gaussian()) * (noiseCm / 100)
            }
            samples.append(PoseSample(time: t * timeScale, world: world))
        }
        var heard = hits.map { ContactEvent(time: $0 + delayMs / 1000 + rng.uniform(-0.004, 0.004), confidence: 0.8) }
        if opponentHits {
            // The opponent's hit lands midway between the player's, with no swing of the player's wrist.
            heard += hits.dropLast().map { ContactEvent(time: $0 + spacing / 2 + rng.uniform(-0.3, 0.3), confidence: 0.6) }
        }
        for k in heard.indices { heard[k].time *= timeScale }
        return StrokeSession(track: try PoseTrack(samples: samples), heard: heard.sorted { $0.time < $1.time },
                             hits: hits.map { $0 * timeScale })
    }
}
