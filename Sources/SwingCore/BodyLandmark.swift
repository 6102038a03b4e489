/// The 33 body landmarks of BlazePose, in the model's order: the one vocabulary of body points.
///
/// The raw value is the landmark's index in every landmark array (image, world, visibility); the name
/// (``name``, e.g. `rightWrist`) is what JSON and the web pages use. The pose estimator, the biomechanics,
/// the drawing code and the server's `GET /api/landmarks` all read it from here.
package enum BodyLandmark: Int, CaseIterable, Sendable {
    case nose, leftEyeInner, leftEye, leftEyeOuter, rightEyeInner, rightEye, rightEyeOuter
    case leftEar, rightEar, mouthLeft, mouthRight
    case leftShoulder, rightShoulder, leftElbow, rightElbow, leftWrist, rightWrist
    case leftPinky, rightPinky, leftIndex, rightIndex, leftThumb, rightThumb
    case leftHip, rightHip, leftKnee, rightKnee, leftAnkle, rightAnkle
    case leftHeel, rightHeel, leftFootIndex, rightFootIndex

    /// How many landmarks a full pose has.
    package static let count = 33

    /// Index in a landmark array.
    package var index: Int { rawValue }

    /// The landmark's name as JSON and the pages spell it (`leftWrist`).
    package var name: String { "\(self)" }

    /// Whether the landmark is on the body's left side (drawn in the left-side colour).
    package var isLeft: Bool { name.hasPrefix("left") || self == .mouthLeft }

    /// The wrist of the hitting hand.
    package static func wrist(of hand: Hand) -> BodyLandmark { hand == .right ? .rightWrist : .leftWrist }

    /// Heels and foot indices: where the ground is.
    package static let feet: [BodyLandmark] = [.leftHeel, .rightHeel, .leftFootIndex, .rightFootIndex]

    /// BlazePose's skeleton edges, as MediaPipe's `POSE_CONNECTIONS` (what `pose --save` draws).
    package static let edges: [(BodyLandmark, BodyLandmark)] = [
        (.nose, .leftEyeInner), (.leftEyeInner, .leftEye), (.leftEye, .leftEyeOuter), (.leftEyeOuter, .leftEar),
        (.nose, .rightEyeInner), (.rightEyeInner, .rightEye), (.rightEye, .rightEyeOuter), (.rightEyeOuter, .rightEar),
        (.mouthLeft, .mouthRight),
        (.leftShoulder, .rightShoulder), (.leftShoulder, .leftElbow), (.leftElbow, .leftWrist), (.leftWrist, .leftPinky),
        (.leftWrist, .leftIndex), (.leftWrist, .leftThumb), (.leftPinky, .leftIndex),
        (.rightShoulder, .rightElbow), (.rightElbow, .rightWrist), (.rightWrist, .rightPinky), (.rightWrist, .rightIndex),
        (.rightWrist, .rightThumb), (.rightPinky, .rightIndex),
        (.leftShoulder, .leftHip), (.rightShoulder, .rightHip), (.leftHip, .rightHip), (.leftHip, .leftKnee),
        (.rightHip, .rightKnee), (.leftKnee, .leftAnkle), (.rightKnee, .rightAnkle),
        (.leftAnkle, .leftHeel), (.rightAnkle, .rightHeel), (.leftHeel, .leftFootIndex), (.rightHeel, .rightFootIndex),
        (.leftAnkle, .leftFootIndex), (.rightAnkle, .rightFootIndex),
    ]
}

/// The 17 joints the shot view, the annotated video and the studio's tennis mode draw (COCO's keypoints),
/// as body landmarks, and the bones between them.
package enum SkeletonJoints {
    /// The joints, in the order of the shot view's `image` and `body` rows.
    package static let landmarks: [BodyLandmark] = [
        .nose, .leftEye, .rightEye, .leftEar, .rightEar, .leftShoulder, .rightShoulder, .leftElbow, .rightElbow,
        .leftWrist, .rightWrist, .leftHip, .rightHip, .leftKnee, .rightKnee, .leftAnkle, .rightAnkle,
    ]

    /// The joints' names, in row order.
    package static let names: [String] = landmarks.map(\.name)

    /// The bones, as pairs of landmarks.
    package static let boneLandmarks: [(BodyLandmark, BodyLandmark)] = [
        (.nose, .leftEye), (.nose, .rightEye), (.leftEye, .leftEar), (.rightEye, .rightEar),
        (.leftShoulder, .rightShoulder), (.leftShoulder, .leftElbow), (.leftElbow, .leftWrist),
        (.rightShoulder, .rightElbow), (.rightElbow, .rightWrist), (.leftShoulder, .leftHip), (.rightShoulder, .rightHip),
        (.leftHip, .rightHip), (.leftHip, .leftKnee), (.leftKnee, .leftAnkle), (.rightHip, .rightKnee), (.rightKnee, .rightAnkle),
    ]

    /// The bones as pairs of positions in ``landmarks`` (the shot view's `bones`).
    package static let bones: [[Int]] = boneLandmarks.compactMap { a, b in
        guard let i = landmarks.firstIndex(of: a), let j = landmarks.firstIndex(of: b) else { return nil }
        return [i, j]
    }

    /// Position in ``landmarks`` of the hitting hand's wrist.
    package static func wristPosition(of hand: Hand) -> Int {
        landmarks.firstIndex(of: BodyLandmark.wrist(of: hand)) ?? 0
    }
}

extension Array {
    /// The element of `landmark` in an array in BlazePose's order (image points, world points,
    /// visibilities); the caller has checked that the array holds ``BodyLandmark/count`` elements.
    package subscript(_ landmark: BodyLandmark) -> Element {
        get { self[landmark.index] }
        set { self[landmark.index] = newValue }
    }
}
