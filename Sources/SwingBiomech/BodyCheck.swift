import SwingCore

/// Whether a measured shot is a body that can hit (issue #39, docs/analysis.md "Impossible numbers"). A
/// shot measured on the wrong person, or on a pose BlazePose got wrong, can read a wrist under the ground or a
/// pelvis below the feet; such numbers are never shown. (A track that holds several people — each window piece
/// picks its person on its own — is not refused: each shot is measured on its own person's frames only,
/// ``PosedPeople``.) Each rule is a limit no player's body passes, with
/// room for BlazePose's noise, so a real stroke measured on the right person never fails one (checked on the
/// real recordings in `bench/real/` and every synthetic stroke the tests generate).
enum BodyCheck {
    /// The feet are at least this far below the pelvis at a contact, cm (a deep lunge keeps them 50–60 below;
    /// the real shots measured on the wrong person read the pelvis 20–120 cm *below* the feet).
    static let minimumLegCm = 25.0
    /// The wrist is at most this far below the ground at contact, cm (BlazePose's ground is the lowest foot,
    /// so a half-volley can read a few centimetres under it).
    static let belowGroundCm = 15.0
    /// …and at most this high above it, cm: the tallest server's reach is about 2.7 m.
    static let highestReachCm = 300.0
    /// The wrist's speed at contact is at most this, cm/s (the fastest serves' wrists move about 15 m/s).
    static let maximumWristSpeedCmS = 3000.0
    /// The sentence saying why `shot` (status ok, measured at `tc`) cannot be a body hitting, or `nil`.
    static func problem(shot: Shot, tc: Double, posed: [FrameMeasure]) -> String? {
        guard shot.status == .ok, let contact = shot.contact, !posed.isEmpty else { return nil }
        let frame = posed[BiomechAnalyzer.nearestIndex(in: posed, to: tc)]
        if frame.lowestFoot > -minimumLegCm / 100 {
            let cm = frame.lowestFoot * 100
            return cm > 0 ? "the pelvis would be \(Int(cm.rounded())) cm below the feet"
                : "the feet would be only \(Int((-cm).rounded())) cm below the pelvis"
        }
        if contact.heightCm < -belowGroundCm {
            return "the wrist would be \(Int((-contact.heightCm).rounded())) cm under the ground"
        }
        if contact.heightCm > highestReachCm {
            return "the wrist would be \(Int(contact.heightCm.rounded())) cm above the ground, higher than anyone reaches"
        }
        if let speed = shot.wristSpeedCmS, speed > maximumWristSpeedCmS {
            return "the wrist would move at \(Int((speed / 100).rounded())) m/s, faster than any wrist"
        }
        return nil
    }

    /// The reason a player reads for a shot ``problem(shot:tc:posed:)`` refused.
    static func reason(_ problem: String) -> String {
        "Not measured: \(problem), so the pose here is not you hitting (another person, or a pose mis-detected). Film with only you near the camera, your whole body in view."
    }
}
