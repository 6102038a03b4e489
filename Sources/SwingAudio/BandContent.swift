import Foundation

/// How much a recording holds in a frequency band, relative to the detection band: the check behind
/// switching off a gate whose band is empty. Audio from old cameras, low sample rates, strong AAC
/// low-pass or voice-band microphones stops at 4–8 kHz; there the broadband-click gate (5–10 kHz)
/// would reject every hit.
enum BandContent {
    /// Excerpts measured, spread evenly over the recording (a 10-minute file costs ~12 s of filtering
    /// less than the whole file would).
    static let excerpts = 24
    static let excerptSeconds = 0.5
    /// Energy in the upper click band below this fraction of the detection band's counts as none:
    /// recordings with sound up there measure 4e-3 (24 kbps AAC) to 4e-2; a 5.5 kHz low-pass 3e-4.
    static let emptyBelow = 1e-3

    /// The part of the click band measured: its upper 70 %, so the roll-off of a low-pass just above the
    /// band's lower edge (e.g. 5.5 kHz against 5 kHz) does not count as content.
    static func upperBand(low: Double, high: Double) -> (Double, Double) { (low + 0.3 * (high - low), high) }

    /// Mean-square energy of `samples` in `lowHz…highHz` over evenly spread excerpts, divided by that
    /// of `bandPassed` (the detection band, already filtered) over the same excerpts; `nil` when the
    /// detection band is silent or the band cannot exist at this sample rate.
    static func ratio(samples x: [Float], bandPassed y: [Float], lowHz: Double, highHz: Double, sampleRate fs: Double) -> Double? {
        guard highHz > lowHz, highHz < 0.5 * fs, x.count == y.count, !x.isEmpty else { return nil }
        let filter = ZeroPhaseFilter(sections: Butterworth.bandPass(order: SpectralFeatures.auxiliaryOrder, lowHz: lowHz,
                                                                    highHz: highHz, sampleRate: fs))
        let length = min(x.count, Int(excerptSeconds * fs))
        let count = max(1, min(excerpts, x.count / max(length, 1)))
        let pad = filter.padLength * 4
        var band = 0.0, main = 0.0
        for k in 0..<count {
            // Evenly spaced starts covering the whole recording (the last excerpt ends at its end).
            let start = count == 1 ? 0 : (x.count - length) * k / (count - 1)
            let a = max(0, start - pad), b = min(x.count, start + length + pad)
            let filtered = filter.apply(Array(x[a..<b]))
            for i in start..<(start + length) {
                let v = Double(filtered[i - a]); band += v * v
                let m = Double(y[i]); main += m * m
            }
        }
        return main > 0 ? band / main : nil
    }
}
