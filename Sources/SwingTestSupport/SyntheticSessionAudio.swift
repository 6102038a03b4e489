import Foundation

/// A deterministic generator of realistic tennis-session audio with known contact times, used by the
/// test suite, the benchmark and the demo (no recordings needed, no Python needed).
///
/// Truth: a *player's contact* is the first sample of an impact click. Sounds that are not the player's
/// contacts: ball bounces, shoe squeaks, voices/grunts, wind, ambience, and **distant hits** (other
/// courts / the opponent 20+ m away, 22–32 dB quieter and muffled) — the detector is expected to ignore
/// them, and the suite scores them as false positives.
package struct SyntheticSessionAudio: Sendable {
    /// Which sounds are mixed in besides the player's impacts.
    package struct Condition: Sendable, Equatable, Hashable, CustomStringConvertible {
        package var ambience: Bool, wind: Bool, bounces: Bool, squeaks: Bool, voices: Bool, distantHits: Bool
        package let name: String
        /// Impacts only (plus −90 dB dither so the floor is not exactly zero).
        package static let clean = Condition(name: "clean")
        /// Court ambience (pink-ish noise with slow level changes).
        package static let ambience = Condition(name: "ambience", ambience: true)
        /// Ambience + strong gusting wind rumble.
        package static let wind = Condition(name: "wind", ambience: true, wind: true)
        /// Quiet court with loud ball bounces (the case where thuds leak into the band).
        package static let bounces = Condition(name: "bounces", bounces: true)
        /// Ambience + shoe squeaks.
        package static let squeaks = Condition(name: "squeaks", ambience: true, squeaks: true)
        /// Ambience + voices and grunts (some right after the contact).
        package static let voices = Condition(name: "voices", ambience: true, voices: true)
        /// Ambience + distant hits from other courts.
        package static let distant = Condition(name: "distant", ambience: true, distantHits: true)
        /// Everything at once.
        package static let mixed = Condition(name: "mixed", ambience: true, wind: true, bounces: true, squeaks: true,
                                            voices: true, distantHits: true)
        /// Every named condition.
        package static let all: [Condition] = [.clean, .ambience, .wind, .bounces, .squeaks, .voices, .distant, .mixed]

        package init(name: String, ambience: Bool = false, wind: Bool = false, bounces: Bool = false,
                    squeaks: Bool = false, voices: Bool = false, distantHits: Bool = false) {
            self.name = name; self.ambience = ambience; self.wind = wind; self.bounces = bounces
            self.squeaks = squeaks; self.voices = voices; self.distantHits = distantHits
        }
        package var description: String { name }
    }

    /// A generated track.
    package struct Track: Sendable {
        package var samples: [Float]
        package var sampleRate: Double
        /// Player's contact times (s): the first sample of each impact click.
        package var contactTimes: [Double]
        /// Distractor events (kind, time) for diagnostics.
        package var distractors: [(kind: String, time: Double)]
    }

    package var duration: Double
    package var sampleRate: Double
    package var seed: UInt64
    package var condition: Condition

    /// - Parameters:
    ///   - duration: seconds of audio.
    ///   - sampleRate: samples per second.
    ///   - seed: the same seed always gives the same track.
    ///   - condition: which distractors to mix in.
    package init(duration: Double, sampleRate: Double = 44_100, seed: UInt64, condition: Condition) {
        self.duration = duration; self.sampleRate = sampleRate; self.seed = seed; self.condition = condition
    }

    /// Renders the track.
    package func render() -> Track {
        var rng = SplitMix64(seed: seed &+ UInt64(truncatingIfNeeded: condition.name.hashValueStable))
        let fs = sampleRate
        let n = max(0, Int(duration * fs))
        var out = [Float](repeating: 0, count: n)
        var s = SoundSynth(sampleRate: fs)
        var truth: [Double] = []
        var distractors: [(String, Double)] = []

        // Rally: the player hits every 1.3–3.2 s; the ball bounces on the player's side 0.45–0.9 s before
        // each hit, the opponent's (distant) hit lands mid-way between two of the player's hits.
        var t = 0.6 + rng.uniform(0, 0.6)
        while t < duration - 0.3 {
            let i0 = Int((t * fs).rounded())
            s.impact(into: &out, at: i0, amplitude: rng.uniform(0.35, 0.9), rng: &rng)
            truth.append(Double(i0) / fs)
            if condition.bounces, t > 1.0, rng.uniform(0, 1) < 0.9 {
                let tb = t - rng.uniform(0.45, 0.9)
                s.bounce(into: &out, at: Int(tb * fs), amplitude: rng.uniform(0.3, 0.8), rng: &rng)
                distractors.append(("bounce", tb))
            }
            if condition.voices, rng.uniform(0, 1) < 0.4 {
                let tv = t + rng.uniform(0.06, 0.2)  // grunts follow the contact
                s.voice(into: &out, at: Int(tv * fs), amplitude: rng.uniform(0.1, 0.35), rng: &rng)
                distractors.append(("grunt", tv))
            }
            let gap = rng.uniform(1.3, 3.2)
            if condition.distantHits, rng.uniform(0, 1) < 0.8 {
                let td = t + gap * rng.uniform(0.4, 0.6)
                s.distantHit(into: &out, at: Int(td * fs), amplitude: rng.uniform(0.015, 0.045), rng: &rng)
                distractors.append(("distant", td))
            }
            if condition.squeaks, rng.uniform(0, 1) < 0.7 {
                let tq = t + gap * rng.uniform(0.25, 0.75)
                s.squeak(into: &out, at: Int(tq * fs), amplitude: rng.uniform(0.08, 0.3), rng: &rng)
                distractors.append(("squeak", tq))
            }
            if condition.voices, rng.uniform(0, 1) < 0.3 {
                let tv = t + gap * rng.uniform(0.3, 0.6)  // a call ("out!", coach)
                s.voice(into: &out, at: Int(tv * fs), amplitude: rng.uniform(0.1, 0.3), rng: &rng)
                distractors.append(("voice", tv))
            }
            t += gap
        }
        if condition.ambience { s.ambience(into: &out, level: rng.uniform(0.004, 0.012), rng: &rng) }
        if condition.wind { s.wind(into: &out, level: rng.uniform(0.08, 0.2), rng: &rng) }
        for i in 0..<n { out[i] += Float(rng.gaussian() * 3e-5) }  // dither
        return Track(samples: out, sampleRate: fs, contactTimes: truth, distractors: distractors)
    }
}

extension String {
    /// FNV-1a: a hash that does not change between runs (Swift's `hashValue` is seeded per process).
    var hashValueStable: UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }
}

