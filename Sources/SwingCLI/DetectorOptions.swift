import ArgumentParser
import SwingAudio

extension EnvelopeMode: ExpressibleByArgument {}
extension PeakPicking: ExpressibleByArgument {}
extension TimeReference: ExpressibleByArgument {}
extension ContactSensitivity: ExpressibleByArgument {}

/// Command-line overrides for every ``ContactDetectorParameters`` field. An option left out keeps the
/// library default, so the defaults live in one place (`ContactDetectorParameters`).
struct DetectorOptions: ParsableArguments {
    private static let D = ContactDetectorParameters.default
    @Flag(name: .customLong("spec-literal"), help: "Start from the original recipe of docs/contacts.md (no robustness additions).")
    var specLiteral = false
    @Option(name: .customLong("sensitivity"),
            help: "How readily a sound counts as a hit: fewer | normal | more (default normal); the flags below override it.")
    var sensitivity: ContactSensitivity?
    @Option(name: .customLong("low-hz"), help: "Band-pass lower corner, Hz (default \(Self.D.lowHz))") var lowHz: Double?
    @Option(name: .customLong("high-hz"), help: "Band-pass upper corner, Hz (default \(Self.D.highHz))") var highHz: Double?
    @Option(name: .customLong("filter-order"), help: "Butterworth order (default \(Self.D.filterOrder))") var filterOrder: Int?
    @Option(name: .customLong("envelope-window-ms"), help: "Envelope smoothing window, ms (default \(Self.D.envelopeWindowMs))") var envelopeWindowMs: Double?
    @Option(name: .customLong("envelope-mode"), help: "rectified | rms (default \(Self.D.envelopeMode.rawValue))") var envelopeMode: EnvelopeMode?
    @Option(name: .customLong("envelope-passes"), help: "Moving-average passes (default \(Self.D.envelopeSmoothingPasses))") var envelopeSmoothingPasses: Int?
    @Option(name: .customLong("noise-percentile"), help: "Noise-floor percentile (default \(Self.D.noiseFloorPercentile))") var noiseFloorPercentile: Double?
    @Option(name: .customLong("noise-window-s"), help: "Sliding noise-floor window, s (default \(Self.D.noiseFloorWindowSeconds))") var noiseFloorWindowSeconds: Double?
    @Option(name: .customLong("threshold-factor"), help: "Peak threshold × noise floor (default \(Self.D.peakThresholdFactor))") var peakThresholdFactor: Double?
    @Option(name: .customLong("max-fwhm-ms"), help: "Widest accepted impact, ms (default \(Self.D.maxImpactFWHMMs))") var maxImpactFWHMMs: Double?
    @Option(name: .customLong("max-rise-ms"), help: "A peak up to twice --max-fwhm-ms wide still counts when it rises within this many ms (a compressor stretches a hit's decay); 0 = off (default \(Self.D.maxImpactRiseMs))") var maxImpactRiseMs: Double?
    @Option(name: .customLong("min-gap-ms"), help: "Minimum gap between contacts, ms (default \(Self.D.minGapMs))") var minGapMs: Double?
    @Option(name: .customLong("hit-spread-ms"), help: "Report a hit at its earliest transient within this many ms before the loudest; 0 = the loudest (default \(Self.D.hitSpreadMs))") var hitSpreadMs: Double?
    @Option(name: .customLong("amplitude-weight"), help: "Confidence weight of amplitude (default \(Self.D.amplitudeWeight))") var amplitudeWeight: Double?
    @Option(name: .customLong("narrowness-weight"), help: "Confidence weight of narrowness (default \(Self.D.narrownessWeight))") var narrownessWeight: Double?
    @Option(name: .customLong("symmetry-weight"), help: "Confidence weight of symmetry (default \(Self.D.symmetryWeight))") var symmetryWeight: Double?
    @Option(name: .customLong("min-confidence"), help: "Drop contacts below this confidence (default \(Self.D.minConfidence))") var minConfidence: Double?
    @Option(name: .customLong("peak-picking"), help: "localMaxima | prominence (default \(Self.D.peakPicking.rawValue))") var peakPicking: PeakPicking?
    @Option(name: .customLong("time-reference"), help: "peak | onset (default \(Self.D.timeReference.rawValue))") var timeReference: TimeReference?
    @Option(name: .customLong("onset-level"), help: "The onset is where the envelope is at this fraction of its rise (default \(Self.D.onsetLevel))") var onsetLevel: Double?
    @Option(name: .customLong("min-relative-amplitude"), help: "Drop contacts quieter than this × the session's loud hits (default \(Self.D.minRelativeAmplitude))") var minRelativeAmplitude: Double?
    @Option(name: .customLong("reject-thuds"), help: "Reject low-frequency bounce thuds: true | false (default \(Self.D.rejectThuds))") var rejectThuds: Bool?
    @Option(name: .customLong("max-low-band-ratio"), help: "Thud gate: low-band / in-band energy (default \(Self.D.maxLowBandRatio))") var maxLowBandRatio: Double?
    @Option(name: .customLong("thud-min-rise"), help: "Thud gate: the low band must rise this many times over its own background; 1 = off (default \(Self.D.thudMinRise))") var thudMinRise: Double?
    @Option(name: .customLong("thud-masked-rise"), help: "Thud gate under wind: this smaller rise suffices when the low-band / in-band energy is above --thud-masked-ratio; equal to --thud-min-rise = off (default \(Self.D.thudMaskedRise))") var thudMaskedRise: Double?
    @Option(name: .customLong("thud-masked-ratio"), help: "Thud gate under wind: low-band / in-band energy above which --thud-masked-rise suffices (default \(Self.D.thudMaskedRatio))") var thudMaskedRatio: Double?
    @Option(name: .customLong("require-broadband"), help: "Require a broadband click: true | false (default \(Self.D.requireBroadband))") var requireBroadband: Bool?
    @Option(name: .customLong("min-high-band-ratio"), help: "Broadband gate: high-band / in-band energy (default \(Self.D.minHighBandRatio))") var minHighBandRatio: Double?
    @Option(name: .customLong("require-body"), help: "Require a full-bodied impact (250–1000 Hz), not a squeak: true | false (default \(Self.D.requireBody))") var requireBody: Bool?
    @Option(name: .customLong("min-body-band-ratio"), help: "Body gate: body-band / in-band energy (default \(Self.D.minBodyBandRatio))") var minBodyBandRatio: Double?

