import Foundation

/// The individual sound models of ``SyntheticSessionAudio`` (each adds into a buffer).
struct SoundSynth: Sendable {
    let sampleRate: Double
    private var fs: Double { sampleRate }

    private func add(_ out: inout [Float], _ i: Int, _ v: Double) {
        if i >= 0, i < out.count { out[i] += Float(v) }
    }

    /// Racket impact: a 2–6 ms broadband click (white noise, fast exponential decay) plus string-bed
    /// (450–650 Hz) and ball/frame (1.2–3 kHz) resonances decaying with τ = 4–12 ms (inaudible after 10–30 ms… ×3).
    mutating func impact(into out: inout [Float], at i0: Int, amplitude a: Double, rng: inout SplitMix64) {
        let clickLen = rng.uniform(0.002, 0.006)
        let clickTau = clickLen / 3
        let strings = (f: rng.uniform(450, 650), tau: rng.uniform(0.004, 0.012), amp: rng.uniform(0.2, 0.5))
        let ball = (f: rng.uniform(1200, 3000), tau: rng.uniform(0.003, 0.010), amp: rng.uniform(0.2, 0.5))
        let phase1 = rng.uniform(0, 2 * .pi), phase2 = rng.uniform(0, 2 * .pi)
        let len = Int(0.08 * fs)
        for k in 0..<len {
            let t = Double(k) / fs
            var v = 0.0
            if t < clickLen { v += rng.gaussian() * exp(-t / clickTau) * 0.8 }
            v += strings.amp * exp(-t / strings.tau) * sin(2 * .pi * strings.f * t + phase1)
            v += ball.amp * exp(-t / ball.tau) * sin(2 * .pi * ball.f * t + phase2)
            add(&out, i0 + k, a * v)
        }
    }

    /// Ball bounce: a low thud (90–250 Hz, τ 8–25 ms) with a 1 ms attack transient that leaks into the
    /// 1–4 kHz band — on a quiet court that leak alone clears 3 × the noise floor.
    mutating func bounce(into out: inout [Float], at i0: Int, amplitude a: Double, rng: inout SplitMix64) {
        let f = rng.uniform(90, 250), tau = rng.uniform(0.008, 0.025)
        let len = Int(0.15 * fs)
        for k in 0..<len {
            let t = Double(k) / fs
            var v = sin(2 * .pi * f * t) * exp(-t / tau) * (1 - exp(-t / 0.0015))
            if t < 0.001 { v += rng.gaussian() * 0.08 * (1 - t / 0.001) }
            add(&out, i0 + k, a * v)
        }
    }

    /// Shoe squeak: a narrowband chirp between 1 and 3 kHz, 50–200 ms, smooth or abrupt envelope,
    /// with a weak second harmonic.
    mutating func squeak(into out: inout [Float], at i0: Int, amplitude a: Double, rng: inout SplitMix64) {
        let dur = rng.uniform(0.05, 0.2)
        let f0 = rng.uniform(1000, 2200), f1 = rng.uniform(1400, 3000)
        let smooth = rng.uniform(0, 1) < 0.5
        let len = Int(dur * fs)
        var phase = 0.0
        for k in 0..<len {
            let u = Double(k) / Double(len)
            let f = f0 + (f1 - f0) * u
            phase += 2 * .pi * f / fs
            let e = smooth ? pow(sin(.pi * u), 2) : min(1, u * dur / 0.008, (1 - u) * dur / 0.008)
            add(&out, i0 + k, a * e * (sin(phase) + 0.2 * sin(2 * phase)))
        }
    }

    /// Voice or grunt: harmonic (f0 120–300 Hz, harmonics to 4 kHz falling as 1/k), 0.2–0.8 s,
    /// 20 ms attack, slow release, light vibrato.
    mutating func voice(into out: inout [Float], at i0: Int, amplitude a: Double, rng: inout SplitMix64) {
        let dur = rng.uniform(0.2, 0.8), f0 = rng.uniform(120, 300)
        let harmonics = Int(4000 / f0)
        let len = Int(dur * fs)
        var phase = 0.0
        for k in 0..<len {
            let t = Double(k) / fs
            phase += 2 * .pi * f0 * (1 + 0.02 * sin(2 * .pi * 5 * t)) / fs
            let e = min(1, t / 0.02) * min(1, (dur - t) / 0.15)
            var v = 0.0
            for h in 1...max(1, harmonics) { v += sin(Double(h) * phase) / Double(h) }
            add(&out, i0 + k, a * e * v * 0.5)
        }
    }

    /// Distant hit: an impact 22–32 dB down, muffled by distance (one-pole low-pass at 2.5 kHz) with a
    /// 30 ms reflection.
    mutating func distantHit(into out: inout [Float], at i0: Int, amplitude a: Double, rng: inout SplitMix64) {
        var tmp = [Float](repeating: 0, count: Int(0.12 * fs))
        impact(into: &tmp, at: 0, amplitude: a, rng: &rng)
        let alpha = 1 - exp(-2 * .pi * 2500 / fs)
        var lp = 0.0
        let echo = Int(0.03 * fs)
        for k in tmp.indices {
            lp += alpha * (Double(tmp[k]) - lp)
            add(&out, i0 + k, lp)
            add(&out, i0 + k + echo, 0.4 * lp)
        }
    }

    /// Court ambience: pink-ish noise (sum of three one-pole low-passed whites) whose level drifts
    /// ±6 dB over ~10 s, so the noise floor must adapt.
    mutating func ambience(into out: inout [Float], level: Double, rng: inout SplitMix64) {
        let poles = [200.0, 1500.0, 8000.0].map { 1 - exp(-2 * .pi * $0 / fs) }
        var st = [0.0, 0.0, 0.0]
        let drift = rng.uniform(0, 2 * .pi)
        for i in out.indices {
            let t = Double(i) / fs
            let g = level * pow(2, sin(2 * .pi * t / 10 + drift))
            var v = 0.0
            for j in 0..<3 { st[j] += poles[j] * (rng.gaussian() - st[j]); v += st[j] }
            out[i] += Float(g * v * 1.5)
        }
    }

    /// Wind rumble: strong low-frequency noise (two cascaded one-pole low-passes at 60 Hz) with gusts
    /// (level ×0.3…×1.7 at 0.1–0.5 Hz) and a faint broadband hiss 40 dB down.
    mutating func wind(into out: inout [Float], level: Double, rng: inout SplitMix64) {
        let alpha = 1 - exp(-2 * .pi * 60 / fs)
        var a = 0.0, b = 0.0
        let g1 = rng.uniform(0.1, 0.5), g2 = rng.uniform(0.1, 0.5), ph = rng.uniform(0, 6)
        // Normalise the two-pole low-pass output to unit RMS: variance of white through it ≈ alpha/4.
        let norm = 1 / sqrt(alpha / 4)
        for i in out.indices {
            let t = Double(i) / fs
            a += alpha * (rng.gaussian() - a)
            b += alpha * (a - b)
            let gust = 1 + 0.7 * sin(2 * .pi * g1 * t + ph) * sin(2 * .pi * g2 * t)
            out[i] += Float(level * gust * (b * norm + 0.01 * rng.gaussian()))
        }
    }
}
