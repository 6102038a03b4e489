import Foundation
import SwingCore

/// What a session says about slow motion (docs/analysis.md, "Slow motion"): a slow-motion file plays its
/// swings several times slower than they happened, so speeds read from its clock are several times too low
/// and the swing check turns real strokes down. When the file states its capture rate (Android's
/// `com.android.capture.fps`), or the player gives `--slow-motion`, the session is measured on the real clock
/// (``RealClock``) and says so; when nothing says so but the wrist makes strokes' movements at no stroke's
/// speed, the session says the speeds may not be real.
package enum SlowMotionCheck {
    /// The sentence for a session measured `factor` times slower than real time (`nil` for real time): filmed
    /// at `captureRate` and played at `playbackRate` when the file says so, else given by the player.
    package static func note(factor: Double, captureRate: Double?, playbackRate: Double) -> String? {
        guard factor > 1 else { return nil }
        let times = String(format: "%g", (factor * 10).rounded() / 10)
        if let captureRate {
            return "Slow motion: filmed at \(Int(captureRate.rounded())) fps and played at \(Int(playbackRate.rounded())) (\(times)× slower); speeds are on the real clock."
        }
        return "Slow motion (--slow-motion \(times)): the video plays \(times)× slower than it was filmed; speeds are on the real clock."
    }

    /// The warning for a session measured in real time in which at least ``minimumStrokes`` contacts show a
    /// stroke's movement played slowly — the wrist travelling ``strokeExcursionCm`` or more relative to the pelvis
    /// within the swing window, so slowly that the distance takes ``slowMovementSeconds`` or more at its peak
    /// speed — yet no contact's swing reached ``fastestBelowCmS``: real strokes on our labelled recordings peak at
    /// 370–584 cm/s, slow-motion footage of them at 99–129, while a player standing or walking moves the wrist
    /// less, or quickly for its distance. `nil` otherwise.
    package static func suspicion(_ result: MeasureResult, track: PoseTrack, parameters p: BiomechParameters) -> String? {
        guard p.slowMotion == 1 else { return nil }
        let peaks = result.shots.compactMap(\.peakWristSpeedCmS) + result.rejected.compactMap(\.peakWristSpeedCmS)
        guard let fastest = peaks.max(), fastest < fastestBelowCmS else { return nil }
        let posed = track.samples.enumerated().compactMap { i, s in FrameMeasure(sample: s, trackIndex: i, hand: p.hand) }
        let contacts = result.shots.map { ($0.contactTime, $0.peakWristSpeedCmS) } + result.rejected.map { ($0.time, $0.peakWristSpeedCmS) }
        let strokes = contacts.filter { t, peak in
            guard let peak, peak > 0 else { return false }
            let window = posed.filter { $0.time >= t - p.windowBefore && $0.time <= t + p.windowAfter }.map(\.wristFromPelvis)
            let cm = excursion(window) * 100
            return cm >= strokeExcursionCm && cm / peak >= slowMovementSeconds
        }
        guard strokes.count >= minimumStrokes else { return nil }
        return "No swing in this video was faster than \(Int(fastest.rounded())) cm/s, though the wrist moved as in a stroke, where a stroke's wrist reaches \(Int(p.soundDelayMinSwingCmS.rounded())) or more: if it is slow motion, its speeds are not real and strokes are turned down as no swing; analyse it again with --slow-motion N (how many times slower it plays than it was filmed)."
    }

    /// The largest distance between two of `points`, in their unit.
    static func excursion(_ points: [Vec3]) -> Double {
        var best = 0.0
        for i in points.indices { for j in points.indices where j > i { best = max(best, (points[i] - points[j]).length) } }
        return best
    }

    /// No swing of a slowed session reaches this, cm/s: real strokes peak at 370–584 on our labelled recordings,
    /// played 4× slower at most 160, and the demo clip's walkers swing their arms at up to 248.
    package static let fastestBelowCmS = 170.0
    /// Contacts that must show a stroke's movement before a session can look slowed.
    package static let minimumStrokes = 2
    /// A stroke moves the wrist at least this far relative to the pelvis within the swing window, cm (the
    /// generated strokes 80–130 in real time and 35–55 played 8× slower, within a window then 8× shorter;
    /// an arm swinging ±15 cm in walking 32).
    package static let strokeExcursionCm = 35.0
    /// …and so slowly that at its peak speed the distance takes at least this long, s (a stroke in real time
    /// about 0.2, walking 0.3, strokes played 3–8× slower 0.6–2).
    package static let slowMovementSeconds = 0.45
}
