import Foundation
import SwingCore
import SwingInference

/// BlazePose (MediaPipe's detector + full landmark model) on ONNX Runtime.
///
/// ``estimate(image:)`` is MediaPipe's static-image mode (detector on every call); use
/// ``PoseTracker`` for video. Immutable after init, so one estimator can serve several threads.
package final class PoseEstimator: Sendable {
    package let options: PoseOptions
    let detector: InferenceSession
    let landmarker: InferenceSession
    let landmarkOutputs: LandmarkOutputs

    /// Loads both models.
    /// - Parameters:
    ///   - modelsDirectory: the folder with `pose_detection.onnx` and `pose_landmark_full.onnx`;
    ///     `nil` = ``PoseModels/defaultDirectory()``.
    ///   - options: pipeline thresholds.
    /// - Throws: ``PoseError`` (`modelsUnavailable`) when the files are missing or not BlazePose models;
    ///   `InferenceError` when ONNX Runtime is missing or cannot read them.
    package init(modelsDirectory: URL? = nil, options: PoseOptions = .init()) throws {
        let dir = try PoseModels.directory(modelsDirectory)
        var so = SessionOptions()
        so.intraOpThreads = options.threads
        so.allowSpinning = options.allowSpinning
        detector = try InferenceSession(modelPath: dir.appendingPathComponent(PoseModels.detectorFile).path, options: so)
        landmarker = try InferenceSession(modelPath: dir.appendingPathComponent(PoseModels.landmarkFile).path, options: so)
        guard detector.inputs.first?.shape == [1, 224, 224, 3], landmarker.inputs.first?.shape == [1, 256, 256, 3],
              detector.outputs.count == 2, let outputs = LandmarkOutputs(landmarker.outputs) else {
            throw PoseError(.modelsUnavailable, "The files in \(dir.path) are not the BlazePose ONNX models this version expects.")
        }
        landmarkOutputs = outputs
        self.options = options
    }

    /// Finds the most confident person and returns their pose (static-image mode).
    /// - Returns: the pose, or `nil` when no person is found.
    /// - Throws: `InferenceError` if ONNX Runtime fails.
    package func estimate(image: ImageBuffer) throws -> PoseFrame? {
        var inference = StageTime()
        guard let det = try detectPerson(in: image, inference: &inference) else { return nil }
        let region = regionFromDetection(det, width: image.width, height: image.height)
        guard let lm = try landmarks(in: image, region: region, inference: &inference) else { return nil }
        return frame(from: lm, index: 0, time: 0, detectorRan: true)
    }

    // MARK: - Pipeline steps (shared with PoseTracker)

    /// Runs the detector on the letterboxed image; the best candidate after weighted NMS, or nil.
    /// `inference` accumulates the time spent inside ONNX Runtime (for the pose stage's breakdown).
    func detectPerson(in image: ImageBuffer, inference: inout StageTime) throws -> PersonDetection? {
        try detectPeople(in: image, tiles: false, inference: &inference).first?.detection
    }

    /// Every person the detector finds in `image`, most confident first: in the whole frame letterboxed, and with
    /// `tiles` also in overlapping squares a third of the frame's shorter side (``DetectionTiles``), where people a
    /// seventh of the frame's height are big enough to find. Candidates seen in several tiles are merged, and of
    /// two whose hips nearly coincide only the more confident is kept (``PersonCandidate/onePerBody(_:)``).
    /// - Throws: `InferenceError` if ONNX Runtime fails.
    package func detectPeople(in image: ImageBuffer, tiles: Bool) throws -> [PersonCandidate] {
        var inference = StageTime()
        return try detectPeople(in: image, tiles: tiles, inference: &inference)
    }

    func detectPeople(in image: ImageBuffer, tiles: Bool, inference: inout StageTime) throws -> [PersonCandidate] {
        try detectPeople(in: image, tiles: tiles ? DetectionTiles.regions(width: image.width, height: image.height) : [],
                         inference: &inference)
    }

    /// ``detectPeople(in:tiles:)`` with tiles of `tileSide` pixels (``DetectionTiles/regions(width:height:side:)``).
    func detectPeople(in image: ImageBuffer, tileSide: Double, inference: inout StageTime) throws -> [PersonCandidate] {
        try detectPeople(in: image, tiles: DetectionTiles.regions(width: image.width, height: image.height, side: tileSide),
                         inference: &inference)
    }

    /// ``detectPeople(in:tiles:)`` with one small-person tile centred on `point` (pixels;
    /// ``DetectionTiles/around(_:width:height:)``).
    func detectPeople(in image: ImageBuffer, around point: Point2, inference: inout StageTime) throws -> [PersonCandidate] {
        try detectPeople(in: image, tiles: [DetectionTiles.around(point, width: image.width, height: image.height)].compactMap { $0 },
                         inference: &inference)
    }

    /// Every person found in the whole frame and in `tiles`.
    private func detectPeople(in image: ImageBuffer, tiles: [PoseRegion], inference: inout StageTime) throws -> [PersonCandidate] {
        let side = Double(max(image.width, image.height))
        let full = PoseRegion(centerX: Double(image.width) / 2, centerY: Double(image.height) / 2,
                              width: side, height: side, rotation: 0)
        var raw = try detect(in: image, square: full, inference: &inference)
        for tile in tiles {
            raw += try detect(in: image, square: tile, inference: &inference)
        }
        let people = DetectorDecoder.weightedNMS(raw, iou: options.nmsIoU)
            .map { PersonCandidate($0, width: image.width, height: image.height) }
            .filter { $0.size.isFinite && $0.size > 0 }
        return PersonCandidate.onePerBody(people)
    }

    /// The detector's candidates in the unrotated square `region` of `image` (zero outside the image), above the
    /// score threshold, normalised to the whole image.
    private func detect(in image: ImageBuffer, square region: PoseRegion, inference: inout StageTime) throws -> [PersonDetection] {
        let n = DetectorDecoder.inputSize
        var input = [Float](repeating: 0, count: n * n * 3)
        input.withUnsafeMutableBufferPointer {
            ImageWarp.crop(image, region: region, size: n, border: .zero, scale: 2 / 255, offset: -1, into: $0)
        }
        let out = try inference.measure {
            try input.withUnsafeBufferPointer {
                try detector.run(inputName: detector.inputs[0].name, shape: [1, n, n, 3], data: $0)
            }
        }
        guard let boxes = out[detector.outputs[0].name]?.data, let scores = out[detector.outputs[1].name]?.data else {
            return []
        }
        return DetectorDecoder.decode(boxes: boxes, scores: scores, minScore: options.minDetectionScore,
                                      clip: options.scoreClipping)
            .map { DetectorDecoder.fromSquare($0, region: region, imageWidth: image.width, imageHeight: image.height) }
    }

    func regionFromDetection(_ d: PersonDetection, width: Int, height: Int) -> PoseRegion {
        let w = Double(width), h = Double(height)
        return RegionOfInterest.fromAlignment(
            center: Point2(x: d.keypoints[0].x * w, y: d.keypoints[0].y * h),
            scalePoint: Point2(x: d.keypoints[1].x * w, y: d.keypoints[1].y * h), scale: options.regionScale)
    }

    /// Landmarks of one person inside `region`, projected to the image; nil when the pose flag is low.
    func landmarks(in image: ImageBuffer, region: PoseRegion, inference: inout StageTime) throws -> ProjectedPose? {
        guard region.width.isFinite, region.height.isFinite, region.width > 1, region.height > 1,
              region.centerX.isFinite, region.centerY.isFinite, region.rotation.isFinite,
              max(abs(region.centerX), abs(region.centerY), region.width) < 1e7 else { return nil }
        let n = LandmarkDecoder.inputSize
        var input = [Float](repeating: 0, count: n * n * 3)
        input.withUnsafeMutableBufferPointer {
            ImageWarp.crop(image, region: region, size: n, border: .replicate, scale: 1 / 255, offset: 0, into: $0)
        }
        let names = landmarkOutputs
        let wanted = options.refineWithHeatmap ? [names.landmarks, names.flag, names.heatmap, names.world]
            : [names.landmarks, names.flag, names.world]
        let out = try inference.measure {
            try input.withUnsafeBufferPointer {
                try landmarker.run(inputName: landmarker.inputs[0].name, shape: [1, n, n, 3], data: $0, outputNames: wanted)
            }
        }
        guard let flag = out[names.flag]?.data.first, let lms = out[names.landmarks]?.data,
              let world = out[names.world]?.data else { return nil }
        let score = Double(flag)
        guard score >= options.minPoseScore,
              let raw = LandmarkDecoder.decode(landmarks: lms, world: world, heatmap: out[names.heatmap]?.data,
                                               options: options) else { return nil }
        return ProjectedPose(raw: raw, region: region, score: score, width: image.width, height: image.height)
    }

    func frame(from p: ProjectedPose, index: Int, time: Double, detectorRan: Bool) -> PoseFrame {
        let w = Double(p.width), h = Double(p.height)
        let lms = (0..<LandmarkDecoder.bodyLandmarks).map { i in
            PoseLandmark(x: p.points[i].x, y: p.points[i].y, z: p.z[i], visibility: p.visibility[i],
                         presence: p.presence[i], nx: p.points[i].x / w, ny: p.points[i].y / h)
        }
        return PoseFrame(index: index, time: time, score: p.score, landmarks: lms, worldLandmarks: p.world,
                         joints: AppleJoints.derive(from: p.world), region: p.region, detectorRan: detectorRan)
    }
}

