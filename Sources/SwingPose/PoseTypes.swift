import SwingCore

/// One of BlazePose's 33 body landmarks in an image.
package struct PoseLandmark: Sendable, Codable, Equatable {
    /// Horizontal position in image pixels (origin top-left).
    package var x: Double
    /// Vertical position in image pixels (origin top-left).
    package var y: Double
    /// Depth relative to the hips, in the same scale as `nx` (image-width units); smaller = nearer the camera.
    package var z: Double
    /// Probability that the landmark is visible (not occluded), in [0, 1].
    package var visibility: Double
    /// Probability that the landmark is inside the image, in [0, 1].
    package var presence: Double
    /// `x` divided by the image width.
    package var nx: Double
    /// `y` divided by the image height.
    package var ny: Double

    package init(x: Double, y: Double, z: Double, visibility: Double, presence: Double, nx: Double, ny: Double) {
        self.x = x; self.y = y; self.z = z; self.visibility = visibility; self.presence = presence
        self.nx = nx; self.ny = ny
    }
}

/// A rotated rectangle in image pixels: the region the landmark model looked at.
package struct PoseRegion: Sendable, Codable, Equatable {
    package var centerX: Double
    package var centerY: Double
    /// Side lengths in pixels (BlazePose regions are square).
    package var width: Double
    package var height: Double
    /// Rotation in radians, clockwise in image coordinates (y down).
    package var rotation: Double

    package init(centerX: Double, centerY: Double, width: Double, height: Double, rotation: Double) {
        self.centerX = centerX; self.centerY = centerY; self.width = width; self.height = height
        self.rotation = rotation
    }
}

/// The pose of the one person BlazePose found in a frame.
package struct PoseFrame: Sendable, Codable, Equatable {
    /// Frame index in the source (0 for a still image).
    package var index: Int
    /// Presentation time in seconds (0 for a still image).
    package var time: Double
    /// The landmark model's pose-presence score in [0, 1].
    package var score: Double
    /// The 33 BlazePose landmarks (``BodyLandmark`` order), in image pixels and normalised.
    package var landmarks: [PoseLandmark]
    /// The 33 landmarks in metres, origin between the hips, MediaPipe axes (x to the image right,
    /// y down, z away from the camera).
    package var worldLandmarks: [Vec3]
    /// The 17 joints named as in Apple Vision's 3D body pose, derived from `worldLandmarks`
    /// (see ``AppleJoints``).
    package var joints: [String: Vec3]
    /// The region of interest the landmark model ran on.
    package var region: PoseRegion
    /// Whether the person detector ran for this frame (false when tracked from the previous frame).
    package var detectorRan: Bool

    package init(index: Int, time: Double, score: Double, landmarks: [PoseLandmark], worldLandmarks: [Vec3],
                joints: [String: Vec3], region: PoseRegion, detectorRan: Bool) {
        self.index = index; self.time = time; self.score = score; self.landmarks = landmarks
        self.worldLandmarks = worldLandmarks; self.joints = joints; self.region = region
        self.detectorRan = detectorRan
    }
}
