import Foundation
import SwingCore

/// One detected racket–ball contact and the features that justified it.
package struct ContactCandidate: Sendable, Codable, Equatable {
    /// Contact time, s from the first sample (the onset or the peak, per ``TimeReference``).
    package var time: Double
    /// Composite confidence in [0, 1]: weights · (amplitude, narrowness, symmetry) scores.
    package var confidence: Double
    /// Width of the envelope peak at half maximum (or half prominence), ms.
    package var fwhmMs: Double
    /// min(rise, fall) / max(rise, fall) of the half-level crossings around the peak, in [0, 1].
    package var symmetry: Double
    /// Envelope value at the peak (band-passed signal units; full scale = 1).
    package var amplitude: Double
    /// Time of the envelope maximum, s.
    package var peakTime: Double
    /// Peak height over the local noise floor.
    package var snr: Double
    /// Low-band (thud band) transient energy / in-band transient energy; nil when not measured.
    package var lowBandRatio: Double?
    /// High-band (click band) transient energy / in-band transient energy; nil when not measured.
    package var highBandRatio: Double?
    /// Body-band (250–1000 Hz: strings and ball) transient energy / in-band transient energy; nil when not
    /// measured. A racket–ball impact is full-bodied (real hits ≥ 1), a shoe squeak is not.
    package var bodyBandRatio: Double?

    /// Memberwise initialiser.
    package init(time: Double, confidence: Double, fwhmMs: Double, symmetry: Double, amplitude: Double,
                peakTime: Double, snr: Double, lowBandRatio: Double? = nil, highBandRatio: Double? = nil,
                bodyBandRatio: Double? = nil) {
        self.time = time; self.confidence = confidence; self.fwhmMs = fwhmMs; self.symmetry = symmetry
        self.amplitude = amplitude; self.peakTime = peakTime; self.snr = snr
        self.lowBandRatio = lowBandRatio; self.highBandRatio = highBandRatio; self.bodyBandRatio = bodyBandRatio
    }
}

/// Contacts, with what the detector learnt about the recording on the way.
package struct ContactDetection: Sendable, Equatable {
    /// Contacts sorted by time.
    package var contacts: [ContactCandidate]
    /// One sentence per gate switched off for this recording (e.g. nothing in the click band); empty
    /// when every configured gate ran.
    package var notes: [String]
    /// Energy in the upper click band over the detection band's, over the recording (`nil` when not measured).
    package var clickBandContent: Double?
    /// Share of the recording's loud candidates with a broadband click (`nil` when not measured or fewer
    /// than three were loud); below 0.15 the broadband gate is skipped.
    package var broadbandShare: Double?
    /// The recording's crest factor, dB (``Dynamics/crestFactorDb(_:sampleRate:)``; `nil` when not
    /// measurable); below ``Dynamics/compressedBelowDb`` the recording is reported as compressed.
    package var crestFactorDb: Double?
}

