import Foundation
import SwingTestSupport


/// The `pose --json` / `contacts --json` shapes, for writing generated inputs.
struct TrackJSON: Encodable {
    struct Point: Encodable { var x, y, z: Double }
    struct Image: Encodable { var x, y: Double; var visibility: Double }
    struct Frame: Encodable { var index: Int; var time: Double; var score: Double?; var landmarks: [Image]; var worldLandmarks: [Point] }
    var frames: [Frame]
}

struct ContactsJSON: Encodable {
    struct Contact: Encodable { var time, confidence: Double }
    var contacts: [Contact]
}

/// One generated case: a plausible swinging skeleton (turning body, tilted and noisy hips, a wrist on a
/// swing circle, uneven feet, ~5 % frames without a person, jittered frame times) and contacts, some
/// outside the track.
struct RandomCase {
    var track: TrackJSON
    var contacts: ContactsJSON
    var hand: String
    var soundDelayMs: Double
    var contactFrame: String

    init(rng: inout SplitMix64) {
        let fps = [30.0, 60.0, 120.0, 240.0][rng.int(0...3)]
        let duration = fps >= 240 ? rng.uniform(1.5, 2.0) : rng.uniform(2.0, 4.0)
        let start = rng.uniform(0, 100)
        let count = Int(duration * fps)
        let useScore = rng.int(0...1) == 0
        let heading0 = rng.uniform(-Double.pi, Double.pi)
        let swingPeriod = rng.uniform(1.0, 2.5)
        let halfWidth = rng.uniform(0.09, 0.15)
        var pelvis = (x: rng.uniform(-0.05, 0.05), y: rng.uniform(-0.05, 0.05), z: rng.uniform(-0.05, 0.05))
        var frames: [TrackJSON.Frame] = []
        for i in 0..<count {
            let t = start + (Double(i) + rng.uniform(-0.1, 0.1)) / fps
            if rng.uniform() < 0.05 {
                frames.append(.init(index: i, time: t, score: useScore ? 0 : nil, landmarks: [], worldLandmarks: []))
                continue
            }
            pelvis.x += rng.uniform(-0.002, 0.002); pelvis.z += rng.uniform(-0.002, 0.002)
            let heading = heading0 + 0.6 * sin(2 * .pi * (t - start) / swingPeriod)
            let r = (x: cos(heading), z: sin(heading))
            let f = (x: -sin(heading), z: cos(heading))   // u × r with u = −y
            // body (forward a, right b, up c) → world (y down).
            func world(_ a: Double, _ b: Double, _ c: Double) -> TrackJSON.Point {
                .init(x: pelvis.x + a * f.x + b * r.x + rng.uniform(-0.01, 0.01),
                      y: pelvis.y - c + rng.uniform(-0.01, 0.01),
                      z: pelvis.z + a * f.z + b * r.z + rng.uniform(-0.01, 0.01))
            }
            var w = (0..<33).map { k in world(rng.uniform(-0.1, 0.1), rng.uniform(-0.2, 0.2), 0.02 * Double(k) - 0.3) }
            let tilt = rng.uniform(-0.05, 0.05)
            w[23] = world(0, -halfWidth, -tilt)
            w[24] = world(0, halfWidth, tilt)
            let phi = 2 * .pi * (t - start) / swingPeriod
            w[16] = world(0.7 * cos(phi), 0.25 + 0.5 * sin(phi), 0.35 + 0.3 * sin(phi))
            w[15] = world(0.6 * sin(phi), -0.25 - 0.5 * cos(phi), 0.3 + 0.2 * cos(phi))
            for (k, idx) in [29, 30, 31, 32].enumerated() {
                w[idx] = world(0.1 * Double(k % 2), k < 2 ? -0.15 : 0.15, rng.uniform(-1.0, -0.9))
            }
            // Image landmarks only carry the visibilities when there is no score (keeps the files small): any
            // points of one body 300 px across, walking slowly (a person, as ``PosedPeople`` tells them apart).
            let image: [TrackJSON.Image] = useScore ? [] : (0..<33).map { k -> TrackJSON.Image in
                let spread = k == 23 || k == 24 ? 20.0 : 150   // the hips hold still, the limbs go anywhere
                return TrackJSON.Image(x: 960 + 40 * sin(t) + rng.uniform(-spread, spread), y: 540 + rng.uniform(-spread, spread),
                                       visibility: rng.uniform(0.3, 1))
            }
            frames.append(.init(index: i, time: t, score: useScore ? rng.uniform(0.5, 1) : nil, landmarks: image, worldLandmarks: w))
        }
        track = TrackJSON(frames: frames)
        contacts = ContactsJSON(contacts: (0..<rng.int(3...6)).map { _ in
            .init(time: start + rng.uniform(-0.3, duration + 0.3), confidence: rng.uniform(0.3, 1))
        })
        hand = rng.int(0...1) == 0 ? "right" : "left"
        soundDelayMs = rng.int(0...1) == 0 ? 0 : rng.uniform(0, 80)
        contactFrame = rng.int(0...2) == 0 ? "best-confidence" : "interpolate"
    }
}
