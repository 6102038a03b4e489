import Foundation
import SwingCore

/// One swing, one hit (``BiomechParameters/minHitIntervalS``): of the measured shots closer together than the
/// interval, the one with the surest hit sound (the detector's confidence) is counted and the others are
/// turned down (``RejectionKind/tooSoon``).
///
/// The sound decides, not the wrist: on the broadcast clips the wrist's speed at a heard time is noise on a
/// player 100-200 px tall (Nadal's forehand read 106 cm/s at its hit and 156 at a sound 0.53 s before it),
/// while in both pairs with a hit the hit's confidence stood above the other sound's (0.85 against a squeak's
/// 0.81, 0.81 against 0.48).
///
/// Only heard shots that were measured (``ShotStatus/ok``) and not confirmed by the player take part: a
/// contact the player counted is never turned down and turns nothing down. Ties keep the faster wrist at
/// the instant, then the earlier shot.
enum OneSwingOneHit {
    /// `shots` (time order) split into those kept (time order) and those turned down.
    static func apply(_ shots: [MeasuredShot], interval: Double) -> (kept: [MeasuredShot], turnedDown: [RejectedContact]) {
        let open = shots.indices.filter { shots[$0].shot.status == .ok && shots[$0].shot.confirmed != true }
        func evidence(_ i: Int) -> (Double, Double, Double) {
            let s = shots[i].shot
            return (s.confidence, s.wristSpeedCmS ?? 0, -s.time)
        }
        var keptTimes: [(time: Double, index: Int)] = []
        var dropped: [Int: Int] = [:]  // turned-down shot → the shot that kept its place
        for i in open.sorted(by: { evidence($0) > evidence($1) }) {
            let t = shots[i].shot.time
            if let near = keptTimes.first(where: { abs($0.time - t) < interval }) {
                dropped[i] = near.index
            } else {
                keptTimes.append((t, i))
            }
        }
        let kept = shots.indices.filter { dropped[$0] == nil }.map { shots[$0] }
        let turnedDown = dropped.keys.sorted().compactMap { i -> RejectedContact? in
            guard let j = dropped[i] else { return nil }
            return rejection(shots[i].shot, beside: shots[j].shot)
        }
        return (kept, turnedDown)
    }

    /// The turned-down contact, with the sentence a player reads.
    private static func rejection(_ s: Shot, beside hit: Shot) -> RejectedContact {
        let gap = String(format: "%.2f", abs(s.time - hit.time))
        let side = s.time > hit.time ? "after" : "before"
        let reason = "Not counted: \(gap) s \(side) a clearer hit sound, too soon for another swing; "
            + "probably a squeak, a grunt or a bounce. Count it if it was your hit."
        return RejectedContact(time: s.time, confidence: s.confidence, origin: s.origin ?? .heard, kind: .tooSoon,
                               reason: reason, peakWristSpeedCmS: s.peakWristSpeedCmS)
    }
}
