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
    /// Names of the 17 joints, in the order of every frame's `image` and `body` rows.
    public var joints: [String]
    /// Pairs of joint positions joined by a bone.
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

/// One posed frame of a swing window.
public struct ShotFrame: Codable, Sendable, Equatable {
    /// Media time, seconds.
    public var time: Double
    /// The video frame (0-based).
    public var videoFrame: Int?
    /// [x px, y px, visibility 0…1] per joint, in display pixels (origin top-left); `nil` without a pose.
    public var image: [[Double]]?
    /// [forward, lateral, height cm] per joint relative to the pelvis; `nil` when the hips were not seen.
    public var body: [[Double]]?
}

/// The 17 joints the shot view draws (COCO's keypoints), taken from BlazePose's 33 landmarks.
public enum ShotJoints {
    /// Joint names, in row order.
    public static let names = ["nose", "leftEye", "rightEye", "leftEar", "rightEar", "leftShoulder", "rightShoulder",
                               "leftElbow", "rightElbow", "leftWrist", "rightWrist", "leftHip", "rightHip",
                               "leftKnee", "rightKnee", "leftAnkle", "rightAnkle"]
    /// BlazePose landmark index of each joint in ``names``.
    public static let blazePose = [0, 2, 5, 7, 8, 11, 12, 13, 14, 15, 16, 23, 24, 25, 26, 27, 28]
    /// Bones as pairs of positions in ``names``.
    public static let bones = [[0, 1], [0, 2], [1, 3], [2, 4], [5, 6], [5, 7], [7, 9], [6, 8], [8, 10], [5, 11],
                               [6, 12], [11, 12], [11, 13], [13, 15], [12, 14], [14, 16]]

    /// The frame of track sample `sample`, its image points scaled by `scale` (pose pixels → display pixels).
    static func frame(_ sample: PoseSample, videoFrame: Int?, hand: Hand, scale: (x: Double, y: Double)) -> ShotFrame {
        func r(_ v: Double, _ places: Double) -> Double { (v * places).rounded() / places }
        var image: [[Double]]?
        if let points = sample.image, points.count == Landmark.count {
            let vis = sample.visibility ?? []
            image = blazePose.map { i in
                [r(points[i].x * scale.x, 10), r(points[i].y * scale.y, 10), r(vis.indices.contains(i) ? vis[i] : 1, 100)]
            }
        }
        let body = BodyFrame(world: sample.world, hand: hand).map { frame in
            blazePose.map { i -> [Double] in
                let p = frame.coordinates(of: sample.world[i])
                return [r(p.x * 100, 10), r(p.y * 100, 10), r(p.z * 100, 10)]
            }
        }
        return ShotFrame(time: sample.time, videoFrame: videoFrame, image: image, body: body)
    }
}
