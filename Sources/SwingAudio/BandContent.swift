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

    /// Candidates at least this fraction of the reference peak (``ContactDetectorParameters/amplitudeReferencePercentile``)
    /// are the recording's loud sharp sounds, the ones the transient share is measured on.
    static let loudFraction = 0.5
    /// A loud candidate counts as broadband when its click-band transient is at least this ×
    /// ``ContactDetectorParameters/minHighBandRatio``.
    static let broadbandFactor = 3.0
    /// Below this share of broadband loud candidates the recording's hits are taken as band-limited.
    /// Measured: 0–0.05 on recorded band-limited hits (with full-band wind or crowd over them), 0.34–0.47
    /// on full-band recorded sessions (their bounces are loud and not broadband), 0.93–1 on the synthetic ones.
    static let minBroadbandShare = 0.15
    /// Fewer loud candidates than this decide nothing.
    static let minLoud = 3

    /// The share of loud candidates whose band transient is at least `factor` × `minRatio`: for the
    /// click band (`factor` ``broadbandFactor``) the check for hits recorded band-limited under sound that
    /// is not (wind hiss, a full-band crowd), where ``ratio(samples:bandPassed:lowHz:highHz:sampleRate:)``
    /// finds content in the click band and the gate would reject every hit; for the body band the check
    /// for a recording whose hits have no low tones. `nil` when fewer than ``minLoud`` candidates are loud.
    /// - Parameters:
    ///   - heights: the candidates' envelope peaks; `ratios`: their band ratios (`nil`: not measured).
    static func transientShare(heights: [Double], ratios: [Double?], referencePercentile: Double,
                               minRatio: Double, factor: Double) -> Double? {
        guard !heights.isEmpty, heights.count == ratios.count else { return nil }
        var sorted = heights.map { Float($0) }
        let reference = Double(Envelope.percentile(&sorted, referencePercentile))
        let loud = zip(heights, ratios).compactMap { h, r in h >= loudFraction * reference ? r : nil }
        guard loud.count >= minLoud else { return nil }
        return Double(loud.filter { $0 >= factor * minRatio }.count) / Double(loud.count)
    }

    /// Whether any candidate that passes the loudness gate is full-bodied (body ratio ≥ ``SpectralFeatures/fullBodyRatio``):
    /// the recording can show a hit's body, so a sound without one is not a hit. Real recordings always have
    /// one (their hits); synthetic clicks and filtered sound effects may have none.
    static func hasFullSound(heights: [Double], bodies: [Double?], referencePercentile: Double,
                             minRelativeAmplitude: Double) -> Bool {
        guard !heights.isEmpty, heights.count == bodies.count else { return false }
        var sorted = heights.map { Float($0) }
        let reference = Double(Envelope.percentile(&sorted, referencePercentile))
        return zip(heights, bodies).contains { h, b in h >= minRelativeAmplitude * reference && (b ?? 0) >= SpectralFeatures.fullBodyRatio }
    }
}
