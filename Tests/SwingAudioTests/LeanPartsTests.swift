import Foundation
import Testing
@testable import SwingAudio
import SwingTestSupport

/// The parts that make `SoundEvents.extract` lean, each against its plain definition.
struct LeanPartsTests {
    @Test("Window sums of squares equal the sample-by-sample sums to 1e-13; peaks exactly")
    func windowSums() {
        var rng = SplitMix64(seed: 17)
        for n in [5, 31, 32, 600, 5_000, 70_000] {
            let y = (0..<n).map { _ in Float(rng.gaussian() * (rng.uniform() < 0.01 ? 100 : 1)) }
            var sums = WindowSums()
            y.withUnsafeBufferPointer { p in
                sums.load(p, peaks: true)
                for _ in 0..<300 {
                    let a = rng.int(0...n), b = rng.int(a...n)
                    var direct = 0.0, top: Float = 0
                    for j in a..<b { direct += Double(y[j]) * Double(y[j]); top = max(top, abs(y[j])) }
                    let s = sums.sumOfSquares(p, a, b)
                    #expect(abs(s - direct) <= 1e-13 * direct, "n \(n), \(a)..<\(b): \(s) vs \(direct)")
                    #expect(sums.peak(p, a, b) == top, "n \(n), \(a)..<\(b)")
                }
            }
        }
    }

    @Test("Local maxima: the samples above the level that are the largest within ±radius, ties and ends included")
    func localMaxima() {
        var rng = SplitMix64(seed: 23)
        for n in [1, 2, 7, 300, 70_000, 140_001] {
            // Coarse values: many equal neighbours and plateaus.
            let v = (0..<n).map { _ in Float(rng.int(0...6)) / 4 }
            for radius in [0, 1, 3, 40, 661] {
                let brute = (0..<n).filter { i in
                    v[i] > 1.3 && (max(0, i - radius)...min(n - 1, i + radius)).allSatisfy { v[$0] <= v[i] }
                }
                let fast = v.withUnsafeBufferPointer { SoundEvents.localMaxima($0, radius: radius, above: 1.3) }
                #expect(fast == brute, "n \(n), radius \(radius)")
            }
        }
    }

    @Test("Band-pass kernels give the general kernel's output bit for bit; filtering into a reused buffer is apply's",
          arguments: [8_000.0, 44_100, 96_000])
    func bandPassKernels(rate: Double) {
        var rng = SplitMix64(seed: 29)
        let n = 3 * LaneFilter.warmUp * 16
        let x = (0..<n).map { _ in Float(rng.gaussian() * (rng.uniform() < 0.01 ? 30 : 1)) }
        var buffer: [Float] = []
        for (low, high, order) in [(125.0, 250.0, 4), (1000, 4000, 4), (300, 0.45 * rate, 2), (2000, 3000, 8)] {
            let sections = Butterworth.bandPass(order: order, lowHz: low, highHz: min(high, 0.45 * rate), sampleRate: rate)
            let lanes = LaneFilter(group: sections[0..<min(4, sections.count)])
            let initial = sections.prefix(4).map { ($0.stepState.0 * Double(x[0]), $0.stepState.1 * Double(x[0])) }
            var a = x, b = x
            for reverse in [false, true] {
                a.withUnsafeMutableBufferPointer { p in
                    if let base = p.baseAddress { lanes.run(base, count: n, reverse: reverse, initial: initial) { _ in } }
                }
                b.withUnsafeMutableBufferPointer { p in
                    if let base = p.baseAddress { lanes.run(base, count: n, reverse: reverse, initial: initial, general: true) { _ in } }
                }
            }
            #expect(a == b, "\(low)–\(high) Hz, order \(order) at \(rate) Hz")
            let filter = ZeroPhaseFilter(sections: sections)
            let r = x.withUnsafeBufferPointer { filter.apply($0, into: &buffer) }
            #expect(Array(buffer[r]) == filter.apply(x), "\(low)–\(high) Hz, order \(order) at \(rate) Hz, into a buffer")
        }
    }
}
