import SwingCore

/// One of BlazePose's 33 body landmarks in an image.
public struct PoseLandmark: Sendable, Codable, Equatable {
    /// Horizontal position in image pixels (origin top-left).
    public var x: Double
    /// Vertical position in image pixels (origin top-left).
    public var y: Double
    /// Depth relative to the hips, in the same scale as `nx` (image-width units); smaller = nearer the camera.
    public var z: Double
    /// Probability that the landmark is visible (not occluded), in [0, 1].
    public var visibility: Double
    /// Probability that the landmark is inside the image, in [0, 1].
    public var presence: Double
    /// `x` divided by the image width.
    public var nx: Double
    /// `y` divided by the image height.
    public var ny: Double

    public init(x: Double, y: Double, z: Double, visibility: Double, presence: Double, nx: Double, ny: Double) {
        self.x = x; self.y = y; self.z = z; self.visibility = visibility; self.presence = presence
        self.nx = nx; self.ny = ny
    }
}

/// A rotated rectangle in image pixels: the region the landmark model looked at.
public struct PoseRegion: Sendable, Codable, Equatable {
    public var centerX: Double
    public var centerY: Double
    /// Side lengths in pixels (BlazePose regions are square).
    public var width: Double
    public var height: Double
    /// Rotation in radians, clockwise in image coordinates (y down).
    public var rotation: Double

    public init(centerX: Double, centerY: Double, width: Double, height: Double, rotation: Double) {
        self.centerX = centerX; self.centerY = centerY; self.width = width; self.height = height
        self.rotation = rotation
    }
}

/// The pose of the one person BlazePose found in a frame.
public struct PoseFrame: Sendable, Codable, Equatable {
    /// Frame index in the source (0 for a still image).
    public var index: Int
    /// Presentation time in seconds (0 for a still image).
    public var time: Double
    /// The landmark model's pose-presence score in [0, 1].
    public var score: Double
    /// The 33 BlazePose landmarks (``BodyLandmark`` order), in image pixels and normalised.
    public var landmarks: [PoseLandmark]
    /// The 33 landmarks in metres, origin between the hips, MediaPipe axes (x to the image right,
    /// y down, z away from the camera).
    public var worldLandmarks: [Vec3]
    /// The 17 joints named as in Apple Vision's 3D body pose, derived from `worldLandmarks`
    /// (see ``AppleJoints``).
    public var joints: [String: Vec3]
    /// The region of interest the landmark model ran on.
    public var region: PoseRegion
    /// Whether the person detector ran for this frame (false when tracked from the previous frame).
    public var detectorRan: Bool

    public init(index: Int, time: Double, score: Double, landmarks: [PoseLandmark], worldLandmarks: [Vec3],
                joints: [String: Vec3], region: PoseRegion, detectorRan: Bool) {
        self.index = index; self.time = time; self.score = score; self.landmarks = landmarks
        self.worldLandmarks = worldLandmarks; self.joints = joints; self.region = region
        self.detectorRan = detectorRan
    }
}
