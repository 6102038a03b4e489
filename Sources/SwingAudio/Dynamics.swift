import Foundation

/// How far a recording's dynamics were squeezed before it reached us.
///
/// Phones raise the gain, compress with a fast attack, limit and ride an automatic gain control: hits that
/// stood 20–30 dB above the background come out a few dB above it. The crest factor (peak over RMS) shows
/// it, measured above ``highPassHz`` so that wind rumble, which fills the RMS of an uncompressed track,
/// does not pass for compression: every uncompressed track of the phone-chain sweep (docs/contacts.md,
/// "Phone recordings") measures ≥ 23.8 dB; a 6:1 compressor, a limiter or AGC bring tracks with a crowd
/// to 11–20 dB.
package enum Dynamics {
    /// Recordings whose crest factor is below this are reported as compressed (a note with the cost).
    package static let compressedBelowDb = 21.0
    /// Window over which each crest factor is taken, s.
    package static let windowSeconds = 5.0
    /// At most this many windows, spread evenly over the recording, are measured (a bounded cost on long files).
    package static let maxWindows = 24
    /// The samples are high-passed here first (2nd-order Butterworth, one causal pass), Hz.
    package static let highPassHz = 300.0

    /// Median over ``windowSeconds`` windows (at most ``maxWindows``, spread evenly) of
    /// 20·log10(peak / RMS) of the high-passed samples, dB; a recording shorter than one window is one
    /// window. `nil` for silence, fewer than 1 s of audio, or a sample rate too low for the high-pass.
    /// - Complexity: O(min(n, maxWindows · windowSeconds · sampleRate)).
    package static func crestFactorDb(_ samples: [Float], sampleRate: Double) -> Double? {
        let n = samples.count
        guard sampleRate > 4 * highPassHz, Double(n) >= sampleRate else { return nil }
        let window = min(n, Int(windowSeconds * sampleRate))
        let available = n / window
        let count = min(available, maxWindows)
        // The filter settles within a few ms; each window starts its pass 50 ms early.
        let warmUp = Int(0.05 * sampleRate)
        let k = tan(Double.pi * highPassHz / sampleRate), root2 = 2.0.squareRoot()
        let norm = 1 / (1 + root2 * k + k * k)
        let (b0, b1, b2) = (norm, -2 * norm, norm)
        let (a1, a2) = (2 * (k * k - 1) * norm, (1 - root2 * k + k * k) * norm)
        var crests: [Double] = []
        for w in 0..<count {
            let start = count == 1 ? 0 : (n - window) * w / (count - 1)
            var z1 = 0.0, z2 = 0.0, peak = 0.0, energy = 0.0
            for i in max(0, start - warmUp)..<(start + window) {
                let x = Double(samples[i])
                let y = b0 * x + z1
                z1 = b1 * x - a1 * y + z2
                z2 = b2 * x - a2 * y
                if i >= start { peak = max(peak, abs(y)); energy += y * y }
            }
            let rms = (energy / Double(window)).squareRoot()
            if rms > 0 { crests.append(20 * log10(peak / rms)) }
        }
        guard !crests.isEmpty else { return nil }
        crests.sort()
        let mid = crests.count / 2
        return crests.count % 2 == 1 ? crests[mid] : (crests[mid - 1] + crests[mid]) / 2
    }

    /// The sentence the CLI and the web app show for a compressed recording: what was seen and what it costs.
    package static func compressedNote(crestFactorDb crest: Double) -> String {
        "The recording looks compressed: its peaks stand \(Int(crest.rounded())) dB above its average level, where an uncompressed session measures \(Int(compressedBelowDb)) dB or more (a phone's compressor, limiter or automatic gain control). Hits then stand little above a crowd or wind and bounces pass for hits: on the compressed tracks of our phone-chain sweep the detector found 44 % of the hits (F1 0.50, against 0.90 on the others), so check the contacts and add or remove any it got wrong."
    }
}