/// Which of the landmark model's outputs is which, told apart by shape: landmarks `[1, 195]`, pose flag
/// `[1, 1]`, heatmap `[1, 64, 64, 39]`, world landmarks `[1, 117]`. The segmentation mask
/// (`[1, 256, 256, 1]`) is never read, and the committed model no longer has it
/// (`tools/prune_blazepose.py`): ONNX Runtime runs every node whatever a caller fetches, and the mask's
/// head cost 40 % of the model's time. A model that still has it loads as well.
struct LandmarkOutputs: Sendable {
    let landmarks: String, flag: String, heatmap: String, world: String

    init?(_ outputs: [TensorInfo]) {
        func named(_ shape: [Int]) -> String? {
            let matches = outputs.filter { $0.shape == shape }
            return matches.count == 1 ? matches[0].name : nil
        }
        guard let landmarks = named([1, 195]), let flag = named([1, 1]), let heatmap = named([1, 64, 64, 39]),
              let world = named([1, 117]), outputs.count <= 5 else { return nil }
        self.landmarks = landmarks; self.flag = flag; self.heatmap = heatmap; self.world = world
    }
}

/// Landmark-model output mapped back to the image (MediaPipe's `LandmarkProjectionCalculator` and
/// `WorldLandmarkProjectionCalculator`).
struct ProjectedPose: Sendable {
    var region: PoseRegion
    var score: Double
    var width: Int, height: Int
    /// 35 points in pixels (33 body + 2 auxiliary).
    var points: [Point2]
    /// 35 depths, normalised by image width like MediaPipe's (z · region width / image width).
    var z: [Double]
    var visibility: [Double], presence: [Double]
    /// 33 world landmarks in metres, rotated back into the image's orientation.
    var world: [Vec3]

