import SwingCore

/// The body frame of one pose frame (issue 5's definitions, metres, MediaPipe world axes).
///
/// - Pelvis **P** = midpoint of the hips (23, 24).
/// - Up **u** = −y: the camera is level on a tripod (the web app's filming guide, `Web/templates/onboarding.mustache`), so world −y is vertical; the torso's lean
///   is deliberately *not* used, so a bent-over player still measures height against gravity.
/// - Right **r** = right hip − left hip with its component along **u** removed, normalised.
/// - Forward **f** = **u** × **r** (points in front of the chest).
/// - Hitting side **h** = **r** for right-handers, −**r** for left-handers, so a left-hander's mirrored
///   stroke gives identical forward / lateral / height.
package struct BodyFrame: Sendable, Equatable {
    package let pelvis: Vec3
    package let up: Vec3
    package let right: Vec3
    package let forward: Vec3
    package let hitting: Vec3

    /// World up (−y).
    package static let worldUp = Vec3(x: 0, y: -1, z: 0)

    /// The body frame of `world` (33 landmarks), or `nil` when the hips are missing or vertically
    /// stacked (no horizontal right direction) — such a frame is treated as having no pose.
    package init?(world: [Vec3], hand: Hand) {
        guard world.count == BodyLandmark.count else { return nil }
        let lh = world[BodyLandmark.leftHip], rh = world[BodyLandmark.rightHip]
        let u = Self.worldUp
        let across = rh - lh
        guard let r = (across - u * across.dot(u)).normalized else { return nil }
        pelvis = (lh + rh) * 0.5
        up = u
        right = r
        forward = u.cross(r)
        hitting = hand == .right ? r : -r
    }

    /// Coordinates of a world point in this frame: (forward, lateral toward the hitting side, up) from the pelvis.
    package func coordinates(of point: Vec3) -> Vec3 {
        let d = point - pelvis
        return Vec3(x: d.dot(forward), y: d.dot(hitting), z: d.dot(up))
    }
}

/// What one frame contributes to a shot (metres, unsmoothed): the one per-frame body measurement, which the
/// contact point, the speeds, the stroke type and the body's angles (``BodyMeasure``) all read.
struct FrameMeasure: Sendable {
    /// Index in ``PoseTrack/samples``.
    let trackIndex: Int
    let time: Double
    /// (W − P)·f, (W − P)·h, (W − P)·u for the dominant wrist W.
    let forward: Double
    let lateral: Double
    let wristUp: Double
    /// min over the feet (``BodyLandmark/feet``) of (F − P)·u.
    let lowestFoot: Double
    /// Mean of the two shoulders' (S − P)·u: the overhead line for the stroke type.
    let shoulderUp: Double
    /// |shoulders' midpoint − P|: the trunk's length, the body's own unit for the stroke type.
    let trunk: Double
    /// W − P in world axes (rotation not removed), for the wrist speed.
    let wristFromPelvis: Vec3
    /// (W − P) along the camera's horizontal axis (world x), toward the hitting side of a player with their
    /// back to the camera: the wrist's side across the court, however far the hips have turned (``CameraView``).
    let across: Double
    /// Where the hands are: the mean of both wrists with the racket wrist counted twice, ``across``'s and
    /// ``lateral``'s measures of it. The stroke's side at contact is read from both hands, not the racket wrist
    /// alone (``CameraView/handsSide(_:)``).
    let handsAcross: Double, handsLateral: Double
    /// How far the nose is behind the ears' midpoint in depth (world z, away from the camera), metres:
    /// positive when the player faces away from the camera (``CameraView``).
    let noseBehindEars: Double
    let confidence: Double
    let imageWrist: Point2?
    /// The body's angles and proportions (``BodyMeasure``).
    let angles: BodyAngles

    init?(sample: PoseSample, trackIndex: Int, hand: Hand) {
        guard let frame = BodyFrame(world: sample.world, hand: hand) else { return nil }
        let wrist = BodyLandmark.wrist(of: hand)
        let w = frame.coordinates(of: sample.world[wrist])
        self.trackIndex = trackIndex
        time = sample.time
        forward = w.x
        lateral = w.y
        wristUp = w.z
        lowestFoot = BodyLandmark.feet.map { (sample.world[$0] - frame.pelvis).dot(frame.up) }.min() ?? 0
        shoulderUp = 0.5 * ((sample.world[BodyLandmark.leftShoulder] - frame.pelvis).dot(frame.up)
                            + (sample.world[BodyLandmark.rightShoulder] - frame.pelvis).dot(frame.up))
        trunk = ((sample.world[BodyLandmark.leftShoulder] + sample.world[BodyLandmark.rightShoulder]) * 0.5 - frame.pelvis).length
        wristFromPelvis = sample.world[wrist] - frame.pelvis
        across = wristFromPelvis.x * (hand == .right ? 1 : -1)
        let other = sample.world[BodyLandmark.wrist(of: hand == .right ? .left : .right)]
        handsAcross = (2 * across + (other - frame.pelvis).x * (hand == .right ? 1 : -1)) / 3
        handsLateral = (2 * lateral + frame.coordinates(of: other).y) / 3
        noseBehindEars = sample.world[BodyLandmark.nose].z
            - 0.5 * (sample.world[BodyLandmark.leftEar].z + sample.world[BodyLandmark.rightEar].z)
        angles = BodyAngles(world: sample.world, frame: frame, hand: hand)
        confidence = sample.confidence
        if let image = sample.image, image.count == BodyLandmark.count { imageWrist = image[wrist] } else { imageWrist = nil }
    }
}
