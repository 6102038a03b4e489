import SwingCore

/// One detection of a frame that belongs to a confirmed track: what ``ByteTracker/update(_:time:)`` returns.
public struct TrackedDetection: Sendable, Equatable {
    /// The detection as the model gave it (box, class, confidence and task extras untouched).
    public var detection: Detection
    /// The track's identity: 1, 2, 3… in order of creation, never reused by the same tracker.
    public var trackId: Int
    /// Index of ``detection`` in the array passed to ``ByteTracker/update(_:time:)``.
    public var detectionIndex: Int
    /// The track's box after this frame's correction (the Kalman estimate, what Ultralytics reports as the
    /// tracked box); smoother than ``Detection/box``, pixels, origin top-left.
    public var trackBox: Rect
    /// The track's recent centres, oldest first, ending with this frame's (at most
    /// ``ByteTracker/Configuration/trailLength`` points): for drawing where the object came from.
    public var trail: [Point2]

    public init(detection: Detection, trackId: Int, detectionIndex: Int, trackBox: Rect, trail: [Point2]) {
        self.detection = detection; self.trackId = trackId; self.detectionIndex = detectionIndex
        self.trackBox = trackBox; self.trail = trail
    }
}

extension ByteTracker {
    /// A track as the tracker holds it between frames.
    public struct Track: Sendable, Equatable {
        /// Where a track stands.
        public enum State: String, Sendable, Equatable, Codable {
            /// Matched in the latest frame.
            case tracked
            /// Not matched lately; kept (and predicted forward) until the track buffer runs out.
            case lost
        }

        /// The track's identity (see ``TrackedDetection/trackId``).
        public var id: Int
        public var state: State
        /// `false` for a track born after the first frame until its second sighting; such a track is not reported.
        public var isConfirmed: Bool
        /// The class of the latest detection matched to the track.
        public var classId: Int
        public var label: String
        /// The latest matched detection's confidence.
        public var confidence: Double
        /// The filter's box: the latest correction for a tracked track, the prediction for a lost one.
        public var box: Rect
        /// Recent centres after each correction, oldest first.
        public var trail: [Point2]
        /// Frame numbers (1 = the first ``ByteTracker/update(_:time:)``) of the track's birth and latest match.
        public var firstFrame: Int
        public var lastFrame: Int
        /// Frame times (as passed to ``ByteTracker/update(_:time:)``) of the track's birth and latest match.
        public var firstTime: Double
        public var lastTime: Double
    }
}
