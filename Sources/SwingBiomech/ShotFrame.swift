import SwingCore

/// One posed frame of a shot's swing window: the 17 joints of ``SkeletonJoints`` in the image and in the
/// body frame. What the shot view draws and the store keeps per shot.
package struct ShotFrame: Codable, Sendable, Equatable {
    /// Media time, seconds.
    package var time: Double
    /// The video frame: decoded frames counted from 0 in presentation order (not time × fps).
    package var videoFrame: Int?
    /// [x px, y px, visibility 0…1] per joint, in display pixels (origin top-left); `nil` without a pose.
    package var image: [[Double]]?
    /// [forward, lateral, height cm] per joint relative to the pelvis; `nil` when the hips were not seen.
    package var body: [[Double]]?
    /// The body measures of this frame (``BodyMeasure``, 0.1° / 0.01 shoulder widths); `nil` when the hips were
    /// not seen, and in frames stored before the measures existed.
    package var angles: BodyAngles?

    package init(time: Double, videoFrame: Int?, image: [[Double]]?, body: [[Double]]?, angles: BodyAngles? = nil) {
        self.time = time; self.videoFrame = videoFrame; self.image = image; self.body = body; self.angles = angles
    }

    /// The frame of track sample `sample`: image points scaled by `scale` (track pixels → display pixels,
    /// 0.1 px), body points in the body frame of `hand` (0.1 cm).
    package init(_ sample: PoseSample, videoFrame: Int?, hand: Hand, scale: (x: Double, y: Double)) {
        func r(_ v: Double, _ places: Double) -> Double { (v * places).rounded() / places }
        let joints = SkeletonJoints.landmarks.map(\.index)
        var image: [[Double]]?
        if let points = sample.image, points.count == BodyLandmark.count {
            let vis = sample.visibility ?? []
            image = joints.map { i in
                [r(points[i].x * scale.x, 10), r(points[i].y * scale.y, 10), r(vis.indices.contains(i) ? vis[i] : 1, 100)]
            }
        }
        let frame = BodyFrame(world: sample.world, hand: hand)
        let body = frame.map { frame in
            joints.map { i -> [Double] in
                let p = frame.coordinates(of: sample.world[i])
                return [r(p.x * 100, 10), r(p.y * 100, 10), r(p.z * 100, 10)]
            }
        }
        let angles = frame.map { BodyAngles(world: sample.world, frame: $0, hand: hand).values }.map { values in
            BodyAngles(values.reduce(into: [:]) { out, kv in out[kv.key] = r(kv.value, kv.key.isAngle ? 10 : 100) })
        }
        self.init(time: sample.time, videoFrame: videoFrame, image: image, body: body, angles: angles)
    }
}
