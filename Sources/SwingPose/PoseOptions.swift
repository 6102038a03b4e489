/// Settings of a One Euro filter (Casiez et al. 2012) as MediaPipe configures them.
package struct OneEuroSettings: Sendable, Equatable, Codable {
    /// Cutoff frequency (Hz) at zero speed: lower = smoother but laggier.
    package var minCutoff: Double
    /// How fast the cutoff rises with speed: higher = less lag on fast motion.
    package var beta: Double
    /// Cutoff frequency (Hz) of the speed estimate.
    package var derivativeCutoff: Double
    /// Scale values by 1 / object size before estimating speed (MediaPipe's default for image landmarks).
    package var scaleByObjectSize: Bool

    package init(minCutoff: Double, beta: Double, derivativeCutoff: Double = 1.0, scaleByObjectSize: Bool) {
        self.minCutoff = minCutoff; self.beta = beta; self.derivativeCutoff = derivativeCutoff
        self.scaleByObjectSize = scaleByObjectSize
    }
}

/// Every threshold of the BlazePose pipeline. Defaults are MediaPipe 0.10.14's legacy pose graph.
package struct PoseOptions: Sendable, Equatable {
    /// Minimum detector score (after sigmoid) for a person candidate (`min_score_thresh`).
    package var minDetectionScore: Double = 0.5
    /// Detector raw scores are clipped to ±this before the sigmoid (`score_clipping_thresh`).
    package var scoreClipping: Double = 100
    /// IoU above which weighted NMS merges detector candidates (`min_suppression_threshold`).
    package var nmsIoU: Double = 0.3
    /// The landmark region is this many times the detector's / aux landmarks' body size (`scale_x/y`).
    package var regionScale: Double = 1.25
    /// Below this pose-presence score the landmark model's output is dropped (and tracking re-detects).
    package var minPoseScore: Double = 0.5
    /// Refine landmark x, y with the model's heatmap, as MediaPipe's `RefineLandmarksFromHeatmapCalculator`.
    package var refineWithHeatmap: Bool = true
    /// Heatmap refinement window (cells of the 64×64 heatmap).
    package var heatmapKernelSize: Int = 7
    /// Refine only when the window's best heatmap confidence is at least this.
    package var minHeatmapConfidence: Double = 0.5
    /// Smooth landmarks over time in video tracking (``PoseTracker``); never used for still images.
    package var smoothing: Bool = true
    /// Filter for image landmarks (`min_cutoff 0.05, beta 80, derivate_cutoff 1`).
    package var landmarkFilter = OneEuroSettings(minCutoff: 0.05, beta: 80, scaleByObjectSize: true)
    /// Filter for world landmarks (`min_cutoff 0.1, beta 40`, no value scaling).
    package var worldFilter = OneEuroSettings(minCutoff: 0.1, beta: 40, scaleByObjectSize: false)
    /// Filter for the two auxiliary landmarks that place the next frame's region (`0.01, 10`).
    package var auxiliaryFilter = OneEuroSettings(minCutoff: 0.01, beta: 10, scaleByObjectSize: true)
    /// Low-pass factor for visibility / presence in video (`alpha 0.1`: new = 0.1·raw + 0.9·old).
    package var visibilityAlpha: Double = 0.1
    /// ONNX Runtime intra-op threads per model (0 = ORT default: one per core).
    package var threads: Int = 0
    /// Whether ONNX Runtime's idle threads spin-wait (``SessionOptions/allowSpinning``).
    package var allowSpinning = true

    package init() {}
}