    @Option(name: .customLong("noise-hop-s"), help: "Noise floor evaluated every this many seconds (default \(Self.D.noiseFloorHopSeconds))") var noiseFloorHopSeconds: Double?
    @Option(name: .customLong("noise-decimation-ms"), help: "Envelope sampling step for the noise floor, ms (default \(Self.D.noiseFloorDecimationMs))") var noiseFloorDecimationMs: Double?
    @Option(name: .customLong("peak-neighborhood-ms"), help: "A peak must dominate ± this many ms (prominence mode) (default \(Self.D.peakNeighborhoodMs))") var peakNeighborhoodMs: Double?
    @Option(name: .customLong("prominence-window-ms"), help: "Prominence base search, ms each side (default \(Self.D.prominenceWindowMs))") var prominenceWindowMs: Double?
    @Option(name: .customLong("amplitude-reference-percentile"), help: "Percentile of candidate peaks used as the amplitude reference (default \(Self.D.amplitudeReferencePercentile))") var amplitudeReferencePercentile: Double?
    @Option(name: .customLong("thud-band-low-hz"), help: "Thud band lower edge, Hz (default \(Self.D.thudBandLowHz))") var thudBandLowHz: Double?
    @Option(name: .customLong("thud-band-high-hz"), help: "Thud band upper edge, Hz (default \(Self.D.thudBandHighHz))") var thudBandHighHz: Double?
    @Option(name: .customLong("click-band-low-hz"), help: "Broadband-click band lower edge, Hz (default \(Self.D.clickBandLowHz))") var clickBandLowHz: Double?
    @Option(name: .customLong("click-band-high-hz"), help: "Broadband-click band upper edge, Hz (default \(Self.D.clickBandHighHz))") var clickBandHighHz: Double?

    func validate() throws {
        do { _ = try parameters() } catch let error as AudioError { throw ValidationError(error.description) }
    }

    /// The detector parameters with the user's overrides applied.
    func parameters() throws -> ContactDetectorParameters {
        var p = specLiteral ? ContactDetectorParameters.specLiteral : .default
        if let sensitivity { p = sensitivity.apply(to: p) }
        func set<T>(_ keyPath: WritableKeyPath<ContactDetectorParameters, T>, _ value: T?) {
            if let value { p[keyPath: keyPath] = value }
        }
        set(\.lowHz, lowHz); set(\.highHz, highHz); set(\.filterOrder, filterOrder)
        set(\.envelopeWindowMs, envelopeWindowMs); set(\.envelopeMode, envelopeMode)
        set(\.envelopeSmoothingPasses, envelopeSmoothingPasses)
        set(\.noiseFloorPercentile, noiseFloorPercentile); set(\.noiseFloorWindowSeconds, noiseFloorWindowSeconds)
        set(\.peakThresholdFactor, peakThresholdFactor); set(\.maxImpactFWHMMs, maxImpactFWHMMs)
        set(\.maxImpactRiseMs, maxImpactRiseMs)
        set(\.minGapMs, minGapMs); set(\.hitSpreadMs, hitSpreadMs); set(\.amplitudeWeight, amplitudeWeight); set(\.narrownessWeight, narrownessWeight)
        set(\.symmetryWeight, symmetryWeight); set(\.minConfidence, minConfidence); set(\.peakPicking, peakPicking)
        set(\.timeReference, timeReference); set(\.onsetLevel, onsetLevel); set(\.minRelativeAmplitude, minRelativeAmplitude)
        set(\.rejectThuds, rejectThuds); set(\.maxLowBandRatio, maxLowBandRatio); set(\.thudMinRise, thudMinRise)
        set(\.thudMaskedRise, thudMaskedRise); set(\.thudMaskedRatio, thudMaskedRatio)
        set(\.requireBroadband, requireBroadband); set(\.minHighBandRatio, minHighBandRatio)
        set(\.requireBody, requireBody); set(\.minBodyBandRatio, minBodyBandRatio)
        set(\.noiseFloorHopSeconds, noiseFloorHopSeconds); set(\.noiseFloorDecimationMs, noiseFloorDecimationMs); set(\.peakNeighborhoodMs, peakNeighborhoodMs); set(\.prominenceWindowMs, prominenceWindowMs); set(\.amplitudeReferencePercentile, amplitudeReferencePercentile); set(\.thudBandLowHz, thudBandLowHz); set(\.thudBandHighHz, thudBandHighHz); set(\.clickBandLowHz, clickBandLowHz); set(\.clickBandHighHz, clickBandHighHz);
        try p.validate(sampleRate: 44_100)
        return p
    }
}
