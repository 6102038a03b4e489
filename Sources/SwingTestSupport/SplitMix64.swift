import Foundation

/// SplitMix64: a tiny seeded generator, identical on every platform and run — the one PRNG of the tests,
/// the synthetic audio and the benchmarks.
package struct SplitMix64: Sendable {
    private var state: UInt64
    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [lo, hi).
    package mutating func uniform(_ lo: Double = 0, _ hi: Double = 1) -> Double {
        lo + (hi - lo) * Double(next() >> 11) / Double(1 << 53)
    }

    /// Uniform in `range`.
    package mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// Standard normal (Box–Muller).
    package mutating func gaussian() -> Double {
        let u = max(uniform(0, 1), 1e-300), v = uniform(0, 1)
        return sqrt(-2 * log(u)) * cos(2 * Double.pi * v)
    }
}

/// The standard library's random API (`Double.random(in:using:)`, `shuffled(using:)`) over the same stream.
extension SplitMix64: RandomNumberGenerator {}
