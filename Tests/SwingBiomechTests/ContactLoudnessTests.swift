import Foundation
import SwingTestSupport
import Testing
@testable import SwingBiomech

/// Each contact's loudness against the session's loudest hits (docs/analysis.md, "Swing check": who hit).
struct ContactLoudnessTests {
    @Test("Gain does not matter: scaling every amplitude leaves every relative level; the loud cluster sits near 0 dB")
    func gainInvariantAndAnchoredOnTheLoudHits() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<200 {
            let player = (0..<rng.int(3...40)).map { _ in pow(10, rng.uniform(-10, 0) / 20) }
            let others = (0..<rng.int(0...40)).map { _ in pow(10, rng.uniform(-24, -15) / 20) }
            let all = player + others
            let db = ContactLoudness.relativeDb(all)
            let gain = pow(10, rng.uniform(-40, 20) / 20)
            let scaled = ContactLoudness.relativeDb(all.map { $0 * gain })
            for (a, b) in zip(db, scaled) { #expect(abs((a ?? .nan) - (b ?? .nan)) < 1e-9) }
            // Whenever the player's hits are at least a tenth of the sounds the reference is one of them: every
            // other sound is then below it, and nothing lies further above it than the player's 10-dB spread.
            if player.count * 10 >= all.count {
                let others = db.suffix(others.count).compactMap { $0 }
                #expect(others.allSatisfy { $0 <= 0 })
                #expect(db.compactMap { $0 }.max() ?? 0 < 10.01)
            }
        }
    }

    @Test("Silence, NaN and empty input give no level, never a crash")
    func degenerate() {
        #expect(ContactLoudness.relativeDb([]).isEmpty)
        #expect(ContactLoudness.relativeDb([0, 0]).allSatisfy { $0 == nil })
        let mixed = ContactLoudness.relativeDb([.nan, 0.5, -1, .infinity, 0.25])
        #expect(mixed[0] == nil && mixed[2] == nil && mixed[3] == nil)
        #expect(mixed[1] == 0 && abs((mixed[4] ?? 0) + 6.0206) < 1e-3)
    }
}
