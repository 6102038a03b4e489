import SwingCore

/// BlazePose over a video, as MediaPipe's legacy pose graph tracks: the region for frame *n + 1*
/// comes from frame *n*'s two auxiliary landmarks (hip centre and body-size point), and the detector
/// runs only when there is no region or the pose flag drops below ``PoseOptions/minPoseScore``.
/// Landmarks are One-Euro smoothed unless ``PoseOptions/smoothing`` is off.
///
/// Not thread-safe: feed frames in time order from one task.
public final class PoseTracker {
    public let estimator: PoseEstimator
    private var nextRegion: PoseRegion?
    private var landmarkFilter: PointListFilter
    private var worldFilter: PointListFilter
    private var auxFilter: PointListFilter
    private var smoothedVisibility: [Double] = []
    private var frameCounter = 0
    /// Frames processed since the last reset.
    public private(set) var framesProcessed = 0
    /// Frames on which the detector ran since the last reset.
    public private(set) var detectorRuns = 0
    /// Time spent inside ONNX Runtime since the last reset (the rest of ``process(frame:time:index:)``
    /// is our pre/post-processing).
    public private(set) var inferenceTime = StageTime()
    /// Wall-clock seconds of ``inferenceTime``.
    public var inferenceSeconds: Double { inferenceTime.wall }

    /// - Parameter estimator: the loaded models and options (its options' smoothing settings apply).
    public init(estimator: PoseEstimator) {
        self.estimator = estimator
        landmarkFilter = PointListFilter(estimator.options.landmarkFilter)
        worldFilter = PointListFilter(estimator.options.worldFilter)
        auxFilter = PointListFilter(estimator.options.auxiliaryFilter)
    }

    /// Forgets the tracked person and the filters' history (call before a new clip or after a seek).
    public func reset() {
        nextRegion = nil
        resetFilters()
        framesProcessed = 0; detectorRuns = 0; frameCounter = 0; inferenceTime = StageTime()
    }

    private func resetFilters() {
        landmarkFilter.reset(); worldFilter.reset(); auxFilter.reset(); smoothedVisibility = []
    }

    /// Estimates the pose in the next video frame.
    /// - Parameters:
    ///   - frame: the decoded frame.
    ///   - time: its presentation time in seconds (must increase for smoothing to apply).
    ///   - index: its frame index (default: a counter of processed frames).
    /// - Returns: the pose, or `nil` when nobody is found.
    /// - Throws: `InferenceError` if ONNX Runtime fails.
    public func process(frame: ImageBuffer, time: Double, index: Int? = nil) throws -> PoseFrame? {
        let idx = index ?? frameCounter
        frameCounter += 1
        framesProcessed += 1
        var pose: ProjectedPose?
        var ranDetector = false
        if let region = nextRegion {
            pose = try estimator.landmarks(in: frame, region: region, inference: &inferenceTime)
        }
        if pose == nil {
            ranDetector = true
            detectorRuns += 1
            if let det = try estimator.detectPerson(in: frame, inference: &inferenceTime) {
                let region = estimator.regionFromDetection(det, width: frame.width, height: frame.height)
                pose = try estimator.landmarks(in: frame, region: region, inference: &inferenceTime)
            }
        }
        guard var p = pose else {
            nextRegion = nil
            resetFilters()
            return nil
        }
        if estimator.options.smoothing { smooth(&p, time: time) }
        nextRegion = RegionOfInterest.fromAlignment(center: p.points[33], scalePoint: p.points[34],
                                                    scale: estimator.options.regionScale)
        return estimator.frame(from: p, index: idx, time: time, detectorRan: ranDetector)
    }

    /// MediaPipe's `pose_landmark_filtering`: visibility low-pass, One Euro on pixels (scaled by the
    /// body size from the auxiliary landmarks), on world metres, and on the auxiliary landmarks.
    private func smooth(_ p: inout ProjectedPose, time: Double) {
        let w = Double(p.width)
        let a = p.points[33], b = p.points[34]
        let dx = b.x - a.x, dy = b.y - a.y
        let objectScale = (dx * dx + dy * dy).squareRoot() * 2
        let alpha = estimator.options.visibilityAlpha
        if smoothedVisibility.count == 35 {
            for i in 0..<35 { smoothedVisibility[i] += alpha * (p.visibility[i] - smoothedVisibility[i]) }
        } else {
            smoothedVisibility = p.visibility
        }
        p.visibility = smoothedVisibility
        let body = (0..<33).map { (p.points[$0].x, p.points[$0].y, p.z[$0] * w) }
        let fb = landmarkFilter.apply(body, time: time, objectScale: objectScale)
        let aux = (33..<35).map { (p.points[$0].x, p.points[$0].y, p.z[$0] * w) }
        let fa = auxFilter.apply(aux, time: time, objectScale: objectScale)
        for (i, v) in (fb + fa).enumerated() {
            p.points[i] = Point2(x: v.0, y: v.1); p.z[i] = v.2 / w
        }
        let fw = worldFilter.apply(p.world.map { ($0.x, $0.y, $0.z) }, time: time, objectScale: 1)
        p.world = fw.map { Vec3(x: $0.0, y: $0.1, z: $0.2) }
    }
}