/// Finds racket–ball contacts in mono audio (the recipe of `docs/contacts.md`):
/// band-pass → envelope → sliding-percentile noise floor → peaks above factor × floor → shape
/// (width, symmetry) → thud / broadband / loudness gates → composite confidence → NMS.
package struct ContactDetector: Sendable {
    /// The configuration.
    package let parameters: ContactDetectorParameters

    /// Creates a detector. Parameters are validated per call, against the audio's sample rate.
    package init(parameters: ContactDetectorParameters = .default) { self.parameters = parameters }

    /// Detects contacts.
    /// - Parameters:
    ///   - samples: mono Float32, full scale ±1; time 0 = first sample.
    ///   - sampleRate: samples per second (44 100 in the pipeline; anything ≥ 8 kHz above 2 × `highHz`).
    ///   - progress: optional callback, stage `"contacts"`, fraction 0…1.
    /// - Returns: contacts sorted by time. Audio shorter than the filter padding (~1 ms) yields none.
    /// - Throws: ``AudioError`` for invalid parameters, sample rate, or non-finite samples.
    /// - Complexity: O(n) in the number of samples plus O(k) per candidate.
    package func detect(samples: [Float], sampleRate: Double, progress: ProgressHandler? = nil) throws -> [ContactCandidate] {
        try run(samples: samples, sampleRate: sampleRate, progress: progress).contacts
    }

    /// Detects contacts and reports gates switched off for this recording (see ``ContactDetection``).
    /// The broadband-click gate needs sound in its band: a recording that has none there (band-limited
    /// by its microphone, sample rate or compression) is measured once and the gate is skipped.
    /// - Throws: ``AudioError`` as ``detect(samples:sampleRate:progress:)``.
    package func run(samples: [Float], sampleRate: Double, progress: ProgressHandler? = nil) throws -> ContactDetection {
        var p = parameters
        try p.validate(sampleRate: sampleRate)
        if let bad = samples.firstIndex(where: { !$0.isFinite }) { throw AudioError.nonFiniteSamples(index: bad) }
        let fs = sampleRate
        func samplesFor(ms: Double) -> Int { Int((ms / 1000 * fs).rounded()) }

        let main = ZeroPhaseFilter(sections: Butterworth.bandPass(order: p.filterOrder, lowHz: p.lowHz, highHz: p.highHz, sampleRate: fs))
        guard samples.count > main.padLength else {
            progress?("contacts", 1)
            return ContactDetection(contacts: [], notes: [], clickBandContent: nil, broadbandShare: nil, crestFactorDb: nil)
        }
        let y = main.apply(samples) { progress?("contacts", 0.8 * $0) }

        var notes: [String] = []
        let crest = Dynamics.crestFactorDb(samples, sampleRate: fs)
        if let crest, crest < Dynamics.compressedBelowDb {
            notes.append(Dynamics.compressedNote(crestFactorDb: crest))
        }
        var clickContent: Double?
        var broadbandShare: Double?
        if p.requireBroadband {
            let (low, high) = BandContent.upperBand(low: p.clickBandLowHz, high: min(p.clickBandHighHz, 0.45 * fs))
            clickContent = BandContent.ratio(samples: samples, bandPassed: y, lowHz: low, highHz: high, sampleRate: fs)
            if let content = clickContent, content < BandContent.emptyBelow {
                p.requireBroadband = false
                notes.append("The recording has almost no sound above \(Int(low / 100) * 100) Hz (a low sample rate, strong compression or a voice-band microphone), so hits were not required to sound broadband; squeaks and tones are less well told apart.")
            }
        }

        var width = samplesFor(ms: p.envelopeWindowMs)
        if width % 2 == 0 { width += 1 }
        let env = Envelope.envelope(y, mode: p.envelopeMode, width: width, passes: p.envelopeSmoothingPasses)
        progress?("contacts", 0.9)

        let floor = Envelope.noiseFloor(env, decimation: max(1, samplesFor(ms: p.noiseFloorDecimationMs)),
                                        window: samplesFor(ms: p.noiseFloorWindowSeconds * 1000),
                                        hop: max(1, samplesFor(ms: p.noiseFloorHopSeconds * 1000)),
                                        percentile: p.noiseFloorPercentile)
        let hop = max(1, samplesFor(ms: p.noiseFloorHopSeconds * 1000))
        func floorAt(_ i: Int) -> Double { Envelope.floor(at: i, floor, hop: hop) }
        let peaks = PeakShape.candidates(env, threshold: { p.peakThresholdFactor * floorAt($0) },
                                         picking: p.peakPicking, radius: samplesFor(ms: p.peakNeighborhoodMs))

        // Shape: width gate first (cheap), then the band-energy gates on the survivors only.
        let spectral = SpectralFeatures(parameters: p, sampleRate: fs)
        var shaped: [MeasuredPeak] = []
        for i in peaks {
            let m = PeakShape.measure(env, peak: i, picking: p.peakPicking, onsetLevel: p.onsetLevel, window: samplesFor(ms: p.prominenceWindowMs), floor: floorAt(i))
            let fwhm = (m.rightCrossing - m.leftCrossing) / fs * 1000
            // Wider than an impact: kept only as a hit whose decay a compressor stretched (fast rise, longer fall).
            let rise = Double(m.peakIndex) - m.leftCrossing, fall = m.rightCrossing - Double(m.peakIndex)
            let stretched = fwhm <= 2 * p.maxImpactFWHMMs && rise / fs * 1000 <= p.maxImpactRiseMs && fall > rise
            guard fwhm <= p.maxImpactFWHMMs || stretched else { continue }
            // In prominence mode "above 3 × floor" means the event itself rises that far: from its base by
            // at least (factor − 1) × floor. Bumps on a voice or squeak plateau do not.
            if p.peakPicking == .prominence, m.prominence < (p.peakThresholdFactor - 1) * m.floor { continue }
            shaped.append(m)
        }
        // Band features: each candidate filters its own snippets, independently, so the candidates are
        // shared between threads (a tenth of a 10-minute file's time).
        var features = [SpectralFeatures.Ratios?](repeating: nil, count: shaped.count)
        if p.rejectThuds || p.requireBroadband || p.requireBody {
            let candidates = shaped
            features.withUnsafeMutableBufferPointer { out in
                let target = SendableBuffer(out)
                Split.ranges(candidates.count, pieces: candidates.count >= 32 ? Split.pieces : 1) { r in
                    for k in r {
                        target.buffer[k] = spectral.ratios(samples: samples, bandPassed: y,
                                                           onset: Int(candidates[k].onsetCrossing.rounded(.down)))
                    }
                }
            }
        }
        var kept: [(MeasuredPeak, Double?, Double?, Double?)] = []
        for (m, f) in zip(shaped, features) {
            var low: Double?, high: Double?, body: Double?
            if let f {
                // Nothing starts in-band here (the background before is as loud): a bump inside a longer
                // sound, not an onset.
                guard f.inBandTransient > 0 else { continue }
                (low, high, body) = (f.low, f.high, f.body)
                if p.rejectThuds, let low, low > p.maxLowBandRatio { continue }
            }
            kept.append((m, low, high, body))
        }
        if p.requireBroadband {
            let share = BandContent.transientShare(heights: kept.map(\.0.height), ratios: kept.map(\.2),
                                                   referencePercentile: p.amplitudeReferencePercentile,
                                                   minRatio: p.minHighBandRatio, factor: BandContent.broadbandFactor)
            broadbandShare = share
            if let share, share < BandContent.minBroadbandShare {
                // Sound up there, but not in the recording's sharp sounds: hits recorded band-limited
                // under full-band wind or crowd. The gate would reject every hit.
                p.requireBroadband = false
                notes.append("The recording's sharp sounds have almost nothing above \(Int(p.clickBandLowHz / 100) * 100) Hz, though other sound there does (hits recorded band-limited under wind or a crowd), so hits were not required to sound broadband; squeaks and tones are less well told apart.")
            } else {
                kept.removeAll { if let high = $0.2 { high < p.minHighBandRatio } else { false } }
            }
        }
        if p.requireBody {
            // A recording with nothing at 250–1000 Hz (a microphone without low tones) cannot show a hit's body.
            let content = BandContent.ratio(samples: samples, bandPassed: y, lowHz: SpectralFeatures.bodyBandLowHz,
                                            highHz: SpectralFeatures.bodyBandHighHz, sampleRate: fs)
            if let content, content < BandContent.emptyBelow {
                p.requireBody = false
                notes.append("The recording has almost no sound at 250–1000 Hz (a microphone without low tones), so hits were not required to sound full; squeaks are less well told apart.")
            } else if !BandContent.hasFullSound(heights: kept.map(\.0.height), bodies: kept.map(\.3),
                                                referencePercentile: p.amplitudeReferencePercentile,
                                                minRelativeAmplitude: p.minRelativeAmplitude) {
                // No sound of the recording has a hit's body (synthetic clicks, a filtered recording): the body
                // tells nothing here, and neither the gate nor the preference runs.
                p.requireBody = false
            } else {
                kept.removeAll { if let body = $0.3 { body < p.minBodyBandRatio } else { false } }
            }
        }

        var amplitudes = kept.map { Float($0.0.height) }
        let reference = max(Envelope.percentile(&amplitudes, p.amplitudeReferencePercentile), 1e-12)
        let weightSum = p.amplitudeWeight + p.narrownessWeight + p.symmetryWeight
        var scored: [ContactCandidate] = []
        for (m, low, high, body) in kept {
            guard m.height >= p.minRelativeAmplitude * reference else { continue }
            let fwhm = (m.rightCrossing - m.leftCrossing) / fs * 1000
            let rise = Double(m.peakIndex) - m.leftCrossing, fall = m.rightCrossing - Double(m.peakIndex)
            let symmetry = max(rise, fall) > 0 ? min(rise, fall) / max(rise, fall) : 1
            let ampScore = min(1, m.height / reference)
            let narrow = max(0, 1 - fwhm / p.maxImpactFWHMMs)
            let confidence = (p.amplitudeWeight * ampScore + p.narrownessWeight * narrow + p.symmetryWeight * symmetry) / weightSum
            guard confidence >= p.minConfidence else { continue }
            let time = p.timeReference == .onset ? m.onsetCrossing / fs : Double(m.peakIndex) / fs
            scored.append(ContactCandidate(time: time, confidence: confidence, fwhmMs: fwhm, symmetry: symmetry,
                                           amplitude: m.height, peakTime: Double(m.peakIndex) / fs,
                                           snr: m.floor > 0 ? m.height / m.floor : .greatestFiniteMagnitude,
                                           lowBandRatio: low, highBandRatio: high, bodyBandRatio: body))
        }
        let result = EarliestTransient.apply(
            MinimumGapSuppression.apply(scored, minGap: p.minGapMs / 1000) { MinimumGapSuppression.strength($0, reference: reference, body: p.requireBody) },
            candidates: scored,
            spread: p.hitSpreadMs / 1000, minRelativeAmplitude: ContactDetectorParameters.hitSpreadMinRelativeAmplitude)
        progress?("contacts", 1)
        return ContactDetection(contacts: result, notes: notes, clickBandContent: clickContent,
                                broadbandShare: broadbandShare, crestFactorDb: crest)
    }
}
