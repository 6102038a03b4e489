import Foundation
import SwingBiomech
import SwingCore

/// Everything the shot view draws for one shot (`GET /api/sessions/{id}/shots/{n}`): the shot as in the
/// session document, and every posed frame of its swing window with 17 joints in the image (display
/// pixels) and in the body frame (pelvis origin, cm: X forward, Y toward the hitting side, Z up).
package struct ShotView: Codable, Sendable, Equatable {
    package var sessionId: Int64
    /// 1-based shot number, and how many shots the session has.
    package var number: Int
    package var shotCount: Int
    package var hand: Hand
    package var video: Video
    /// Names of the 17 joints (``SkeletonJoints/names``), in the order of every frame's `image` and `body` rows.
    package var joints: [String]
    /// Pairs of joint positions joined by a bone (``SkeletonJoints/bones``).
    package var bones: [[Int]]
    package var shot: Shot
    package var frames: [ShotFrame]

    /// The video's display size and frame rate.
    package struct Video: Codable, Sendable, Equatable {
        package var width: Int
        package var height: Int
        package var fps: Double
    }

    /// The shot view's bytes (the session document's encoder).
    package func jsonData() throws -> Data { try SessionDocument.encoder.encode(self) }
}
