import SwingCore

/// How the amplitude envelope is formed from the band-passed signal.
package enum EnvelopeMode: String, Sendable, Codable, Equatable, CaseIterable {
    /// The original recipe (docs/contacts.md): `|y|` averaged over the envelope window. Ripples at twice the carrier.
    case rectified
    /// `sqrt(mean(y²))` over the window: an energy envelope, smoother and less biased by phase.
    case rms
}

/// How envelope maxima become candidate events.
package enum PeakPicking: String, Sendable, Codable, Equatable, CaseIterable {
    /// The original recipe: every sample-level local maximum above the threshold is a candidate;
    /// widths are measured at half the *maximum* (FWHM). Ripple gives many maxima per impact.
    case localMaxima
    /// One candidate per event: a maximum must dominate ±`peakNeighborhoodMs`, and widths are measured
    /// at half its *prominence* (scipy `peak_widths(rel_height=0.5)`), so an impact riding on a
    /// grunt or on wind keeps its own narrow width.
    case prominence
}

/// Which instant of an event is reported as the contact `time`.
package enum TimeReference: String, Sendable, Codable, Equatable, CaseIterable {
    /// The envelope maximum (the original recipe's reading). It lags the true impact by the resonance decay.
    case peak
    /// The acoustic onset: the leading-edge crossing of the envelope at `onsetLevel` (0.2) of the
    /// peak's rise (of its prominence in `prominence` mode), where a hit's sound starts, i.e. when the
    /// ball meets the strings.
    case onset
}

