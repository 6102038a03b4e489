import Foundation
import SwingCore

/// How far a recording's sound lags its picture, and where that number came from.
///
/// A hit is heard after the frame where the ball is on the strings: sound travels about 3 ms a metre,
/// and a phone or a broadcast adds its own audio/video offset (40–220 ms measured on real recordings).
/// Every shot is measured at its **instant** — the heard time minus this delay, on the video clock — and
/// ``instant(heard:)`` is the one place that computes it. The session document keeps the value, so an
/// edit measures a new contact at the same offset.
package struct SoundDelay: Codable, Sendable, Equatable {
    /// Where ``ms`` came from.
    package enum Source: String, Codable, Sendable, CaseIterable {
        /// Measured from the player's own motion at the session's confident shots.
        case measured
        /// Given by the user (`--sound-delay-ms N`) or kept from an earlier analysis of the session.
        case given
        /// No correction: asked to measure, but the body gave no evidence (``reason`` says why).
        case none
    }

    /// Milliseconds the sound arrives after the picture (negative: before it).
    package var ms: Double
    package var source: Source
    /// For a measured delay: the spread of the shots' own delays around it (1.4826 × their median absolute
    /// deviation, the standard deviation's robust estimate), ms; `nil` with fewer than three shots.
    package var spreadMs: Double?
    /// The shots whose body gave evidence / the contacts that were asked (also when too few gave it to measure).
    package var shotsUsed: Int?
    package var shotsAsked: Int?
    /// For ``Source/none``: why nothing was measured, one sentence.
    package var reason: String?

    /// A delay the user gave (or a stored session kept).
    package static func given(_ ms: Double) -> SoundDelay { SoundDelay(ms: ms, source: .given) }

    /// No correction, with the reason.
    package static func none(_ reason: String) -> SoundDelay { SoundDelay(ms: 0, source: .none, reason: reason) }

    package init(ms: Double, source: Source, spreadMs: Double? = nil, shotsUsed: Int? = nil, shotsAsked: Int? = nil,
                reason: String? = nil) {
        self.ms = ms; self.source = source; self.spreadMs = spreadMs
        self.shotsUsed = shotsUsed; self.shotsAsked = shotsAsked; self.reason = reason
    }

    /// The instant a contact heard at `heard` (media time, seconds) happened on the video clock: the one
    /// place a shot's instant is decided.
    package func instant(heard: Double) -> Double { heard - ms / 1000 }

    /// The sentence a player reads: "Sound arrives 136 ms after the picture (±12 ms over 9 shots); corrected."
    package var summary: String {
        let value = Int(ms.rounded())
        let lag = value >= 0 ? "\(value) ms after" : "\(-value) ms before"
        switch source {
        case .measured:
            var detail: [String] = []
            if let spreadMs { detail.append("±\(Int(spreadMs.rounded())) ms") }
            if let shotsUsed { detail.append("measured on \(shotsUsed) shot\(shotsUsed == 1 ? "" : "s")") }
            return "Sound arrives \(lag) the picture" + (detail.isEmpty ? "" : " (\(detail.joined(separator: ", ")))")
                + "; corrected."
        case .given:
            return value == 0 ? "Shots measured at the heard time (sound delay set to 0 ms)."
                : "Sound delay set to \(value) ms; shots measured \(value) ms before they were heard."
        case .none:
            return "Shots measured at the heard time: " + (reason ?? "the sound delay was not measured.")
        }
    }
}
