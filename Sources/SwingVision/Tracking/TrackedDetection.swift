import SwingCore

/// One detection of a frame that belongs to a confirmed track: what ``ByteTracker/update(_:time:)`` returns.
package struct TrackedDetection: Sendable, Equatable {
    /// The detection as the model gave it (box, class, confidence and task extras untouched).
    package var detection: Detection
    /// The track's identity: 1, 2, 3… in order of creation, never reused by the same tracker.
    package var trackId: Int
    /// Index of ``detection`` in the array passed to ``ByteTracker/update(_:time:)``.
    package var detectionIndex: Int
    /// The track's box after this frame's correction (the Kalman estimate, what Ultralytics reports as the
    /// tracked box); smoother than ``Detection/box``, pixels, origin top-left.
    package var trackBox: Rect
    /// The track's recent centres, oldest first, ending with this frame's (at most
    /// ``ByteTracker/Configuration/trailLength`` points): for drawing where the object came from.
    package var trail: [Point2]

    package init(detection: Detection, trackId: Int, detectionIndex: Int, trackBox: Rect, trail: [Point2]) {
        self.detection = detection; self.trackId = trackId; self.detectionIndex = detectionIndex
        self.trackBox = trackBox; self.trail = trail
    }
}

extension ByteTracker {
    /// A track as the tracker holds it between frames.
    package struct Track: Sendable, Equatable {
        /// Where a track stands.
        package enum State: String, Sendable, Equatable, Codable {
            /// Matched in the latest frame.
            case tracked
            /// Not matched lately; kept (and predicted forward) until the track buffer runs out.
            case lost
        }

        /// The track's identity (see ``TrackedDetection/trackId``).
        package var id: Int
        package var state: State
        /// `false` for a track born after the first frame until its second sighting; such a track is not reported.
        package var isConfirmed: Bool
        /// The class of the latest detection matched to the track.
        package var classId: Int
        package var label: String
        /// The latest matched detection's confidence.
        package var confidence: Double
        /// The filter's box: the latest correction for a tracked track, the prediction for a lost one.
        package var box: Rect
        /// Recent centres after each correction, oldest first.
        package var trail: [Point2]
        /// Frame numbers (1 = the first ``ByteTracker/update(_:time:)``) of the track's birth and latest match.
        package var firstFrame: Int
        package var lastFrame: Int
        /// Frame times (as passed to ``ByteTracker/update(_:time:)``) of the track's birth and latest match.
        package var firstTime: Double
        package var lastTime: Double
    }
}
