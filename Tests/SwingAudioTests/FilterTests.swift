import Foundation
import Testing
@testable import SwingAudio
import SwingTestSupport

/// The band-pass against the analytic Butterworth response and the zero-phase pass against its
/// defining properties (scipy agreement is in AgreementTests).
struct FilterTests {
    let fs = 44_100.0

    /// |H|² of the analog Butterworth band-pass at the pre-warped frequency: the bilinear design must
    /// reproduce it exactly (to rounding), so the tolerance is a few ulps of the cascade, 1e-9.
    func analytic(_ f: Double, order: Int, low: Double, high: Double) -> Double {
        func warp(_ x: Double) -> Double { 2 * fs * tan(Double.pi * x / fs) }
        let w = warp(f), w1 = warp(low), w2 = warp(high)
        let x = (w * w - w1 * w2) / (w * (w2 - w1))
        return 1 / sqrt(1 + pow(x * x, Double(order)))
    }

    @Test("−3 dB at both corners, unity at the centre, analytic everywhere", arguments: [2, 4, 6])
    func butterworthMatchesAnalyticResponse(order: Int) {
        let sos = Butterworth.bandPass(order: order, lowHz: 1000, highHz: 4000, sampleRate: fs)
        #expect(sos.count == order)
        for corner in [1000.0, 4000.0] {
            let g = Butterworth.magnitudeResponse(sos, hz: corner, sampleRate: fs)
            #expect(abs(g - 1 / 2.0.squareRoot()) < 1e-9, "corner \(corner) Hz: \(g)")
        }
        for f in [100.0, 400.0, 800.0, 1500.0, 2000.0, 3000.0, 5000.0, 8000.0, 15000.0] {
            let g = Butterworth.magnitudeResponse(sos, hz: f, sampleRate: fs)
            let want = analytic(f, order: order, low: 1000, high: 4000)
            #expect(abs(g - want) <= 1e-9 + 1e-7 * want, "\(f) Hz: \(g) vs \(want)")
        }
    }

    /// The analog low-pass |H| = 1 / √(1 + (ω/ωc)^2N) at pre-warped frequencies, and scipy's sections
    /// (`butter(8, 5500, fs=44100, output="sos")`, denominators printed by scipy 1.x) to rounding.
    @Test("Low-pass: −3 dB at the corner, analytic everywhere, scipy's sections", arguments: [2, 4, 8, 16])
    func lowPassMatchesAnalyticResponse(order: Int) {
        let sos = Butterworth.lowPass(order: order, cutoffHz: 5500, sampleRate: fs)
        #expect(sos.count == order / 2)
        func warp(_ x: Double) -> Double { tan(Double.pi * x / fs) }
        for f in [10.0, 1000.0, 4000.0, 5500.0, 6500.0, 8000.0, 15000.0] {
            let want = 1 / sqrt(1 + pow(warp(f) / warp(5500), Double(2 * order)))
            let g = Butterworth.magnitudeResponse(sos, hz: f, sampleRate: fs)
            #expect(abs(g - want) <= 1e-9 + 1e-7 * want, "\(f) Hz: \(g) vs \(want)")
        }
        if order == 8 {
            let scipy: [(Double, Double)] = [(-0.837170481, 0.181834937), (-0.892771492, 0.260326975),
                                             (-1.01765815, 0.436629674), (-1.24525379, 0.757926815)]
            let ours = sos.map { ($0.a1, $0.a2) }.sorted { $0.1 < $1.1 }
            for (o, s) in zip(ours, scipy) {
                #expect(abs(o.0 - s.0) < 1e-8 && abs(o.1 - s.1) < 1e-8, "\(o) vs \(s)")
            }
        }
    }

    /// Analytic: far below the band |H| ≈ (f·BW / (f_lo·f_hi))^N, i.e. ≈ 22^−4 ≈ 4e−6 at 60 Hz and ≈ 6.7^−4 ≈ 5e−4 at 200 Hz.
    @Test("Order 4: bounce (200 Hz) energy ≥ 60 dB down, wind (60 Hz) ≥ 100 dB down")
    func stopBandAttenuation() {
        let sos = Butterworth.bandPass(order: 4, lowHz: 1000, highHz: 4000, sampleRate: fs)
        #expect(Butterworth.magnitudeResponse(sos, hz: 200, sampleRate: fs) < 1e-3)
        #expect(Butterworth.magnitudeResponse(sos, hz: 60, sampleRate: fs) < 1e-5)
    }

    @Test("Forward–backward is zero-phase with |H|² gain and leaves no edge transient on a constant")
    func zeroPhase() {
        let f = ZeroPhaseFilter(sections: Butterworth.bandPass(order: 4, lowHz: 1000, highHz: 4000, sampleRate: fs))
        // A 1 kHz cosine (at the corner: |H|² = 0.5) keeps its phase: peaks stay where they were.
        let n = 44_100
        let x = (0..<n).map { Float(cos(2 * Double.pi * 1000 * Double($0) / fs)) }
        let y = f.apply(x)
        let mid = n / 2  // away from the ends
        for i in stride(from: mid, to: mid + 441, by: 1) {
            #expect(abs(Double(y[i]) - 0.5 * Double(x[i])) < 2e-3, "sample \(i)")
        }
        // A constant (DC) is removed everywhere including the ends, thanks to the lfilter_zi-style start.
        let dc = f.apply([Float](repeating: 0.5, count: 5000))
        #expect(dc.map { abs($0) }.max() ?? 1 < 1e-5)
    }

    @Test("Long signals (lane-parallel path, and split between threads) equal the sequential pass to Float rounding",
          arguments: [20, 40, 97])
    func lanePathMatchesSequential(warmUps: Int) {
        // 20 warm-ups: one thread, four lanes; 40 and 97: two pieces on two threads (odd length too).
        let sos = Butterworth.bandPass(order: 4, lowHz: 1000, highHz: 4000, sampleRate: fs)
        var rng = SplitMix64(seed: 7)
        let x = (0..<(LaneFilter.warmUp * warmUps + warmUps % 2)).map { _ in Float(rng.gaussian()) }
        let lanes = ZeroPhaseFilter(sections: sos).apply(x)
        // Sequential reference: the same filter on two halves would not do; run the scalar kernel directly.
        let sequential = ZeroPhaseFilter(sections: sos).applySequential(x)
        let worst = zip(lanes, sequential).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-4, "max difference \(worst)")
    }
}
