import Foundation

/// One second-order section `H(z) = (b0 + b1 z⁻¹ + b2 z⁻²) / (1 + a1 z⁻¹ + a2 z⁻²)`, the row layout of
/// scipy's `sos` arrays with `a0` normalised to 1.
package struct Biquad: Sendable, Equatable {
    package var b0, b1, b2, a1, a2: Double

    /// Creates a section from its coefficients (`a0` = 1).
    package init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        (self.b0, self.b1, self.b2, self.a1, self.a2) = (b0, b1, b2, a1, a2)
    }

    /// Complex frequency response at `omega` radians/sample.
    func response(omega: Double) -> Complex {
        let z1 = Complex(cos(-omega), sin(-omega))  // z⁻¹
        let z2 = z1 * z1
        let num = Complex(b0, 0) + z1 * b1 + z2 * b2
        let den = Complex(1, 0) + z1 * a1 + z2 * a2
        return num / den
    }

    /// Steady-state DF-II-transposed state for a unit step input (scipy `lfilter_zi` for one section).
    var stepState: (Double, Double) {
        let dc = (b0 + b1 + b2) / (1 + a1 + a2)
        let z1 = b2 - a2 * dc
        return (b1 - a1 * dc + z1, z1)
    }

    /// DC gain (used to scale the steady state of the following sections, as `sosfilt_zi` does).
    var dcGain: Double { (b0 + b1 + b2) / (1 + a1 + a2) }
}

/// Minimal complex arithmetic for filter design (kept internal: not a general-purpose type).
struct Complex: Sendable, Equatable {
    var re: Double, im: Double
    init(_ re: Double, _ im: Double) { (self.re, self.im) = (re, im) }
    var magnitude: Double { hypot(re, im) }
    static func + (l: Complex, r: Complex) -> Complex { Complex(l.re + r.re, l.im + r.im) }
    static func - (l: Complex, r: Complex) -> Complex { Complex(l.re - r.re, l.im - r.im) }
    static func * (l: Complex, r: Complex) -> Complex {
        Complex(l.re * r.re - l.im * r.im, l.re * r.im + l.im * r.re)
    }
    static func * (l: Complex, r: Double) -> Complex { Complex(l.re * r, l.im * r) }
    static func / (l: Complex, r: Complex) -> Complex {
        let d = r.re * r.re + r.im * r.im
        return Complex((l.re * r.re + l.im * r.im) / d, (l.im * r.re - l.re * r.im) / d)
    }
    /// Principal square root.
    var squareRoot: Complex {
        let m = magnitude
        let r = sqrt(max(0, (m + re) / 2))
        let i = sqrt(max(0, (m - re) / 2))
        return Complex(r, im < 0 ? -i : i)
    }
}

/// Digital Butterworth band-pass design, equal (to rounding) to
/// `scipy.signal.butter(order, [lowHz, highHz], btype="band", fs=sampleRate, output="sos")`.
package enum Butterworth {
    /// Designs the band-pass as `order` second-order sections.
    ///
    /// Analog prototype poles on the unit circle → low-pass-to-band-pass transform around the
    /// pre-warped corners → bilinear transform. Each section gets one zero at z = 1 and one at z = −1
    /// (`b ∝ [1, 0, −1]`); the overall gain is set so the response is exactly 1 at the mapped centre
    /// frequency, where an analog Butterworth band-pass has unit gain.
    /// - Parameters:
    ///   - order: prototype order N (the band-pass has 2N poles).
    ///   - lowHz: lower −3 dB corner.
    ///   - highHz: upper −3 dB corner, below `sampleRate / 2`.
    ///   - sampleRate: samples per second.
    /// - Returns: N sections; callers validate the arguments first (see ``ContactDetectorParameters/validate(sampleRate:)``).
    package static func bandPass(order: Int, lowHz: Double, highHz: Double, sampleRate fs: Double) -> [Biquad] {
        let n = max(1, order)
        let w1 = 2 * fs * tan(Double.pi * lowHz / fs)
        let w2 = 2 * fs * tan(Double.pi * highHz / fs)
        let bw = w2 - w1
        let w0sq = w1 * w2
        var digital: [Complex] = []
        for k in 0..<n {
            let theta = Double.pi * Double(2 * k + n + 1) / Double(2 * n)
            let p = Complex(cos(theta), sin(theta))
            let half = p * (bw / 2)
            let root = (half * half - Complex(w0sq, 0)).squareRoot
            for s in [half + root, half - root] {
                digital.append((Complex(2 * fs, 0) + s) / (Complex(2 * fs, 0) - s))
            }
        }
        // Conjugate pairs give one section each; real poles (very wide bands) are paired in order.
        let tol = 1e-12
        var sections: [Biquad] = []
        var reals: [Double] = []
        for z in digital {
            if z.im > tol {
                sections.append(Biquad(b0: 1, b1: 0, b2: -1, a1: -2 * z.re, a2: z.re * z.re + z.im * z.im))
            } else if abs(z.im) <= tol {
                reals.append(z.re)
            }
        }
        reals.sort()
        var i = 0
        while i + 1 < reals.count {
            sections.append(Biquad(b0: 1, b1: 0, b2: -1, a1: -(reals[i] + reals[i + 1]), a2: reals[i] * reals[i + 1]))
            i += 2
        }
        let centre = 2 * atan(sqrt(w0sq) / (2 * fs))
        let gain = magnitudeResponse(sections, omega: centre)
        let perSection = gain > 0 ? pow(1 / gain, 1 / Double(sections.count)) : 1
        return sections.map { s in
            Biquad(b0: s.b0 * perSection, b1: s.b1 * perSection, b2: s.b2 * perSection, a1: s.a1, a2: s.a2)
        }
    }

    /// Designs an even-order low-pass as `order / 2` second-order sections (odd orders round up), equal
    /// to rounding to `scipy.signal.butter(order, cutoffHz, fs=sampleRate, output="sos")`: the bilinear
    /// transform of the analog prototype, pre-warped so the −3 dB corner lands on `cutoffHz`.
    /// - Parameters:
    ///   - order: filter order (poles).
    ///   - cutoffHz: −3 dB corner, below `sampleRate / 2`.
    ///   - sampleRate: samples per second.
    package static func lowPass(order: Int, cutoffHz: Double, sampleRate fs: Double) -> [Biquad] {
        let pairs = max(1, (order + 1) / 2)
        let n = 2 * pairs
        let w0 = 2 * Double.pi * cutoffHz / fs
        let cosW = cos(w0), sinW = sin(w0)
        return (0..<pairs).map { k in
            // Pole pair k of the prototype sits at angle θ from the imaginary axis: Q = 1 / (2 cos θ).
            let q = 1 / (2 * cos(Double.pi * Double(2 * k + 1) / Double(2 * n)))
            let alpha = sinW / (2 * q)
            let a0 = 1 + alpha
            let b = (1 - cosW) / 2 / a0
            return Biquad(b0: b, b1: 2 * b, b2: b, a1: -2 * cosW / a0, a2: (1 - alpha) / a0)
        }
    }

    /// |H| of a cascade at `omega` radians/sample.
    package static func magnitudeResponse(_ sections: [Biquad], omega: Double) -> Double {
        sections.reduce(1.0) { $0 * $1.response(omega: omega).magnitude }
    }

    /// |H| of a cascade at `hz` for the given sample rate.
    package static func magnitudeResponse(_ sections: [Biquad], hz: Double, sampleRate: Double) -> Double {
        magnitudeResponse(sections, omega: 2 * Double.pi * hz / sampleRate)
    }
}
