import Foundation
import SwingCore
@testable import SwingBiomech

/// Builds 33-landmark world skeletons with known body-frame geometry.
///
/// The body faces `heading` radians (0 = +z, away from the camera): r = (cos θ, 0, sin θ), u = (0, −1, 0),
/// f = u × r = (−sin θ, 0, cos θ). The hips are placed at P ± halfWidth·r ± hipTilt·u, so their
/// vertical offset must be removed for r to come out right.
struct Skeleton {
    var pelvis = Vec3(x: 0.01, y: -0.02, z: 0.03)
    var heading = 0.0
    var halfWidth = 0.12
    var hipTilt = 0.03
    /// Dominant wrist in body coordinates: forward, lateral (toward the hitting side), up — metres.
    var wrist = Vec3(x: 0.4, y: 0.5, z: 0.1)
    /// Up-coordinates of heels and foot indices (29, 30, 31, 32), metres from the pelvis.
    var feetUp = [-0.95, -0.97, -0.93, -0.96]
    var hand: Hand = .right

    var up: Vec3 { Vec3(x: 0, y: -1, z: 0) }
    var right: Vec3 { Vec3(x: cos(heading), y: 0, z: sin(heading)) }
    var forward: Vec3 { up.cross(right) }

    func point(forward a: Double, right b: Double, up c: Double) -> Vec3 {
        pelvis + forward * a + right * b + up * c
    }

    var world: [Vec3] {
        var w = (0..<33).map { i in point(forward: 0.05 * Double(i % 3), right: 0.01 * Double(i % 5), up: 0.02 * Double(i)) }
        w[BodyLandmark.leftHip] = pelvis - right * halfWidth - up * hipTilt
        w[BodyLandmark.rightHip] = pelvis + right * halfWidth + up * hipTilt
        let lateralSign = hand == .right ? 1.0 : -1.0
        let wristIndex = hand == .right ? BodyLandmark.rightWrist : BodyLandmark.leftWrist
        w[wristIndex] = point(forward: wrist.x, right: lateralSign * wrist.y, up: wrist.z)
        for (k, i) in BodyLandmark.feet.enumerated() { w[i] = point(forward: 0.1 * Double(k), right: 0.2 - 0.1 * Double(k), up: feetUp[k]) }
        return w
    }

    func sample(at time: Double, score: Double? = nil) -> PoseSample {
        PoseSample(time: time, world: world, score: score)
    }
}

/// BlazePose left/right landmark pairs.
let mirrorPairs = [(1, 4), (2, 5), (3, 6), (7, 8), (9, 10), (11, 12), (13, 14), (15, 16), (17, 18),
                   (19, 20), (21, 22), (23, 24), (25, 26), (27, 28), (29, 30), (31, 32)]

/// The mirror image of a pose: x → −x and every left landmark swapped with its right twin.
func mirrored(_ s: PoseSample) -> PoseSample {
    guard s.hasPose else { return s }
    var w = s.world.map { Vec3(x: -$0.x, y: $0.y, z: $0.z) }
    for (a, b) in mirrorPairs { w.swapAt(a, b) }
    return PoseSample(time: s.time, world: w, image: s.image, visibility: s.visibility, score: s.score)
}

/// A track at `fps` from `start` with `count` frames, each from `make(frameIndex, time)`.
func makeTrack(fps: Double = 60, start: Double = 0, count: Int, _ make: (Int, Double) -> PoseSample) throws -> PoseTrack {
    try PoseTrack(samples: (0..<count).map { make($0, start + Double($0) / fps) })
}

extension BiomechParameters {
    /// The defaults with the swing check off: the geometry tests pose still skeletons, which the check
    /// (tested in SwingCheckTests) would rightly turn down.
    static var geometry: BiomechParameters {
        var p = BiomechParameters()
        p.swingCheck = false
        return p
    }
}
