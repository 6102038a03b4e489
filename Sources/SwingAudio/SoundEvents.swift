import Dispatch
import Foundation
import SwingCore

/// A sound in a recording that might be a hit, with the gain-invariant features a ``ContactModel``
/// reads (``SoundEvents``).
package struct SoundEvent: Sendable, Equatable {
    /// Time of the envelope peak that marked it, s from the first sample.
    package var time: Double
    /// ``SoundEvents/featureCount`` numbers, in the order ``SoundEvents/featureNames`` lists.
    package var features: [Float]

    /// Memberwise initialiser.
    package init(time: Double, features: [Float]) { self.time = time; self.features = features }
}

/// Finds every sound that could be a hit and describes it by ratios a compressor or automatic gain
/// control does not rewrite (docs/contacts.md, "Learning the player's own racket"). The Python reference
/// is `tools/reference_events.py`; the two agree event for event.
///
/// - Events: every peak of three envelopes over their running median (1–4 kHz and 2–8 kHz, 5 ms and
///   two passes; 300 Hz–0.45·fs, 2 ms and one pass) that is above 1.3 × that median and the largest
///   within ±15 ms, merged within 20 ms (the stronger by summed ratio stays), 0.15 s from the start and
///   0.1 s from the end.
/// - Features, all in dB or ranks: per octave band 125 Hz–16 kHz the event [−12, +20] ms, the attack
///   [−6, +2] ms and the after-sound [+30, +90] ms over the background [−130, −30] ms; the event's
///   spectral shape (each band's level over the loudest band's); the high-passed samples' peak over the
///   background's; the broadband event over its background; the three envelopes over their floors
///   (natural log); and the rank within the recording of the broadband contrast and of the broadband
///   envelope's ratio.
package enum SoundEvents {
    /// Names this version of the features in a saved ``ContactModel``; a model made for another is refused.
    package static let version = "sound-events-1"
    /// Octave bands whose contrasts describe an event, Hz.
    static let bands: [(low: Double, high: Double)] = [(125, 250), (250, 500), (500, 1000), (1000, 2000),
                                                       (2000, 4000), (4000, 8000), (8000, 16000)]
    /// Windows around an event, ms.
    static let background = (-130.0, -30.0), event = (-12.0, 20.0), attack = (-6.0, 2.0), after = (30.0, 90.0)
    /// A peak must stand this many times over its envelope's floor.
    static let minimumRatio: Float = 1.3
    /// Peaks closer than this are one event, s.
    static let merge = 0.020
    /// A peak must be the largest within ± this, s.
    static let neighbourhood = 0.015

    /// Names of the features, in order (``featureCount`` of them).
    package static let featureNames: [String] = {
        let names = bands.map { "\(Int($0.low))-\(Int($0.high))Hz" }
        return names.flatMap { ["\($0) event dB", "\($0) attack dB", "\($0) after dB"] }
            + names.map { "\($0) level below loudest dB" }
            + ["sample peak dB", "broadband event dB", "ln 1-4kHz ratio", "ln 2-8kHz ratio", "ln broadband ratio",
               "broadband event rank", "broadband ratio rank"]
    }()
    /// Numbers per event.
    package static var featureCount: Int { featureNames.count }

    /// Every event of a mono recording, in time order.
    /// - Throws: ``AudioError`` when the sample rate is below 8 kHz or a sample is not finite.
    package static func extract(samples x: [Float], sampleRate fs: Double) throws -> [SoundEvent] {
        guard fs.isFinite, fs >= 8000 else { throw AudioError.invalidSampleRate(fs) }
        if let bad = x.firstIndex(where: { !$0.isFinite }) { throw AudioError.nonFiniteSamples(index: bad) }
        guard Double(x.count) > 0.3 * fs else { return [] }
        return x.withUnsafeBufferPointer { extract($0, fs) }
    }

    /// The three envelopes, in the order of their features: 1–4 kHz, 2–8 kHz, broadband.
    static func envelopes(_ fs: Double) -> [EventEnvelope] {
        [EventEnvelope(lowHz: 1000, highHz: 4000, order: 4, ms: 5, passes: 2, sampleRate: fs),
         EventEnvelope(lowHz: 2000, highHz: 8000, order: 4, ms: 5, passes: 2, sampleRate: fs),
         EventEnvelope(lowHz: 300, highHz: 0.45 * fs, order: 2, ms: 2, passes: 1, sampleRate: fs)]
    }

    /// The events' samples and their three envelope ratios (``EventEnvelope``), then their features.
    ///
    /// Memory: the recording, the broadband signal (its features need it) and one work buffer, reused for
    /// every other band. The broadband envelope goes first, then 1–4 kHz, then 2–8 kHz; each band's ratios
    /// are read at its own peaks and at every earlier band's before the buffer is reused. What is left: the
    /// broadband ratio at the other two bands' peaks, from the kept broadband signal, and the 1–4 kHz ratio at
    /// the 2–8 kHz band's own peaks (a few hundred), from a padded segment of the recording around each.
    private static func extract(_ x: UnsafeBufferPointer<Float>, _ fs: Double) -> [SoundEvent] {
        let n = x.count
        let envelopes = envelopes(fs)
        var wide: [Float] = [], work: [Float] = []
        let wideRange = envelopes[2].bandPass(x, into: &wide)
        var ratios = [[Int: Float]](repeating: [:], count: 3), picks = [[Int]](repeating: [], count: 3)
        var floors = [EventEnvelope.Floor?](repeating: nil, count: 3)
        let radius = Int(neighbourhood * fs)
        for b in [2, 0, 1] {
            let r = b == 2 ? 0..<n : envelopes[b].bandPass(x, into: &work)
            if b == 2, work.count < n { work = [Float](unsafeUninitializedCapacity: n) { _, c in c = n } }
            wide.withUnsafeBufferPointer { w in
                work.withUnsafeMutableBufferPointer { buffer in
                    let v = UnsafeMutableBufferPointer(rebasing: buffer[r])
                    floors[b] = envelopes[b].ratiosInPlace(v, band: b == 2 ? UnsafeBufferPointer(rebasing: w[wideRange]) : nil)
                    picks[b] = localMaxima(UnsafeBufferPointer(v), radius: radius, above: minimumRatio)
                    for i in picks.joined() { ratios[b][i] = v[i] }
                }
            }
        }
        // The broadband ratio at the other bands' peaks, from the broadband signal kept whole.
        if let floor = floors[2] {
            wide.withUnsafeBufferPointer { w in
                let y = UnsafeBufferPointer(rebasing: w[wideRange])
                for i in picks[0] + picks[1] where ratios[2][i] == nil {
                    ratios[2][i] = envelopes[2].ratio(at: i, band: y, start: 0, n: n, floor: floor)
                }
            }
        }
        // The 1–4 kHz ratio at the 2–8 kHz band's own peaks, from short segments of the recording.
        let missing = Set(picks[1].filter { ratios[0][$0] == nil }).sorted()
        if let floor = floors[0], !missing.isEmpty {
            for (i, v) in zip(missing, envelopes[0].ratios(at: missing, samples: x, floor: floor)) { ratios[0][i] = v }
        }

        let picked = Set(picks.joined()).sorted()
        func strength(_ i: Int) -> Float { (ratios[0][i] ?? 0) + (ratios[1][i] ?? 0) + (ratios[2][i] ?? 0) }
        var merged: [Int] = []
        for i in picked {
            if let last = merged.last, Double(i - last) < merge * fs {
                if strength(i) > strength(last) { merged[merged.count - 1] = i }
            } else {
                merged.append(i)
            }
        }
        let index = merged.filter { Double($0) > 0.15 * fs && Double($0) < Double(n) - 0.1 * fs }
        guard !index.isEmpty else { return [] }
        let envelopeRatios = index.map { i in (0..<3).map { ratios[$0][i] ?? 0 } }
        return features(x, fs, index: index, wide: &wide, wideRange: wideRange, work: &work, ratios: envelopeRatios)
    }

    /// Zero-phase Butterworth band-pass (upper corner capped at 0.45·fs); nil (silence) when the band closes.
    static func bandFilter(_ fs: Double, _ low: Double, _ high: Double, order: Int) -> ZeroPhaseFilter? {
        let high = min(high, 0.45 * fs)
        guard high > 1.2 * low else { return nil }
        return ZeroPhaseFilter(sections: Butterworth.bandPass(order: order, lowHz: low, highHz: high, sampleRate: fs))
    }

    /// `x` through `filter` into `buffer` (``ZeroPhaseFilter/apply(_:into:)``), or silence without one;
    /// the output is `buffer[range]`.
    static func bandPass(_ x: UnsafeBufferPointer<Float>, _ filter: ZeroPhaseFilter?, into buffer: inout [Float]) -> Range<Int> {
        if let filter { return filter.apply(x, into: &buffer) }
        if buffer.count < x.count { buffer = [Float](repeating: 0, count: x.count) }
        buffer.withUnsafeMutableBufferPointer { $0[0..<x.count].initialize(repeating: 0) }
        return 0..<x.count
    }

    /// Indices where `v` is above `level` and the largest within ±`radius` (equal neighbours allowed). Only
    /// a sample above `level` and at least its two neighbours can be one; each such is checked against the
    /// maxima of the 64-sample blocks its window spans (the window clipped to the signal). Long signals run
    /// in ``Split/pieces`` pieces on separate threads; the indices do not depend on the split.
    static func localMaxima(_ v: UnsafeBufferPointer<Float>, radius: Int, above level: Float) -> [Int] {
        let n = v.count, pieces = n >= 1 << 16 ? Split.pieces : 1
        guard n > 0 else { return [] }
        let block = 64
        var blockMax = [Float](repeating: 0, count: (n + block - 1) / block)
        blockMax.withUnsafeMutableBufferPointer { m in
            let out = SendableBuffer(m), values = SendableBuffer(UnsafeMutableBufferPointer(mutating: v))
            Split.ranges(m.count, pieces: pieces) { r in
                for b in r {
                    var top = -Float.infinity
                    for j in (b * block)..<min(n, (b + 1) * block) { top = max(top, values.buffer[j]) }
                    out.buffer[b] = top
                }
            }
        }
        let bounds = (0...pieces).map { n * $0 / pieces }
        var found = [[Int]](repeating: [], count: pieces)
        found.withUnsafeMutableBufferPointer { f in
            blockMax.withUnsafeMutableBufferPointer { m in
                let out = SendableBuffer(f), tops = SendableBuffer(m)
                let values = SendableBuffer(UnsafeMutableBufferPointer(mutating: v))
                DispatchQueue.concurrentPerform(iterations: pieces) { k in
                    out.buffer[k] = localMaxima(UnsafeBufferPointer(values.buffer), UnsafeBufferPointer(tops.buffer),
                                                block: block, bounds[k]..<bounds[k + 1], radius, level)
                }
            }
        }
        return found.flatMap { $0 }
    }

    private static func localMaxima(_ v: UnsafeBufferPointer<Float>, _ blockMax: UnsafeBufferPointer<Float>, block: Int,
                                    _ range: Range<Int>, _ radius: Int, _ level: Float) -> [Int] {
        let n = v.count
        func windowMax(_ a: Int, _ b: Int) -> Float {  // max of v[a...b]
            var top = -Float.infinity, j = a
            while j <= b, j % block != 0 { top = max(top, v[j]); j += 1 }
            while j + block - 1 <= b { top = max(top, blockMax[j / block]); j += block }
            while j <= b { top = max(top, v[j]); j += 1 }
            return top
        }
        var picks: [Int] = []
        for i in range where v[i] > level {
            guard i == 0 || v[i] >= v[i - 1], i == n - 1 || v[i] >= v[i + 1] else { continue }
            if v[i] >= windowMax(max(0, i - radius), min(n - 1, i + radius)) { picks.append(i) }
        }
        return picks
    }
}
