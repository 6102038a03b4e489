import Foundation
import Testing
@testable import SwingAudio
import SwingTestSupport

/// `SoundEvents.extract` filters one band at a time into one buffer and reads a few ratios from padded
/// segments of the recording; these hold it to the whole-recording definition (`WholeRecordingEvents`) on
/// a class of recordings: sample rates 8–48 kHz, several lengths (below and above the lane-parallel
/// filter's threshold), sounds right at the start and the end, clicks whose energy is only above 4 kHz
/// (the 2–8 kHz envelope's own peaks, whose 1–4 kHz ratio comes from a segment).
struct SoundEventWindowTests {
    /// Background noise with slow swells, clicks (decaying noise bursts), hiss bursts above 4 kHz and low
    /// thuds at random times, plus a click and a hiss within 200 ms of each end.
    static func recording(seconds: Double, rate fs: Double, seed: UInt64) -> [Float] {
        var rng = SplitMix64(seed: seed)
        let n = Int(seconds * fs)
        var x = (0..<n).map { i in Float(rng.gaussian() * 0.002 * (1.5 + sin(Double(i) / fs * 1.7))) }
        func burst(at t: Double, ms: Double, amplitude: Double, hiss: Bool) {
            let start = Int(t * fs), len = Int(ms / 1000 * fs)
            var last = 0.0
            for j in 0..<len where start + j >= 0 && start + j < n {
                let v = rng.gaussian(), s = hiss ? v - last : v
                last = v
                x[start + j] += Float(amplitude * s * exp(-5 * Double(j) / Double(len)))
            }
        }
        func thud(at t: Double) {
            let start = Int(t * fs)
            for j in 0..<Int(0.08 * fs) where start + j < n {
                x[start + j] += Float(0.3 * sin(2 * .pi * 150 * Double(j) / fs) * exp(-Double(j) / (0.02 * fs)))
            }
        }
        for _ in 0..<Int(seconds * 6) {
            let t = rng.uniform(0, seconds), kind = rng.int(0...3)
            if kind == 3 { thud(at: t) } else {
                burst(at: t, ms: rng.uniform(3, 30), amplitude: rng.uniform(0.02, 0.8), hiss: kind == 2)
            }
        }
        for t in [0.01, 0.155, 0.19, seconds - 0.19, seconds - 0.105, seconds - 0.02] {
            burst(at: t, ms: 8, amplitude: 0.5, hiss: false)
            burst(at: t + 0.004, ms: 5, amplitude: 0.3, hiss: true)
        }
        return x
    }

    @Test("Same events, same features (to Float rounding) as the whole-recording definition",
          arguments: [8_000.0, 16_000, 22_050, 32_000, 44_100, 48_000])
    func leanEqualsWhole(rate: Double) throws {
        var worst: Float = 0, identical = 0, total = 0, events = 0
        for (seconds, seed) in [(0.5, UInt64(1)), (1.3, 2), (4.1, 3), (9.0, 4)] {
            let x = Self.recording(seconds: seconds, rate: rate, seed: seed + UInt64(rate))
            let lean = try SoundEvents.extract(samples: x, sampleRate: rate)
            let whole = WholeRecordingEvents.extract(samples: x, sampleRate: rate)
            #expect(lean.map(\.time) == whole.map(\.time), "\(rate) Hz, \(seconds) s: \(lean.count) events against \(whole.count)")
            for (a, b) in zip(lean, whole) {
                for (u, v) in zip(a.features, b.features) {
                    worst = max(worst, abs(u - v)); total += 1
                    if u == v { identical += 1 }
                }
            }
            events += whole.count
        }
        print("lean vs whole at \(Int(rate)) Hz: \(events) events, \(identical) of \(total) features bit-identical, largest difference \(worst)")
        #expect(events > 20)
        #expect(worst < 1e-4, "a feature moved by \(worst)")
    }

    /// The 1–4 kHz and 2–8 kHz ratios from padded segments of the recording (how `extract` reads the
    /// 1–4 kHz ratio at the 2–8 kHz band's own peaks); the broadband ratio from the broadband signal kept
    /// whole (how it reads that one). A segment is filtered in Double, the whole recording in Float lanes:
    /// they differ by the lanes' rounding, a few parts in a million.
    @Test("A band's ratio from a padded segment equals the whole recording's, at the ends too",
          arguments: [8_000.0, 16_000, 22_050, 44_100, 48_000])
    func segmentRatiosEqualWhole(rate: Double) {
        for (seconds, seed) in [(0.4, UInt64(5)), (2.0, 6), (6.0, 7)] {
            let x = Self.recording(seconds: seconds, rate: rate, seed: seed)
            let n = x.count
            var rng = SplitMix64(seed: seed)
            let indices = Set([0, 1, 2, n / 2, n - 3, n - 2, n - 1] + (0..<60).map { _ in rng.int(0...(n - 1)) }
                              + (0..<20).map { _ in rng.int(0...min(n - 1, 400)) }
                              + (0..<20).map { _ in rng.int(max(0, n - 400)...(n - 1)) }).sorted()
            for (b, envelope) in SoundEvents.envelopes(rate).enumerated() {
                var buffer: [Float] = []
                let r = x.withUnsafeBufferPointer { envelope.bandPass($0, into: &buffer) }
                let band = Array(buffer[r])
                let floor = buffer.withUnsafeMutableBufferPointer { envelope.ratiosInPlace(UnsafeMutableBufferPointer(rebasing: $0[r])) }
                let whole = Array(buffer[r])
                let local: [Float] = b < 2
                    ? x.withUnsafeBufferPointer { envelope.ratios(at: indices, samples: $0, floor: floor) }
                    : band.withUnsafeBufferPointer { y in indices.map { envelope.ratio(at: $0, band: y, start: 0, n: n, floor: floor) } }
                let tolerance: Float = b < 2 ? 2e-5 : 1e-6
                for (i, v) in zip(indices, local) {
                    let w = whole[i]
                    #expect(abs(v - w) <= tolerance * max(abs(w), 1e-3), "\(rate) Hz, \(seconds) s, envelope \(b), sample \(i) of \(n): \(v) locally, \(w) whole")
                }
            }
        }
    }
}
