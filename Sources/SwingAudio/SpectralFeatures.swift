import Foundation

/// Band-energy features measured on a short snippet around each candidate (only candidates are
/// filtered, so they cost nothing on a 10-minute file).
///
/// For a band B the *transient energy* is `max(0, mean(y_B²) over the event window − mean(y_B²) over
/// the background window)`: event = [onset − 2 ms, onset + 30 ms), background = [onset − 120 ms,
/// onset − 20 ms). Subtracting the local background is what keeps stationary wind rumble (huge in the
/// low band) from swamping the comparison; only what *starts* with the event counts.
///
/// The thud band must also *rise* with the event: its event energy at least
/// ``ContactDetectorParameters/thudMinRise`` × its own background. A bounce's thud does; wind swelling
/// over seconds does not (its excess over 100 ms is small against its level, yet that excess alone was
/// enough to veto a quiet hit). Under gusts near full scale a bounce's rise is small too, so a rise of
/// ``ContactDetectorParameters/thudMaskedRise`` suffices when the excess is far beyond a hit's
/// (``ContactDetectorParameters/thudMaskedRatio``).
struct SpectralFeatures: Sendable {
    /// Auxiliary band-pass order (prototype N) for the thud and click bands.
    static let auxiliaryOrder = 4
    static let eventStartMs = -2.0, eventEndMs = 30.0
    static let backgroundStartMs = -120.0, backgroundEndMs = -20.0
    /// Extra samples filtered on both sides so filter edge effects stay outside the windows.
    static let marginMs = 30.0

    let thud: ZeroPhaseFilter?
    let click: ZeroPhaseFilter?
    let sampleRate: Double
    let maxLowBandRatio: Double
    let thudMinRise: Double
    let thudMaskedRise: Double
    let thudMaskedRatio: Double

    init(parameters p: ContactDetectorParameters, sampleRate fs: Double) {
        sampleRate = fs
        maxLowBandRatio = p.maxLowBandRatio
        thudMinRise = p.thudMinRise
        thudMaskedRise = p.thudMaskedRise
        thudMaskedRatio = p.thudMaskedRatio
        thud = p.rejectThuds
            ? ZeroPhaseFilter(sections: Butterworth.bandPass(order: Self.auxiliaryOrder, lowHz: p.thudBandLowHz,
                                                             highHz: p.thudBandHighHz, sampleRate: fs))
            : nil
        let clickHigh = min(p.clickBandHighHz, 0.45 * fs)
        click = p.requireBroadband
            ? ZeroPhaseFilter(sections: Butterworth.bandPass(order: Self.auxiliaryOrder, lowHz: p.clickBandLowHz,
                                                             highHz: clickHigh, sampleRate: fs))
            : nil
    }

    private func ms(_ v: Double) -> Int { Int((v / 1000 * sampleRate).rounded()) }

    /// Transient energy of `y` (already band-limited) for an onset at sample `onset`, where `y[0]` is
    /// sample `offset` of the file.
    func transientEnergy(_ y: [Float], offset: Int, onset: Int) -> Double {
        let (event, background) = windowEnergies(y, offset: offset, onset: onset)
        return max(0, event - background)
    }

    /// Mean energy of `y` over the event and the background windows.
    func windowEnergies(_ y: [Float], offset: Int, onset: Int) -> (event: Double, background: Double) {
        func mean(_ a: Int, _ b: Int) -> Double? {
            let lo = max(0, a - offset), hi = min(y.count, b - offset)
            guard hi > lo else { return nil }
            var s = 0.0
            for i in lo..<hi { s += Double(y[i]) * Double(y[i]) }
            return s / Double(hi - lo)
        }
        let event = mean(onset + ms(Self.eventStartMs), onset + ms(Self.eventEndMs)) ?? 0
        let background = mean(onset + ms(Self.backgroundStartMs), onset + ms(Self.backgroundEndMs)) ?? 0
        return (event, background)
    }

    /// `(lowBandRatio, highBandRatio, inBandTransient)` for an onset; `nil` ratios when the feature is
    /// disabled or the audio is too short to filter.
    func ratios(samples x: [Float], bandPassed y: [Float], onset: Int) -> (low: Double?, high: Double?, inBandTransient: Double) {
        let n = x.count
        let a = max(0, onset + ms(Self.backgroundStartMs - Self.marginMs))
        let b = min(n, onset + ms(Self.eventEndMs + Self.marginMs))
        guard b > a else { return (nil, nil, 0) }
        let inBand = transientEnergy(Array(y[a..<b]), offset: a, onset: onset)
        let mainEnergy = max(inBand, 1e-20)
        let snippet = Array(x[a..<b])
        func ratio(_ f: ZeroPhaseFilter?) -> Double? {
            guard let f, snippet.count > f.padLength else { return nil }
            return transientEnergy(f.apply(snippet), offset: a, onset: onset) / mainEnergy
        }
        // A thud needs no click test: skip the second filter when the first already rejects. A low band
        // that does not rise with the event (wind) is no thud: ratio 0.
        var low: Double?
        if let thud, snippet.count > thud.padLength {
            let (event, background) = windowEnergies(thud.apply(snippet), offset: a, onset: onset)
            let excess = max(0, event - background) / mainEnergy
            let rises = event >= thudMinRise * background
                || (event >= thudMaskedRise * background && excess > thudMaskedRatio)
            low = rises ? excess : 0
        }
        if let low, low > maxLowBandRatio { return (low, nil, inBand) }
        return (low, ratio(click), inBand)
    }
}
