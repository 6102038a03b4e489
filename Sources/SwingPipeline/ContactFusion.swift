import SwingCore

/// A contact candidate on the media timeline from any source (audio onset, visual racket–ball event).
package struct TimedContact: Sendable, Equatable, Codable {
    /// Seconds from the start of the media.
    package var time: Double
    /// Confidence in [0, 1].
    package var confidence: Double
    package init(time: Double, confidence: Double) { self.time = time; self.confidence = confidence }
}

/// A fused contact and where its evidence came from.
package struct FusedContact: Sendable, Equatable, Codable {
    /// Audio time when audio heard it (44.1 kHz is far finer than a video frame), else the visual time.
    package var time: Double
    /// Noisy-OR of the matched confidences, `1 − (1 − a)(1 − v)`; the single source's confidence otherwise.
    package var confidence: Double
    package var source: ContactSource
    /// Visual time − audio time for matched pairs (seconds), `nil` otherwise.
    package var offset: Double?
    /// Which input it came from: the index into `audio` (`both`, `audio`) and into `visual` (`both`,
    /// `visual`), so callers map back without comparing times.
    package var audioIndex: Int? = nil
    package var visualIndex: Int? = nil
}

/// Options for ``fuseContacts(audio:visual:tolerance:options:)``.
package struct ContactFusionOptions: Sendable, Equatable {
    /// Keep visual-only contacts at or above this confidence (the camera saw a hit the microphone missed,
    /// e.g. under loud wind). Default 0.6; set above 1 to drop every visual-only contact.
    package var visualOnlyMinimumConfidence: Double = 0.6
    /// Keep audio-only contacts at or above this confidence. Default 0 (audio is the primary detector).
    package var audioOnlyMinimumConfidence: Double = 0
    package init() {}
}

/// Fuses audio contacts with visual (racket–ball) contacts.
///
/// Rule: pairs are matched one-to-one, closest first (global greedy on |Δt|; ties go to the earlier
/// audio contact), and only when |Δt| ≤ `tolerance`. A matched pair becomes one `both` contact at the
/// audio time with noisy-OR confidence. Unmatched audio contacts are kept (`audio`) when at least
/// `audioOnlyMinimumConfidence`; unmatched visual ones (`visual`) when at least
/// `visualOnlyMinimumConfidence`. Output is sorted by time.
///
/// - Parameters:
///   - audio: audio contacts (any order).
///   - visual: visual contact events (any order), e.g. ``TennisContactInterpreter/Event`` times.
///   - tolerance: maximum |Δt| in seconds to call two detections the same hit. A good value is about
///     two processed-frame intervals (vid-stride 3 at 60 fps → 0.1 s).
///   - options: which single-source contacts survive.
/// - Complexity: O(a·v·log(a·v)).
package func fuseContacts(audio: [TimedContact], visual: [TimedContact], tolerance: Double,
                         options: ContactFusionOptions = .init()) -> [FusedContact] {
    var pairs: [(dt: Double, a: Int, v: Int)] = []
    for (i, a) in audio.enumerated() {
        for (j, v) in visual.enumerated() {
            let dt = abs(v.time - a.time)
            if dt <= tolerance { pairs.append((dt, i, j)) }
        }
    }
    pairs.sort { $0.dt != $1.dt ? $0.dt < $1.dt : ($0.a != $1.a ? $0.a < $1.a : $0.v < $1.v) }
    var audioUsed = [Bool](repeating: false, count: audio.count)
    var visualUsed = [Bool](repeating: false, count: visual.count)
    var out: [FusedContact] = []
    for p in pairs where !audioUsed[p.a] && !visualUsed[p.v] {
        audioUsed[p.a] = true; visualUsed[p.v] = true
        let a = audio[p.a], v = visual[p.v]
        out.append(FusedContact(time: a.time, confidence: 1 - (1 - a.confidence) * (1 - v.confidence),
                                source: .both, offset: v.time - a.time, audioIndex: p.a, visualIndex: p.v))
    }
    for (i, a) in audio.enumerated() where !audioUsed[i] && a.confidence >= options.audioOnlyMinimumConfidence {
        out.append(FusedContact(time: a.time, confidence: a.confidence, source: .audio, offset: nil, audioIndex: i))
    }
    for (j, v) in visual.enumerated() where !visualUsed[j] && v.confidence >= options.visualOnlyMinimumConfidence {
        out.append(FusedContact(time: v.time, confidence: v.confidence, source: .visual, offset: nil, visualIndex: j))
    }
    return out.sorted { $0.time < $1.time }
}
