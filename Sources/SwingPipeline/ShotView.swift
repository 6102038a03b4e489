import Foundation
import SwingBiomech
import SwingCore

/// Everything the shot view draws for one shot (`GET /api/sessions/{id}/shots/{n}`): the shot as in the
/// session document, and every posed frame of its swing window with 17 joints in the image (display
/// pixels) and in the body frame (pelvis origin, cm: X forward, Y toward the hitting side, Z up).
public struct ShotView: Codable, Sendable, Equatable {
    public var sessionId: Int64
    /// 1-based shot number, and how many shots the session has.
    public var number: Int
    public var shotCount: Int
    public var hand: Hand
    public var video: Video
    /// Names of the 17 joints (``SkeletonJoints/names``), in the order of every frame's `image` and `body` rows.
    public var joints: [String]
    /// Pairs of joint positions joined by a bone (``SkeletonJoints/bones``).
    public var bones: [[Int]]
    public var shot: Shot
    public var frames: [ShotFrame]

    /// The video's display size and frame rate.
    public struct Video: Codable, Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var fps: Double
    }

    /// The shot view's bytes (the session document's encoder).
    public func jsonData() throws -> Data { try SessionDocument.encoder.encode(self) }
}