    /// The hip centre (auxiliary landmark 33), pixels.
    var center: Point2 { points[33] }
    /// The body size as the detector measures it: twice the hip centre → body-size point distance, pixels.
    var bodySize: Double {
        let a = points[33], b = points[34]
        return 2 * ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
    }

    init(raw: RawLandmarks, region: PoseRegion, score: Double, width: Int, height: Int) {
        self.region = region; self.score = score; self.width = width; self.height = height
        let c = cos(region.rotation), s = sin(region.rotation)
        let count = LandmarkDecoder.bodyLandmarks + 2
        points = (0..<count).map { RegionOfInterest.project(raw.x[$0], raw.y[$0], in: region, cos: c, sin: s) }
        z = (0..<count).map { raw.z[$0] * region.width / Double(max(width, 1)) }
        visibility = Array(raw.visibility.prefix(count))
        presence = Array(raw.presence.prefix(count))
        world = raw.world.map { Vec3(x: c * $0.x - s * $0.y, y: s * $0.x + c * $0.y, z: $0.z) }
    }
}

extension PoseEstimator {
    /// Where `person` is in `image`, as the pose stage would first pose them: the box (pixels, inside the picture)
    /// around the 33 landmarks the landmark model finds in the region their detection gives, a little larger
    /// above the head (the highest landmarks are the eyes and ears) and beside the hands; `nil` when the model
    /// finds no pose there — a tracker could not start following them on this frame either.
    /// - Throws: `InferenceError` if ONNX Runtime fails.
    package func outline(of person: PersonCandidate, in image: ImageBuffer) throws -> Rect? {
        var inference = StageTime()
        let region = regionFromDetection(person.detection, width: image.width, height: image.height)
        guard let pose = try landmarks(in: image, region: region, inference: &inference) else { return nil }
        let body = pose.points.prefix(LandmarkDecoder.bodyLandmarks).filter { $0.x.isFinite && $0.y.isFinite }
        guard let x1 = body.map(\.x).min(), let x2 = body.map(\.x).max(),
              let y1 = body.map(\.y).min(), let y2 = body.map(\.y).max() else { return nil }
        let w = Double(image.width), h = Double(image.height), tall = y2 - y1, wide = x2 - x1
        let box = Rect(x1: max(0, x1 - 0.08 * wide), y1: max(0, y1 - 0.1 * tall),
                       x2: min(w, x2 + 0.08 * wide), y2: min(h, y2 + 0.03 * tall))
        return box.width > 0 && box.height > 0 ? box : nil
    }
}
