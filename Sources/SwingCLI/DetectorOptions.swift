import ArgumentParser
import SwingAudio

extension EnvelopeMode: ExpressibleByArgument {}
extension PeakPicking: ExpressibleByArgument {}
extension TimeReference: ExpressibleByArgument {}

/// Command-line overrides for every ``ContactDetectorParameters`` field. An option left out keeps the
/// library default, so the defaults live in one place (`ContactDetectorParameters`).
struct DetectorOptions: ParsableArguments {
    @Flag(name: .customLong("spec-literal"), help: "Start from the product spec taken literally (no robustness additions).")
    var specLiteral = false
    @Option(name: .customLong("low-hz"), help: "Band-pass lower corner, Hz (default 1000).") var lowHz: Double?
    @Option(name: .customLong("high-hz"), help: "Band-pass upper corner, Hz (default 4000).") var highHz: Double?
    @Option(name: .customLong("filter-order"), help: "Butterworth order (default 4).") var filterOrder: Int?
    @Option(name: .customLong("envelope-window-ms"), help: "Envelope smoothing window, ms (default 5).") var envelopeWindowMs: Double?
    @Option(name: .customLong("envelope-mode"), help: "rectified | rms (default rms).") var envelopeMode: EnvelopeMode?
    @Option(name: .customLong("envelope-passes"), help: "Moving-average passes (default 2).") var envelopeSmoothingPasses: Int?
    @Option(name: .customLong("noise-percentile"), help: "Noise-floor percentile (default 75).") var noiseFloorPercentile: Double?
    @Option(name: .customLong("noise-window-s"), help: "Sliding noise-floor window, s (default 5).") var noiseFloorWindowSeconds: Double?
    @Option(name: .customLong("threshold-factor"), help: "Peak threshold × noise floor (default 3.0).") var peakThresholdFactor: Double?
    @Option(name: .customLong("max-fwhm-ms"), help: "Widest accepted impact, ms (default 40).") var maxImpactFWHMMs: Double?
    @Option(name: .customLong("min-gap-ms"), help: "Minimum gap between contacts, ms (default 300).") var minGapMs: Double?
    @Option(name: .customLong("amplitude-weight"), help: "Confidence weight of amplitude (default 0.2).") var amplitudeWeight: Double?
    @Option(name: .customLong("narrowness-weight"), help: "Confidence weight of narrowness (default 0.4).") var narrownessWeight: Double?
    @Option(name: .customLong("symmetry-weight"), help: "Confidence weight of symmetry (default 0.4).") var symmetryWeight: Double?
    @Option(name: .customLong("min-confidence"), help: "Drop contacts below this confidence (default 0.1).") var minConfidence: Double?
    @Option(name: .customLong("peak-picking"), help: "localMaxima | prominence (default prominence).") var peakPicking: PeakPicking?
    @Option(name: .customLong("time-reference"), help: "peak | onset (default onset).") var timeReference: TimeReference?
    @Option(name: .customLong("min-relative-amplitude"), help: "Drop contacts quieter than this × the session's loud hits (default 0.2; 0 disables).") var minRelativeAmplitude: Double?
    @Option(name: .customLong("reject-thuds"), help: "Reject low-frequency bounce thuds: true | false (default true).") var rejectThuds: Bool?
    @Option(name: .customLong("max-low-band-ratio"), help: "Thud gate: low-band / in-band energy (default 4).") var maxLowBandRatio: Double?
    @Option(name: .customLong("require-broadband"), help: "Require a broadband click: true | false (default true).") var requireBroadband: Bool?
    @Option(name: .customLong("min-high-band-ratio"), help: "Broadband gate: high-band / in-band energy (default 0.03).") var minHighBandRatio: Double?

    /// The detector parameters with the user's overrides applied.
    func parameters() throws -> ContactDetectorParameters {
        var p = specLiteral ? ContactDetectorParameters.specLiteral : .default
        func set<T>(_ keyPath: WritableKeyPath<ContactDetectorParameters, T>, _ value: T?) {
            if let value { p[keyPath: keyPath] = value }
        }
        set(\.lowHz, lowHz); set(\.highHz, highHz); set(\.filterOrder, filterOrder)
        set(\.envelopeWindowMs, envelopeWindowMs); set(\.envelopeMode, envelopeMode)
        set(\.envelopeSmoothingPasses, envelopeSmoothingPasses)
        set(\.noiseFloorPercentile, noiseFloorPercentile); set(\.noiseFloorWindowSeconds, noiseFloorWindowSeconds)
        set(\.peakThresholdFactor, peakThresholdFactor); set(\.maxImpactFWHMMs, maxImpactFWHMMs)
        set(\.minGapMs, minGapMs); set(\.amplitudeWeight, amplitudeWeight); set(\.narrownessWeight, narrownessWeight)
        set(\.symmetryWeight, symmetryWeight); set(\.minConfidence, minConfidence); set(\.peakPicking, peakPicking)
        set(\.timeReference, timeReference); set(\.minRelativeAmplitude, minRelativeAmplitude)
        set(\.rejectThuds, rejectThuds); set(\.maxLowBandRatio, maxLowBandRatio)
        set(\.requireBroadband, requireBroadband); set(\.minHighBandRatio, minHighBandRatio)
        try p.validate(sampleRate: 44_100)
        return p
    }
}
