import Foundation
import SwingCore
/// How the contact-point metrics are taken at the contact time t_c.
package enum ContactFrameMode: String, Sendable, Codable, CaseIterable {
    /// Per-frame metrics linearly interpolated to t_c between the window frames just before and after it
    /// (the default: a wrist at 10 m/s moves 17 cm between two 60 fps frames).
    case interpolate
    /// The canonical frame: the frame with the highest pose confidence among the
    /// ``BiomechParameters/bestConfidenceSearchFrames`` frames either side of the frame nearest t_c.
    /// A frame's confidence is its pose `score` when present, else the mean of its 33 landmark
    /// visibilities, else 0. Ties go to the frame nearer t_c, then the earlier one.
    case bestConfidence = "best-confidence"
}

/// Every threshold of the biomechanics, with the defaults.
package struct BiomechParameters: Sendable, Equatable {
    /// Dominant hand: picks the wrist (16 right / 15 left) and the hitting side (+r / −r).
    package var hand: Hand
    /// How long the sound arrives after the picture, subtracted from each contact's heard time to give its
    /// instant (``SoundDelay/instant(heard:)``), ms. `nil` = measure it from the player's motion
    /// (``SoundDelayEstimator``; `--sound-delay-ms auto`, the product's default); a number is used as given.
    package var soundDelayMs: Double?
    /// Swing window start, seconds before t_c (window: t_c − before ≤ t ≤ t_c + after).
    package var windowBefore: Double
    /// Swing window end, seconds after t_c.
    package var windowAfter: Double
    /// A contact with forward distance below this is "late" (cm). Equal counts as optimal.
    package var lateBelowCm: Double
    /// A contact with forward distance above this is "early" (cm). Equal counts as optimal.
    package var earlyAboveCm: Double
    /// Interpolated metrics (default) or the best-confidence frame.
    package var contactFrame: ContactFrameMode
    /// Wrist speed uses frames i − k and i + k (clamped to the track); k = this (default 3).
    package var speedHalfSpan: Int
    /// Best-confidence mode searches this many frames either side of the frame nearest t_c (default 5).
    package var bestConfidenceSearchFrames: Int
    /// Gaussian display smoothing of the swing arc: kernel length in frames (odd; default 5).
    package var arcSmoothingTaps: Int
    /// Gaussian display smoothing of the swing arc: standard deviation in frames (default 1.0).
    package var arcSmoothingSigmaFrames: Double
    /// Stroke type: a contact with the dominant wrist at least this far above the shoulders' mean height is
    /// a serve (any overhead hit), in trunk lengths (pelvis to the shoulders' midpoint, about 50 cm in an
    /// adult). A high forehand meets the ball at shoulder height, a serve 0.7–1.2 trunks above it. In body
    /// units because BlazePose's world scale follows the body it sees, not the metre: a real serve read
    /// 34 cm above the shoulders on a body posed at 0.8 of its size, and a child's or a far player's reads less.
    package var serveAboveShoulderTrunks = 0.4
    /// …and when the wrist, overhead at contact, comes down to the shoulders' height within this many seconds
    /// after it (when posed frames there say either way): a serve's arm swings down across the body at once,
    /// while a topspin forehand's follow-through stays over the shoulder. On the real broadcast clips the serves
    /// fell from 1.0–1.2 trunks above the shoulders to them within 0.12 s, and forehands measured 70–100 ms late
    /// (no sound delay measured) stayed 0.3–0.8 trunks above for 0.25 s.
    package var serveFallWithin = 0.25
    /// Stroke type: the backswing is the posed frames from this many seconds before t_c…
    package var backswingFrom = 0.6
    /// …to this many seconds before t_c. Forehand or backhand is the sign of the wrist's lateral position
    /// at contact plus its mean over the backswing: a forehand is prepared and met on the hitting side,
    /// a backhand on the other, so a contact met near the body's middle is decided by its preparation.
    package var backswingTo = 0.15
    /// Early / Optimal / Late for serves (forehands and backhands use ``lateBelowCm`` / ``earlyAboveCm``):
    /// a serve is met above the body and a little in front, so it is late only when met behind the
    /// pelvis, cm.
    package var serveLateBelowCm = 0.0
    /// A serve met further in front than this is early, cm.
    package var serveEarlyAboveCm = 60.0
    /// Early / Optimal / Late in the body's own units: the thresholds above (``lateBelowCm``, ``earlyAboveCm``
    /// and the serve's) are stated for a body whose trunk (pelvis to the shoulders' midpoint) is this long, cm,
    /// and scale with the trunk of the body measured, as the contact point itself does: BlazePose's world
    /// landmarks follow the size of the body it sees (a real player posed at 0.8 of their size reads every
    /// distance 0.8 times short), and a child meets the ball closer to the body than an adult. 0 = the
    /// thresholds are plain centimetres.
    package var thresholdTrunkCm = 50.0

    /// The swing check (docs/analysis.md, "Swing check"): a heard contact is a shot only when the dominant
    /// wrist swings around it. Off: every contact with a person is a shot (`--no-swing-check`).
    package var swingCheck = true
    /// The swing check's threshold: the wrist's peak speed relative to the pelvis must reach this, cm/s.
    /// Strokes on the synthetic tracks peak at 176–630 cm/s, a player standing, walking or split-stepping at
    /// 30–110 (BlazePose-like noise included); real groundstrokes reach several metres a second.
    package var swingMinSpeedCmS = 140.0
    /// The swing check looks for the peak among posed frames within this many seconds of t_c.
    package var swingWindow = 0.25
    /// The swing speed at a frame at time t is the wrist's displacement between t − span and t + span over
    /// the time between them (seconds)…
    package var swingSpeedSpan = 0.1
    /// …each end the mean over the posed frames within this many seconds of it, so landmark noise does not
    /// read as speed at high frame rates.
    package var swingSpeedAveraging = 0.04

    /// Who hit: a contact at least this many dB quieter than the session's loudest hits
    /// (``ContactEvent/loudnessDb``) is the opponent's unless the player's wrist peaks at its instant. On the
    /// real phone recording the player's hits peak 0–10 dB below the loudest, everything else 15.5–22.8.
    package var opponentQuieterDb = 12.0
    /// One swing, one hit: two shots closer than this, s (on the real clock), are not both the player's. The
    /// ball has to cross to the other side and come back (about 2 s between a player's hits from the
    /// baseline, 1 s and more in a drill fed from a basket), and the arm swings back and through in
    /// between; a squeak, a grunt or a bounce just before or after a hit is not. Of the two, the surer hit
    /// sound stays (``OneSwingOneHit``). Two real hits this close (reflex
    /// volleys at the net) count once; the other is listed and one tap counts it. 0 = off. On the real
    /// broadcast clips a squeak 0.49 s after Federer's backhand and two sounds 0.33 s apart before another
    /// were counted as shots.
    package var minHitIntervalS = 0.6

    /// A measured sound delay lies in this range, ms: sound travel (3 ms a metre) plus a phone's or a
    /// broadcast's own audio/video offset (40–220 ms on real recordings); a swing peak outside it is not
    /// evidence for a contact.
    package var soundDelayRangeMs: ClosedRange<Double> = -40...300
    /// Ball-on-strings relative to the wrist's reach — furthest forward, or highest in a serve
    /// (``SoundDelayEstimator``) — ms (positive: the ball is met after it). Measured on the hand-labelled
    /// real recordings (`bench/real/`, docs/analysis.md).
    package var impactAfterReachMs = 0.0
    /// A shot is evidence for the sound delay only when the wrist's peak speed around its reach is at least
    /// this, cm/s (and at least ``swingMinSpeedCmS``): the player's real strokes on the labelled recordings
    /// peak at 370–584, while a coach's hand feed beside the phone was heard with the player moving at 165.
    package var soundDelayMinSwingCmS = 250.0
    /// The camera is behind (in front of) the player when the nose is at least this far behind (ahead of) the
    /// ears in depth over the session (the median), metres; in between, the stroke's side is read in the pelvis
    /// frame (``CameraView``). Real clips: 6–14 cm behind from behind, 8 cm ahead from in front.
    package var viewNoseDepthM = 0.03
    /// A measured delay needs this many shots whose wrist peaked before the sound; fewer → no correction.
    /// One is not enough: a single window's reach has nothing to be checked against, and on the real
    /// single-hit broadcast clips it was as often 90–200 ms wrong (an earlier reach taken for the hit) as right.
    /// Two must agree within ``soundDelayOutlierMs``.
    package var soundDelayMinShots = 2
    /// The delay is measured on the loudest hits, this many at a time, until this many show a swing (at most
    /// three batches; none of the first batch showing one ends it): posing the delay range before each hit
    /// costs about a fifth of a window more, so a long session pays it on a few hits, not on all of them
    /// (``BiomechAnalyzer/soundDelayCandidates(_:parameters:)``).
    package var soundDelayEvidenceShots = 4
    /// Shots whose own delay lies further than this (or three robust standard deviations, if more) from
    /// the median are left out of the session's delay, ms.
    package var soundDelayOutlierMs = 40.0

    /// Refuse shots whose pose no body can take (``BodyCheck``: the pelvis below the feet, a wrist under the
    /// ground or beyond anyone's reach, an impossible speed). Default on;
    /// off only to compare the geometry with a reference that measures any pose.
    package var bodyCheck = true
    /// How many times slower than it was filmed the video plays (a slow-motion file; 1 = real time). The
    /// track and contacts are measured on the real clock (``RealClock``): speeds, the swing windows and the
    /// sound delay's range are real, while every time reported stays on the video's clock. The analysis
    /// reads it from the file's capture rate (`SessionAnalyzer`) or `--slow-motion`.
    package var slowMotion = 1.0
    /// The largest ``slowMotion`` accepted (a 960 fps capture played at 24 fps is 40×).
    package static let maximumSlowMotion = 64.0

    /// The delay to use without measuring: the given one, `nil` when it is to be measured.
    package var givenSoundDelay: SoundDelay? { soundDelayMs.map(SoundDelay.given) }

    /// The Early / Optimal / Late thresholds for `stroke` on a body whose trunk is `trunk` metres, cm: (late below,
    /// early above), scaled by `trunk` / ``thresholdTrunkCm`` (as stated when that is 0 or the trunk is unknown).
    package func thresholds(for stroke: StrokeType, trunk: Double) -> (lateBelowCm: Double, earlyAboveCm: Double) {
        let stated = stroke == .serve ? (serveLateBelowCm, serveEarlyAboveCm) : (lateBelowCm, earlyAboveCm)
        guard thresholdTrunkCm > 0, trunk.isFinite, trunk > 0 else { return stated }
        let k = trunk * 100 / thresholdTrunkCm
        return (stated.0 * k, stated.1 * k)
    }

    /// Whether a wrist `aboveShoulders` metres above the shoulders' mean height is an overhead hit, for a
    /// body whose trunk (pelvis to the shoulders' midpoint) is `trunk` metres: at least
    /// ``serveAboveShoulderTrunks`` trunk lengths. The one place the stroke type and the sound delay's
    /// reach decide it.
    package func isOverhead(aboveShoulders: Double, trunk: Double) -> Bool {
        trunk > 0 && aboveShoulders >= serveAboveShoulderTrunks * trunk
    }

    /// Parameters with the given values; the sound delay defaults to 0 (given) here, while the product's
    /// entry points (`analyze`, `measure`, the server) measure it (`soundDelayMs: nil`).
    package init(hand: Hand = .right, soundDelayMs: Double? = 0, windowBefore: Double = 1.0,
                windowAfter: Double = 0.5, lateBelowCm: Double = 20, earlyAboveCm: Double = 60,
                contactFrame: ContactFrameMode = .interpolate, speedHalfSpan: Int = 3,
                bestConfidenceSearchFrames: Int = 5, arcSmoothingTaps: Int = 5,
                arcSmoothingSigmaFrames: Double = 1.0) {
        self.hand = hand; self.soundDelayMs = soundDelayMs
        self.windowBefore = windowBefore; self.windowAfter = windowAfter
        self.lateBelowCm = lateBelowCm; self.earlyAboveCm = earlyAboveCm
        self.contactFrame = contactFrame; self.speedHalfSpan = speedHalfSpan
        self.bestConfidenceSearchFrames = bestConfidenceSearchFrames
        self.arcSmoothingTaps = arcSmoothingTaps; self.arcSmoothingSigmaFrames = arcSmoothingSigmaFrames
    }

    /// A sentence describing the first invalid parameter, or `nil` when all are usable.
    package var problem: String? {
        if let soundDelayMs, !soundDelayMs.isFinite { return "The sound delay must be a finite number of milliseconds." }
        if !(soundDelayRangeMs.lowerBound.isFinite && soundDelayRangeMs.upperBound.isFinite) {
            return "The sound delay's range must be finite."
        }
        if !(impactAfterReachMs.isFinite && abs(impactAfterReachMs) <= 1000) {
            return "The contact's offset from the wrist's reach must be within ±1000 ms."
        }
        if !(soundDelayMinSwingCmS.isFinite && soundDelayMinSwingCmS >= 0) {
            return "The sound delay's swing speed must be zero or more cm/s."
        }
        if !(opponentQuieterDb.isFinite && opponentQuieterDb > 0) { return "The opponent's loudness gap must be more than 0 dB." }
        if !(minHitIntervalS.isFinite && minHitIntervalS >= 0) { return "The shortest time between two hits must be zero or more seconds." }
        if soundDelayMinShots < 1 { return "A measured sound delay needs at least 1 shot." }
        if !(serveFallWithin.isFinite && serveFallWithin >= 0) { return "The serve's fall must be zero or more seconds." }
        if !(viewNoseDepthM.isFinite && viewNoseDepthM >= 0) { return "The camera view's nose depth must be zero or more metres." }
        if !(slowMotion.isFinite && slowMotion >= 1 && slowMotion <= Self.maximumSlowMotion) {
            return "The slow-motion factor must be between 1 (real time) and \(Int(Self.maximumSlowMotion)) (how many times slower the video plays than it was filmed)."
        }
        if soundDelayEvidenceShots < 1 { return "The sound delay is measured on at least 1 shot at a time." }
        if !(soundDelayOutlierMs.isFinite && soundDelayOutlierMs >= 0) { return "The sound delay's outlier limit must be zero or more ms." }
        if !(windowBefore.isFinite && windowBefore >= 0) || !(windowAfter.isFinite && windowAfter >= 0) {
            return "The swing window bounds must be zero or more seconds."
        }
        if !(lateBelowCm.isFinite && earlyAboveCm.isFinite && lateBelowCm <= earlyAboveCm) {
            return "The late threshold (\(lateBelowCm) cm) must not exceed the early threshold (\(earlyAboveCm) cm)."
        }
        if !(thresholdTrunkCm.isFinite && thresholdTrunkCm >= 0 && thresholdTrunkCm <= 500) {
            return "The trunk length the thresholds are stated for must be 0 (plain centimetres) to 500 cm."
        }
        if speedHalfSpan < 1 { return "The wrist-speed half span must be at least 1 frame." }
        if bestConfidenceSearchFrames < 0 { return "The best-confidence search span must be 0 or more frames." }
        if arcSmoothingTaps < 1 || arcSmoothingTaps % 2 == 0 { return "The arc smoothing length must be an odd number of frames." }
        if !(arcSmoothingSigmaFrames > 0 && arcSmoothingSigmaFrames.isFinite) { return "The arc smoothing sigma must be positive." }
        if !(serveAboveShoulderTrunks.isFinite && serveAboveShoulderTrunks >= 0) {
            return "The serve height above the shoulders must be zero or more trunk lengths."
        }
        if !(backswingFrom.isFinite && backswingTo.isFinite && backswingFrom >= backswingTo && backswingTo >= 0) {
            return "The backswing must start at or before it ends, both zero or more seconds before the contact."
        }
        if !(serveLateBelowCm.isFinite && serveEarlyAboveCm.isFinite && serveLateBelowCm <= serveEarlyAboveCm) {
            return "The serve's late threshold (\(serveLateBelowCm) cm) must not exceed its early threshold (\(serveEarlyAboveCm) cm)."
        }
        if !(swingMinSpeedCmS.isFinite && swingMinSpeedCmS >= 0) { return "The swing check's speed must be zero or more cm/s." }
        if !(swingWindow.isFinite && swingWindow >= 0) { return "The swing check's window must be zero or more seconds." }
        if !(swingSpeedSpan.isFinite && swingSpeedSpan > 0 && swingSpeedAveraging.isFinite && swingSpeedAveraging >= 0
             && swingSpeedAveraging < swingSpeedSpan) {
            return "The swing speed's span must be positive and longer than its averaging."
        }
        return nil
    }
}

extension BiomechParameters: Codable {
    /// The parameters as JSON (sorted keys), as a stored session keeps them (``fromJSON(_:)`` reads it).
    package var json: String {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        return (try? enc.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Parameters stored by ``json``: keys it lacks (parameters added since it was written) take today's
    /// defaults, so a session stored years ago still re-measures.
    /// - Throws: ``BiomechError/invalidTrack(_:)`` when `text` is not a JSON object of parameters.
    package static func fromJSON(_ text: String) throws -> BiomechParameters {
        let defaults = (try? JSONEncoder().encode(BiomechParameters())).flatMap {
            try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
        } ?? [:]
        guard let stored = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw BiomechError.invalidTrack("The stored measurement parameters are not a JSON object.")
        }
        let merged = defaults.merging(stored) { _, new in new }
        do {
            return try JSONDecoder().decode(BiomechParameters.self, from: JSONSerialization.data(withJSONObject: merged))
        } catch {
            throw BiomechError.invalidTrack("The stored measurement parameters cannot be read (\(MeasureIO.summary(error))).")
        }
    }
}
