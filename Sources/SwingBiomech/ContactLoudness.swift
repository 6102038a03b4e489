import Foundation

/// Each heard contact's loudness relative to the session's loudest hits (``ContactEvent/loudnessDb``).
///
/// The reference is the 90th percentile of the contacts' amplitudes (nearest rank), so one freak sound does
/// not set it while the player's own hits — the loud cluster, the phone being near its player — do.
package enum ContactLoudness {
    /// The reference's percentile.
    package static let referencePercentile = 0.9

    /// 20·log10(amplitude / reference) for each amplitude; `nil` where an amplitude is not positive and
    /// finite, or when none is.
    package static func relativeDb(_ amplitudes: [Double]) -> [Double?] {
        let valid = amplitudes.filter { $0 > 0 && $0.isFinite }.sorted()
        guard !valid.isEmpty else { return amplitudes.map { _ in nil } }
        let rank = min(valid.count - 1, max(0, Int((referencePercentile * Double(valid.count)).rounded(.up)) - 1))
        let reference = valid[rank]
        return amplitudes.map { a in a > 0 && a.isFinite ? 20 * log10(a / reference) : nil }
    }
}
