import Foundation
import Testing
@testable import SwingAudio
import SwingTestSupport

/// The in-place moving average against the definition: the mean of the samples that exist within
/// ±width/2 of each index (windows shrink at the ends).
struct MovingAverageTests {
    /// The definition, each window's sum taken from running sums in Double (exact to ~1e-11 here, far inside
    /// the 1e-5 the tests allow). Summing every window sample by sample made the long-array cases the
    /// slowest test under AddressSanitizer (118 s of 44 million unoptimised additions).
    func naive(_ v: [Float], width: Int) -> [Float] {
        let h = width / 2
        var prefix = [Double](repeating: 0, count: v.count + 1)
        for i in v.indices { prefix[i + 1] = prefix[i] + Double(v[i]) }
        return v.indices.map { i in
            let lo = max(0, i - h), hi = min(v.count - 1, i + h)
            return Float(max(0, prefix[hi + 1] - prefix[lo]) / Double(hi - lo + 1))
        }
    }

    @Test(arguments: [(1, 1), (5, 3), (7, 7), (50, 9), (1000, 221), (3, 221)])
    func inPlaceMatchesTheDefinition(count: Int, width: Int) {
        var rng = SystemRandomNumberGenerator()
        let v = (0..<count).map { _ in Float.random(in: 0...1, using: &rng) }
        var inPlace = v
        Envelope.movingAverageInPlace(&inPlace, width: width)
        let expected = naive(v, width: width)
        #expect(inPlace.count == v.count)
        for (a, b) in zip(inPlace, expected) { #expect(abs(a - b) <= 1e-5 * max(1, abs(b))) }
    }

    @Test("Long arrays (split between threads, with halos) match the definition, ends and the seam included",
          arguments: [(65_536, 221), (100_001, 441), (70_000, 1), (131_073, 2)])
    func piecesMatchTheDefinition(count: Int, width: Int) {
        var rng = SplitMix64(seed: UInt64(count))
        let v = (0..<count).map { _ in Float(rng.uniform(0, 1)) }
        var inPlace = v
        Envelope.movingAverageInPlace(&inPlace, width: width)
        let expected = naive(v, width: width)
        let worst = zip(inPlace, expected).map { abs($0 - $1) / max(1, abs($1)) }.max() ?? 1
        #expect(inPlace.count == v.count)
        #expect(worst <= 1e-5, "worst relative error \(worst)")
    }
}
