import Foundation
import SwingBiomech
import SwingCore

/// Builds 33-landmark world skeletons with known body-frame geometry.
///
/// The body faces `heading` radians (0 = +z, away from the camera): r = (cos θ, 0, sin θ), u = (0, −1, 0),
/// f = u × r = (−sin θ, 0, cos θ). The hips are placed at P ± halfWidth·r ± hipTilt·u, so their
/// vertical offset must be removed for r to come out right.
package struct Skeleton: Sendable {
    package var pelvis = Vec3(x: 0.01, y: -0.02, z: 0.03)
    package var heading = 0.0
    package var halfWidth = 0.12
    package var hipTilt = 0.03
    /// Dominant wrist in body coordinates: forward, lateral (toward the hitting side), up — metres.
    package var wrist = Vec3(x: 0.4, y: 0.5, z: 0.1)
    /// Up-coordinates of heels and foot indices (29, 30, 31, 32), metres from the pelvis.
    package var feetUp = [-0.95, -0.97, -0.93, -0.96]
    package var hand: Hand = .right

    package init() {}

    package var up: Vec3 { Vec3(x: 0, y: -1, z: 0) }
    package var right: Vec3 { Vec3(x: cos(heading), y: 0, z: sin(heading)) }
    package var forward: Vec3 { up.cross(right) }

    package func point(forward a: Double, right b: Double, up c: Double) -> Vec3 {
        pelvis + forward * a + right * b + up * c
    }

    package var world: [Vec3] {
        var w = (0..<33).map { i in point(forward: 0.05 * Double(i % 3), right: 0.01 * Double(i % 5), up: 0.02 * Double(i)) }
        w[BodyLandmark.leftHip] = pelvis - right * halfWidth - up * hipTilt
        w[BodyLandmark.rightHip] = pelvis + right * halfWidth + up * hipTilt
        // Shoulders 50 cm above the pelvis, an adult's trunk: the stroke type and Early / Optimal / Late are in its units.
        w[BodyLandmark.leftShoulder] = point(forward: 0, right: -0.18, up: 0.5)
        w[BodyLandmark.rightShoulder] = point(forward: 0, right: 0.18, up: 0.5)
        let lateralSign = hand == .right ? 1.0 : -1.0
        let wristIndex = hand == .right ? BodyLandmark.rightWrist : BodyLandmark.leftWrist
        w[wristIndex] = point(forward: wrist.x, right: lateralSign * wrist.y, up: wrist.z)
        for (k, i) in BodyLandmark.feet.enumerated() { w[i] = point(forward: 0.1 * Double(k), right: 0.2 - 0.1 * Double(k), up: feetUp[k]) }
        return w
    }

    package func sample(at time: Double, score: Double? = nil) -> PoseSample {
        PoseSample(time: time, world: world, score: score)
    }
}
