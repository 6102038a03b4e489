import Foundation

/// Band-energy features measured on a short snippet around each candidate (only candidates are
/// filtered, so they cost nothing on a 10-minute file).
///
/// For a band B the *transient energy* is `max(0, mean(y_B²) over the event window − mean(y_B²) over
/// the background window)`: event = [onset − 2 ms, onset + 30 ms), background = [onset − 120 ms,
/// onset − 20 ms). Whether the event starts in-band at all is judged against that window's quietest quarter. Subtracting the local background is what keeps stationary wind rumble (huge in the
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
    /// Whether a sound starts in-band at all is judged against the quietest of this many equal parts of the
    /// background window (the band ratios keep its mean): on real recordings a shoe squeak 110 ms before a
    /// hit made the whole window as loud as the hit, which then did not count as starting.
    static let backgroundParts = 4
    /// Extra samples filtered on both sides so filter edge effects stay outside the windows.
    static let marginMs = 30.0

    let thud: ZeroPhaseFilter?
    let click: ZeroPhaseFilter?
    /// The impact's body band (``bodyBandLowHz``–``bodyBandHighHz``): strings and ball ring there.
    let body: ZeroPhaseFilter?
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
        body = Self.bodyBandHighHz < 0.45 * fs
            ? ZeroPhaseFilter(sections: Butterworth.bandPass(order: Self.auxiliaryOrder, lowHz: Self.bodyBandLowHz,
                                                             highHz: Self.bodyBandHighHz, sampleRate: fs))
            : nil
    }

    /// The body band, Hz. A racket–ball impact rings there (string bed ~500 Hz, the ball's pop): measured on
    /// real recordings (bench/real), the player's hits rise 7–43 dB in it while shoe squeaks, which can be
    /// louder in the 1–4 kHz detection band, do not rise at all (−10…+2 dB).
    static let bodyBandLowHz = 250.0, bodyBandHighHz = 1000.0
    /// A body ratio at which a sound is full-bodied: the player's real hits measure ≥ 1.3 (bench/real).
    static let fullBodyRatio = 1.0

    private func ms(_ v: Double) -> Int { Int((v / 1000 * sampleRate).rounded()) }

    /// Transient energy of `y` (already band-limited) for an onset at sample `onset`, where `y[0]` is
    /// sample `offset` of the file.
    func transientEnergy(_ y: [Float], offset: Int, onset: Int) -> Double {
        let (event, background) = windowEnergies(y, offset: offset, onset: onset)
        return max(0, event - background)
    }

    /// Mean energy of `y` over the event and the background windows; with `quietest`, the background is the
    /// quietest of ``backgroundParts`` equal parts of its window.
    func windowEnergies(_ y: [Float], offset: Int, onset: Int, quietest: Bool = false) -> (event: Double, background: Double) {
        func mean(_ a: Int, _ b: Int) -> Double? {
            let lo = max(0, a - offset), hi = min(y.count, b - offset)
            guard hi > lo else { return nil }
            var s = 0.0
            for i in lo..<hi { s += Double(y[i]) * Double(y[i]) }
            return s / Double(hi - lo)
        }
        let event = mean(onset + ms(Self.eventStartMs), onset + ms(Self.eventEndMs)) ?? 0
        let a = onset + ms(Self.backgroundStartMs), b = onset + ms(Self.backgroundEndMs)
        guard quietest else { return (event, mean(a, b) ?? 0) }
        let parts = Self.backgroundParts
        let background = (0..<parts).compactMap { k in mean(a + (b - a) * k / parts, a + (b - a) * (k + 1) / parts) }.min() ?? 0
        return (event, background)
    }

    /// Below this body / in-band energy a sound has no body (squeaks measure ≤ 0.02, hits ≥ 1).
    static let bodilessBelow = 0.2

    /// Body-band over in-band mean energy in the loudest (in-band) quarter of the background window: how much
    /// body the sound before the event had.
    func loudestBackgroundPart(_ y: [Float], body: [Float], offset: Int, onset: Int) -> Double {
        func mean(_ v: [Float], _ lo: Int, _ hi: Int) -> Double {
            let l = max(0, lo - offset), h = min(v.count, hi - offset)
            guard h > l else { return 0 }
            var s = 0.0
            for i in l..<h { s += Double(v[i]) * Double(v[i]) }
            return s / Double(h - l)
        }
        let a = onset + ms(Self.backgroundStartMs), b = onset + ms(Self.backgroundEndMs), parts = Self.backgroundParts
        let spans = (0..<parts).map { k in (a + (b - a) * k / parts, a + (b - a) * (k + 1) / parts) }
        guard let loudest = spans.max(by: { mean(y, $0.0, $0.1) < mean(y, $1.0, $1.1) }) else { return 0 }
        let inBand = mean(y, loudest.0, loudest.1)
        return inBand > 0 ? mean(body, loudest.0, loudest.1) / inBand : 0
    }

    /// A candidate's band features: `low` and `high` the thud and click bands' transient energy over the
    /// detection band's, `body` the body band's, `inBandTransient` the detection band's own.
    struct Ratios: Sendable {
        var low: Double? = nil
        var high: Double? = nil
        var body: Double? = nil
        var inBandTransient: Double
    }

    /// The band features for an onset; `nil` ratios when the feature is disabled or the audio is too short
    /// to filter.
    func ratios(samples x: [Float], bandPassed y: [Float], onset: Int) -> Ratios {
        let n = x.count
        let a = max(0, onset + ms(Self.backgroundStartMs - Self.marginMs))
        let b = min(n, onset + ms(Self.eventEndMs + Self.marginMs))
        guard b > a else { return Ratios(inBandTransient: 0) }
        let main = Array(y[a..<b])
        let inBand = transientEnergy(main, offset: a, onset: onset)
        let (event, quietest) = windowEnergies(main, offset: a, onset: onset, quietest: true)
        guard event > quietest else { return Ratios(inBandTransient: 0) }
        let snippet = Array(x[a..<b])
        // After a bodiless sound (a squeak), a full-bodied one is judged against the quietest quarter of its
        // background in every band: on broadcast clips a squeak 110 ms before a hit filled the whole window,
        // so the hit did not count as starting and had no click of its own. Any other sound keeps the mean
        // background the gates were measured with (a recorded hit's ringing or a grunt 100 ms after it stays
        // inside the hit).
        let bodied = body.flatMap { snippet.count > $0.padLength ? $0.apply(snippet) : nil }
        var afterSqueak = false
        if let bodied {
            let (e, bg) = windowEnergies(bodied, offset: a, onset: onset, quietest: true)
            afterSqueak = max(0, e - bg) / max(event - quietest, 1e-20) >= Self.fullBodyRatio
                && loudestBackgroundPart(main, body: bodied, offset: a, onset: onset) < Self.bodilessBelow
        }
        guard inBand > 0 || afterSqueak else { return Ratios(inBandTransient: 0) }
        let starting = afterSqueak ? event - quietest : inBand
        let mainEnergy = max(starting, 1e-20)
        func excess(_ filtered: [Float]) -> Double {
            let (e, bg) = windowEnergies(filtered, offset: a, onset: onset, quietest: afterSqueak)
            return max(0, e - bg) / mainEnergy
        }
        func ratio(_ f: ZeroPhaseFilter?) -> Double? {
            guard let f, snippet.count > f.padLength else { return nil }
            return excess(f.apply(snippet))
        }
        let bodyRatio = bodied.map(excess)
        // A thud needs no click test: skip the second filter when the first already rejects. A low band
        // that does not rise with the event (wind) is no thud: ratio 0.
        var low: Double?
        if let thud, snippet.count > thud.padLength {
            let (event, background) = windowEnergies(thud.apply(snippet), offset: a, onset: onset, quietest: afterSqueak)
            let excess = max(0, event - background) / mainEnergy
            let rises = event >= thudMinRise * background
                || (event >= thudMaskedRise * background && excess > thudMaskedRatio)
            low = rises ? excess : 0
        }
        if let low, low > maxLowBandRatio { return Ratios(low: low, inBandTransient: starting) }
        return Ratios(low: low, high: ratio(click), body: bodyRatio, inBandTransient: starting)
    }
}