/// Every knob of the audio contact detector. Defaults are the recipe of `docs/contacts.md` plus the
/// robustness additions documented in `docs/contacts.md` (each switchable back to the original recipe
/// with ``specLiteral``).
package struct ContactDetectorParameters: Sendable, Codable, Equatable {
    // MARK: Spec recipe
    /// Band-pass lower corner (−3 dB), Hz.
    package var lowHz = 1000.0
    /// Band-pass upper corner (−3 dB), Hz. Must be below Nyquist.
    package var highHz = 4000.0
    /// Butterworth prototype order N (scipy `butter(N, …, btype="band")`): the band-pass has 2N poles,
    /// N second-order sections, −24·N dB/decade… per side. 4 gives a steep 8-pole band-pass that keeps
    /// wind and bounce energy below 400 Hz about 60 dB down while staying numerically tame in SOS form.
    package var filterOrder = 4
    /// Envelope smoothing window, ms (centred moving average).
    package var envelopeWindowMs = 5.0
    /// Percentile of the envelope taken as the noise floor. The median of a short window: a hit's ~30 ms
    /// above the floor is well under half of 0.5 s, so it never lifts its own floor.
    package var noiseFloorPercentile = 50.0
    /// Length of the sliding window the noise floor percentile is taken over, s. Phones ride the gain
    /// (automatic gain control, a compressor's release): between hits the background comes up by 10–30 dB
    /// within a few hundred ms, and a floor taken over 5 s (the original recipe, 75th percentile) sits
    /// below it, so the raised background passes for hits and the hits under a crowd fall below
    /// `peakThresholdFactor` × a floor set by the loudest stretch. 0.5 s follows the gain; measured on the
    /// phone-chain sweep (docs/contacts.md, "Phone recordings").
    package var noiseFloorWindowSeconds = 0.5
    /// The floor is evaluated every `noiseFloorHopSeconds` on the envelope sampled every
    /// `noiseFloorDecimationMs`, then linearly interpolated — O(n) overall for any file length.
    package var noiseFloorHopSeconds = 0.05
    /// Envelope sampling step used for the floor percentile, ms.
    package var noiseFloorDecimationMs = 1.0
    /// A candidate's envelope peak must exceed this factor × the local noise floor. The original recipe's
    /// 3 lost recorded topspin hits under a crowd (their 1–4 kHz peak is 2.1–2.9 × the floor the crowd
    /// raises); 2.5 keeps them, and the thud, broadband and loudness gates answer for what else it lets in
    /// (docs/contacts.md, "Recorded sound").
    package var peakThresholdFactor = 2.5
    /// Peaks wider than this (full width at half maximum / half prominence) are not impacts, ms — unless
    /// they rise within ``maxImpactRiseMs`` (see there). The original recipe's 40 ms (``specLiteral``)
    /// rejected recorded hits that build over 25 ms once a compressor had flattened their peak: Tennix's
    /// `racket2` measures 40–45 ms at half prominence after a 6:1 compressor (rising 24–27 ms, falling
    /// 17–19, so the stretched-decay exception does not apply). 45 keeps them; no track clean or through a
    /// codec loses by it, and where the broadband gate is off (band-limited recordings) one or two more
    /// squeaks in 180 s pass (docs/contacts.md, "Phone recordings" and "Synthetic suite").
    package var maxImpactFWHMMs = 45.0
    /// A compressor stretches a hit's decay but not its attack: after a 6:1 compressor with a 5 ms attack,
    /// recorded hits measure 44–54 ms at half height. A peak up to twice ``maxImpactFWHMMs`` wide is still
    /// an impact when its envelope rises from half height to the peak within this many ms and falls for
    /// longer than it rose; voices rise slower, and squeaks fall as they rose. 30 ms measured better than
    /// 20 on the phone-chain sweep (a recorded hit builds over up to 30 ms). 0 turns the exception off.
    package var maxImpactRiseMs = 30.0
    /// Non-maximum suppression: two contacts are never closer than this, ms.
    package var minGapMs = 300.0
    /// A recorded hit sounds as 2–3 transients within ~60 ms (ball on strings, frame, a reflection); the
    /// loudest is not always the first. Each contact is reported at the earliest candidate that passed
    /// every gate within this many ms before it and is at least ``hitSpreadMinRelativeAmplitude`` × as
    /// loud. 0 reports the loudest transient's time.
    package var hitSpreadMs = 80.0
    /// Confidence weights (their sum should be 1 so confidence stays in [0, 1]).
    package var amplitudeWeight = 0.2
    package var narrownessWeight = 0.4
    package var symmetryWeight = 0.4
    /// Candidates with a composite confidence below this are dropped. 0.1 only removes shapes that
    /// are both wide and lopsided; genuine impacts score ≥ 0.4 on the synthetic suite.
    package var minConfidence = 0.1

    // MARK: Robustness additions (documented in docs/contacts.md)
    /// Envelope formation: `.rectified` as the recipe says (measured slightly better than `.rms` on the suite).
    package var envelopeMode = EnvelopeMode.rectified
    /// How many times the moving average is applied. 2 = triangular kernel: no ripple, still 5 ms FWHM.
    package var envelopeSmoothingPasses = 2
    /// Candidate selection; `.prominence` by default (original recipe: `.localMaxima`).
    package var peakPicking = PeakPicking.prominence
    /// In `.prominence` mode a peak must be the maximum of ±this many ms of envelope.
    package var peakNeighborhoodMs = 15.0
    /// How far each side the prominence base is searched, ms.
    package var prominenceWindowMs = 150.0
    /// Reported time; `.onset` by default (original recipe: `.peak`).
    package var timeReference = TimeReference.onset
    /// The onset is the last point before the peak where the envelope is at this fraction of its rise
    /// above the peak's base. 0.5 is the middle of the rise, exact for a sharp impact but 10–40 ms late on a
    /// recorded hit that builds over several transients (the walk back stops at the first ripple); 0.2
    /// finds the start of the rise on recordings and is ≈ 2 ms early on a sharp synthetic impact
    /// (docs/contacts.md, "Recorded sound"). Also anchors the band gates' windows.
    package var onsetLevel = 0.2
    /// Amplitude score = amplitude / reference, where the reference is this percentile of all shape-valid
    /// candidates' amplitudes (robust to one very loud outlier).
    package var amplitudeReferencePercentile = 90.0
    /// Candidates quieter than this fraction of the reference amplitude are dropped (−20 dB at 0.1):
    /// distant hits from other courts are not the player's contacts. 0 disables.
    package var minRelativeAmplitude = 0.1
    /// Reject bounce thuds: low-band transient energy / in-band transient energy above `maxLowBandRatio`.
    package var rejectThuds = true
    /// Low band used to recognise thuds, Hz. Recorded bounces put 67–77 % of their energy at 60–150 Hz
    /// and recorded hits ≤ 1 % (but 19–36 % at 150–300 Hz, where slices and topspin hits were taken for
    /// thuds when the band reached 400 Hz); see docs/contacts.md.
    package var thudBandLowHz = 50.0
    package var thudBandHighHz = 150.0
    /// A candidate whose low-band energy excess is more than this × its in-band excess is a thud.
    package var maxLowBandRatio = 4.0
    /// …and whose low band rises with it: event energy at least this × the low band's own background
    /// just before. A bounce's thud rises ×1000 and more in calm air; wind swelling over seconds does not,
    /// though its excess alone can be many times a quiet hit's. 1 disables the rise test.
    package var thudMinRise = 8.0
    /// A thud half-masked by wind: under gusts near full scale a recorded bounce's low band rises only
    /// ×1.4–16 over the wind before it (`thudMinRise` let 41 of them through in 180 s), but its excess is
    /// still 6–135 × its in-band excess, where hits in the same gusts measure ≤ 1.6 (95th percentile). A
    /// candidate whose low band rises at least `thudMaskedRise` × and whose excess ratio is above
    /// `thudMaskedRatio` is a thud too. `thudMaskedRise` ≥ `thudMinRise` disables the second test.
    package var thudMaskedRise = 1.5
    package var thudMaskedRatio = 10.0
    /// Require a broadband click: high-band transient energy / in-band transient energy ≥ `minHighBandRatio`.
    /// Rejects narrowband squeaks and tonal sounds; wind and thuds have nothing up there.
    package var requireBroadband = true
    /// High band used to recognise the broadband click, Hz (clamped to 0.45 × sample rate).
    package var clickBandLowHz = 5000.0
    package var clickBandHighHz = 10000.0
    /// Minimum high-band / in-band energy-excess ratio of an impact (synthetic impacts ≥ 0.04, squeaks ≤ 0.002).
    package var minHighBandRatio = 0.01
    /// Hear the impact's body: body-band (250–1000 Hz, strings and ball) transient energy / in-band
    /// transient energy. A sound with no body (below `minBodyBandRatio`) is not a hit, and within
    /// `minGapMs` the fuller sound is preferred (``MinimumGapSuppression/strength(_:reference:)``). On real
    /// recordings (bench/real) a shoe squeak louder in the 1–4 kHz band than the hit 110–140 ms after it
    /// took the hit's place, and a squeak 7 times louder set the loudness reference that dropped the hit.
    /// Skipped, with a note, for a recording with no sound in that band.
    package var requireBody = true
    /// Below this body-band / in-band energy-excess ratio a sound has no body (−17 dB at 0.02). Measured
    /// on real recordings (bench/real): the player's hits 1.3–28 (+1.1…+14.5 dB), the opponent's 3.9–20,
    /// bounces 0.3–2, shoe squeaks 0–0.02 and a few others up to 0.12; recorded game-sound hits (Free
    /// Tennis, Tennix: close-miked and filtered) only 0.10–0.13, so a higher bar would drop them.
    package var minBodyBandRatio = 0.02

    /// The defaults described above.
    package init() {}

    /// The defaults.
    package static let `default` = ContactDetectorParameters()

    /// The original recipe of docs/contacts.md taken literally: rectified single-pass envelope, every local maximum, FWHM at half
    /// maximum, peak time, no amplitude/thud/broadband gates. Kept to measure what each addition buys.
    package static var specLiteral: ContactDetectorParameters {
        var p = ContactDetectorParameters()
        p.envelopeMode = .rectified
        p.envelopeSmoothingPasses = 1
        p.peakPicking = .localMaxima
        p.timeReference = .peak
        p.onsetLevel = 0.5
        p.peakThresholdFactor = 3
        p.maxImpactFWHMMs = 40
        p.minRelativeAmplitude = 0
        p.rejectThuds = false
        p.requireBroadband = false
        p.requireBody = false
        p.hitSpreadMs = 0
        p.maxImpactRiseMs = 0
        p.noiseFloorPercentile = 75
        p.noiseFloorWindowSeconds = 5
        p.noiseFloorHopSeconds = 0.5
        return p
    }

    /// How loud an earlier transient of the same hit must be, relative to the loudest (see ``hitSpreadMs``).
    package static let hitSpreadMinRelativeAmplitude = 0.25

    /// Largest confidence weight (only their ratios matter).
    package static let maxWeight = 1000.0
    /// Largest threshold factor or band-energy ratio a gate may name, and highest band frequency (Hz).
    package static let maxRatio = 1e12, maxFrequencyHz = 1e6

    /// Longest window, gap or span any length parameter may name, seconds.
    package static let maxLengthSeconds = 600.0

    /// Checks every value against the sample rate it will be used with.
    /// - Parameter sampleRate: samples per second of the audio to analyse.
    /// - Throws: ``AudioError`` naming the first offending parameter.
    package func validate(sampleRate: Double) throws {
        func bad(_ name: String, _ why: String) -> AudioError { .invalidParameter(name: name, reason: why) }
        guard sampleRate.isFinite, sampleRate >= 8000 else {
            throw AudioError.invalidSampleRate(sampleRate)
        }
        let nyquist = sampleRate / 2
        guard lowHz.isFinite, lowHz > 0 else { throw bad("low-hz", "must be a positive frequency (got \(lowHz))") }
        guard highHz.isFinite, highHz > lowHz else {
            throw bad("high-hz", "must be above low-hz (\(lowHz) Hz) (got \(highHz))")
        }
        guard highHz < nyquist else {
            throw bad("high-hz", "must be below the Nyquist frequency \(nyquist) Hz (got \(highHz))")
        }
        guard (1...12).contains(filterOrder) else { throw bad("filter-order", "must be 1…12 (got \(filterOrder))") }
        let positives: [(String, Double)] = [
            ("envelope-window-ms", envelopeWindowMs), ("noise-floor-window-seconds", noiseFloorWindowSeconds),
            ("noise-floor-hop-seconds", noiseFloorHopSeconds), ("noise-floor-decimation-ms", noiseFloorDecimationMs),
            ("peak-threshold-factor", peakThresholdFactor), ("max-impact-fwhm-ms", maxImpactFWHMMs),
            ("peak-neighborhood-ms", peakNeighborhoodMs), ("prominence-window-ms", prominenceWindowMs),
        ]
        for (name, v) in positives where !(v.isFinite && v > 0) {
            throw bad(name, "must be a positive number (got \(v))")
        }
        // Lengths become sample counts: bound them so the arithmetic stays far inside Int and memory.
        let lengthsMs: [(String, Double)] = [
            ("envelope-window-ms", envelopeWindowMs), ("noise-floor-window-seconds", noiseFloorWindowSeconds * 1000),
            ("noise-floor-hop-seconds", noiseFloorHopSeconds * 1000), ("noise-floor-decimation-ms", noiseFloorDecimationMs),
            ("max-impact-fwhm-ms", maxImpactFWHMMs), ("peak-neighborhood-ms", peakNeighborhoodMs),
            ("prominence-window-ms", prominenceWindowMs), ("min-gap-ms", minGapMs), ("hit-spread-ms", hitSpreadMs),
        ]
        for (name, ms) in lengthsMs where ms > Self.maxLengthSeconds * 1000 {
            throw bad(name, "must be at most \(Int(Self.maxLengthSeconds)) s (got \(ms / 1000) s)")
        }
        for (name, ms) in lengthsMs where name != "min-gap-ms" && name != "hit-spread-ms" && ms / 1000 * sampleRate < 1 {
            throw bad(name, "must span at least one sample (\(1000 / sampleRate) ms at \(Int(sampleRate)) Hz; got \(ms) ms)")
        }
        guard peakThresholdFactor <= Self.maxRatio else { throw bad("peak-threshold-factor", "must be at most \(Self.maxRatio) (got \(peakThresholdFactor))") }
        guard maxImpactRiseMs.isFinite, maxImpactRiseMs >= 0, maxImpactRiseMs <= 1000 else {
            throw bad("max-rise-ms", "must be 0…1000 ms (got \(maxImpactRiseMs))")
        }
        guard minGapMs.isFinite, minGapMs >= 0 else { throw bad("min-gap-ms", "must be ≥ 0 (got \(minGapMs))") }
        guard hitSpreadMs.isFinite, hitSpreadMs >= 0 else { throw bad("hit-spread-ms", "must be ≥ 0 (got \(hitSpreadMs))") }
        for (name, v) in [("noise-floor-percentile", noiseFloorPercentile),
                          ("amplitude-reference-percentile", amplitudeReferencePercentile)]
        where !(v.isFinite && v >= 0 && v <= 100) {
            throw bad(name, "must be within 0…100 (got \(v))")
        }
        let weights = [amplitudeWeight, narrownessWeight, symmetryWeight]
        guard weights.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= Self.maxWeight }), weights.reduce(0, +) > 0 else {
            throw bad("weights", "amplitude, narrowness and symmetry weights must be 0…\(Int(Self.maxWeight)) and not all 0")
        }
        guard onsetLevel.isFinite, onsetLevel > 0, onsetLevel < 1 else {
            throw bad("onset-level", "must be between 0 and 1, both excluded (got \(onsetLevel))")
        }
        for (name, v) in [("min-confidence", minConfidence), ("min-relative-amplitude", minRelativeAmplitude)]
        where !(v.isFinite && v >= 0 && v <= 1) {
            throw bad(name, "must be within 0…1 (got \(v))")
        }
        guard (1...4).contains(envelopeSmoothingPasses) else {
            throw bad("envelope-passes", "must be 1…4 (got \(envelopeSmoothingPasses))")
        }
        if rejectThuds {
            guard thudBandLowHz > 0, thudBandHighHz > thudBandLowHz, thudBandHighHz < nyquist else {
                throw bad("thud-band", "needs 0 < low < high < Nyquist (got \(thudBandLowHz)–\(thudBandHighHz) Hz)")
            }
            guard maxLowBandRatio.isFinite, maxLowBandRatio > 0, maxLowBandRatio <= Self.maxRatio else {
                throw bad("max-low-band-ratio", "must be a positive number up to \(Self.maxRatio) (got \(maxLowBandRatio))")
            }
            guard thudMinRise.isFinite, thudMinRise >= 1, thudMinRise <= Self.maxRatio else {
                throw bad("thud-min-rise", "must be 1…\(Self.maxRatio) (got \(thudMinRise))")
            }
            guard thudMaskedRise.isFinite, thudMaskedRise >= 1, thudMaskedRise <= Self.maxRatio else {
                throw bad("thud-masked-rise", "must be 1…\(Self.maxRatio) (got \(thudMaskedRise))")
            }
            guard thudMaskedRatio.isFinite, thudMaskedRatio > 0, thudMaskedRatio <= Self.maxRatio else {
                throw bad("thud-masked-ratio", "must be a positive number up to \(Self.maxRatio) (got \(thudMaskedRatio))")
            }
        }
        if requireBroadband {
            guard clickBandLowHz > 0, clickBandHighHz > clickBandLowHz, clickBandHighHz <= Self.maxFrequencyHz,
                  clickBandLowHz < 0.45 * sampleRate * 0.95 else {
                throw bad("click-band", "needs 0 < low < high and low well below Nyquist (got \(clickBandLowHz)–\(clickBandHighHz) Hz)")
            }
            guard minHighBandRatio.isFinite, minHighBandRatio >= 0, minHighBandRatio <= Self.maxRatio else {
                throw bad("min-high-band-ratio", "must be 0…\(Self.maxRatio) (got \(minHighBandRatio))")
            }
        }
        if requireBody {
            guard minBodyBandRatio.isFinite, minBodyBandRatio >= 0, minBodyBandRatio <= Self.maxRatio else {
                throw bad("min-body-band-ratio", "must be 0…\(Self.maxRatio) (got \(minBodyBandRatio))")
            }
        }
    }
}

/// The detection thresholds as one setting a player understands (issue #27): how readily a sound counts as
/// a hit. Each level sets ``ContactDetectorParameters/peakThresholdFactor`` and
/// ``ContactDetectorParameters/minRelativeAmplitude``; the expert flags still override them.
package enum ContactSensitivity: String, Sendable, Codable, CaseIterable {
    /// Only clear hits: for a noisy court (neighbouring courts, wind), fewer false contacts, more missed.
    case fewer
    /// The defaults.
    case normal
    /// Quieter hits too: for a distant microphone or soft hitting, fewer missed, more false contacts
    /// (which the swing check and the player can take out).
    case more

    /// `parameters` at this level.
    package func apply(to parameters: ContactDetectorParameters) -> ContactDetectorParameters {
        var p = parameters
        switch self {
        case .fewer: p.peakThresholdFactor = 3.5; p.minRelativeAmplitude = 0.2
        case .normal: p.peakThresholdFactor = ContactDetectorParameters.default.peakThresholdFactor
            p.minRelativeAmplitude = ContactDetectorParameters.default.minRelativeAmplitude
        case .more: p.peakThresholdFactor = 1.8; p.minRelativeAmplitude = 0.05
        }
        return p
    }
}
