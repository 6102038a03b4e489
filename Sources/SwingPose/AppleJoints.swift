import SwingCore

/// The 17 joints of Apple Vision's 3D body pose (`VNHumanBodyPose3DObservation.JointName`), derived
/// from BlazePose's 33 world landmarks (metres, hip-centred, MediaPipe axes).
///
/// | Apple joint | From BlazePose |
/// |---|---|
/// | leftShoulder … rightAnkle (12 limb joints) | the landmark of the same name (11–16, 23–28) |
/// | root | midpoint of the hips (23, 24) — ≈ the origin of the world landmarks |
/// | centerShoulder | midpoint of the shoulders (11, 12) |
/// | spine | midpoint of root and centerShoulder |
/// | centerHead | midpoint of the ears (7, 8) |
/// | topHead | centerHead + 0.75 × ear-to-ear distance along centerShoulder → centerHead (an estimate: BlazePose has no crown landmark) |
package enum AppleJoints {
    /// The joint names in Apple Vision's order.
    package static let names = [
        "topHead", "centerHead", "centerShoulder", "leftShoulder", "rightShoulder", "leftElbow",
        "rightElbow", "leftWrist", "rightWrist", "spine", "root", "leftHip", "rightHip",
        "leftKnee", "rightKnee", "leftAnkle", "rightAnkle",
    ]

    /// How far above the ear midpoint the crown is, in ear-to-ear distances.
    package static let topHeadFactor = 0.75

    /// The 17 joints from 33 world landmarks (empty for fewer than 33).
    package static func derive(from w: [Vec3]) -> [String: Vec3] {
        guard w.count >= BodyLandmark.count else { return [:] }
        func p(_ l: BodyLandmark) -> Vec3 { w[l] }
        let root = Vec3.lerp(p(.leftHip), p(.rightHip), 0.5)
        let centerShoulder = Vec3.lerp(p(.leftShoulder), p(.rightShoulder), 0.5)
        let centerHead = Vec3.lerp(p(.leftEar), p(.rightEar), 0.5)
        let earDistance = (p(.leftEar) - p(.rightEar)).length
        let up = (centerHead - centerShoulder).normalized ?? Vec3(x: 0, y: -1, z: 0)
        var joints = [
            "topHead": centerHead + up * (earDistance * topHeadFactor),
            "centerHead": centerHead,
            "centerShoulder": centerShoulder,
            "spine": Vec3.lerp(root, centerShoulder, 0.5),
            "root": root,
        ]
        for l in limbJoints { joints[l.name] = p(l) }
        return joints
    }

    /// The 12 joints Apple names as BlazePose does (same name, same point).
    package static let limbJoints: [BodyLandmark] = [
        .leftShoulder, .rightShoulder, .leftElbow, .rightElbow, .leftWrist, .rightWrist,
        .leftHip, .rightHip, .leftKnee, .rightKnee, .leftAnkle, .rightAnkle,
    ]
}
