import ArgumentParser
import Foundation
import SwingCore
import SwingMedia
import SwingPose

/// `swingmaster pose SOURCE` — BlazePose 3D body pose for an image or a video.
struct PoseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pose",
        abstract: "Estimate 33 body landmarks (image pixels + world metres) with BlazePose.",
        discussion: "Images run in static mode (exit 30 when nobody is found); videos are tracked frame by frame, following one person: the biggest upright person whose whole body is in view, or the one --player points at, never switching to someone else."
    )

    @Argument(help: "An image (png, jpg, jpeg, bmp, webp) or a video file.")
    var source: String

    @Flag(help: "Print the result as JSON.")
    var json = false

    @Option(help: "Write an annotated copy: OUT.png / OUT.jpg for images, OUT.mp4 for videos.")
    var save: String?

    @OptionGroup var range: TimeRangeOptions

    @Option(name: .customLong("player"), help: ArgumentHelp(
        "Video: whom to follow when several people are in view, as fractions of the picture's width and height from the top-left where they are when first seen (e.g. 0.5,0.8). Default: the biggest person whose whole body is in view.",
        valueName: "x,y"))
    var player: PlayerPointArgument?

    @Flag(name: .customLong("small-people"), help: "Video: also look for people too small for the detector's view of the whole frame, in overlapping tiles (players of 100 px in 720p; on by itself with --player). Slower while nobody big is in view: 2–3× on a street clip of 100-px walkers, where it poses 1.8× as many frames.")
    var smallPeople = false

    @Flag(name: .customLong("no-smooth"), help: "Video: turn off One Euro landmark smoothing.")
    var noSmooth = false

    @Option(help: "Folder with pose_detection.onnx and pose_landmark_full.onnx (default: SWINGMASTER_MODELS or ./Models).")
    var models: String?

    @Option(help: "Minimum person-detector score.")
    var minDetectionScore: Double = PoseOptions().minDetectionScore

    @Option(help: "Minimum pose-presence score of the landmark model.")
    var minPoseScore: Double = PoseOptions().minPoseScore

    @Option(help: "Detector candidates overlapping more than this (IoU) are merged.")
    var nmsIou: Double = PoseOptions().nmsIoU

    @Flag(name: .customLong("no-heatmap-refine"), help: "Skip MediaPipe's heatmap refinement of landmark positions.")
    var noHeatmapRefine = false

    @Option(help: "Refine a landmark from the heatmap only when its window's peak confidence reaches this.")
    var minHeatmapConfidence: Double = PoseOptions().minHeatmapConfidence


    func validate() throws {
        try OptionCheck.number(minDetectionScore, "--min-detection-score", 0...1)
        try OptionCheck.number(minPoseScore, "--min-pose-score", 0...1)
        try OptionCheck.number(nmsIou, "--nms-iou", 0...1)
        try OptionCheck.number(minHeatmapConfidence, "--min-heatmap-confidence", 0...1)
        try player?.validate()
        if player?.mark.time != nil {
            throw ValidationError("--player: pose takes X,Y, where the person is when first seen (use --start to begin at a moment).")
        }
        try OutputFile.refuseInputs([("--save", save)], inputs: [source] + OutputFile.poseModelFiles(models))
    }

    func run() async throws {
        guard FileManager.default.fileExists(atPath: source) else {
            throw MediaError(.fileNotFound, "\(source) does not exist.")
        }
        try OutputFile.checkWritable([("--save", save)])
        var options = PoseOptions()
        options.smoothing = !noSmooth
        options.minDetectionScore = minDetectionScore
        options.minPoseScore = minPoseScore
        options.nmsIoU = nmsIou
        options.refineWithHeatmap = !noHeatmapRefine
        options.minHeatmapConfidence = minHeatmapConfidence
        let estimator = try PoseEstimator(modelsDirectory: models.map { URL(fileURLWithPath: $0) }, options: options)
        let command = self
        try await OutputFile.write(optional: command.save) { temporary in
            var command = command
            command.save = temporary
            try await InterruptWatcher.cancellable("pose") { [command] in
                if ImageIO.isImagePath(command.source) {
                    try command.runImage(estimator)
                } else {
                    try command.runVideo(estimator)
                }
            }
        }
    }

    private func runImage(_ estimator: PoseEstimator) throws {
        let image = try ImageIO.load(source)
        let pose = try estimator.estimate(image: image)
        guard let pose else {
            if json {
                try Console.printJSON(PoseReport(source: source, width: image.width, height: image.height,
                                                 frames: [.noPerson(index: 0, time: 0)]))
            }
            throw PoseError(.noPerson, "No person was found in \(source).")
        }
        if let save { try ImageIO.save(PoseDrawing.draw(pose, on: image), to: save) }
        if json {
            try Console.printJSON(PoseReport(source: source, width: image.width, height: image.height, frames: [pose]))
        } else {
            try Console.line(Self.summary(pose))
        }
    }

    private func runVideo(_ estimator: PoseEstimator) throws {
        let reader = try VideoFrameReader(path: source)
        let tracker = PoseTracker(estimator: estimator)
        // The player, as analyze follows them: the biggest whole upright body (in tiles too with --small-people), or
        // the one pointed at, however small.
        tracker.findSmallPeople = smallPeople || player != nil
        tracker.uprightOnly = true
        tracker.choice = player.map { .nearest($0.mark.point) } ?? .largest
        let (w, h) = reader.outputSize
        let start = range.start ?? 0, duration = range.duration
        let end = duration.map { start + $0 } ?? Double.greatestFiniteMagnitude
        let total = duration ?? (reader.info.frameCount.map { Double($0) / max(reader.info.frameRate, 1) } ?? 0) - start
        let writer = try save.map {
            try VideoWriter(path: $0, width: w, height: h, fps: reader.info.frameRate > 0 ? reader.info.frameRate : 30,
                            frameTimes: true)
        }
        let bar = ProgressBar()
        var frames: [PoseFrame] = []
        try reader.frames(from: start, to: end) { frame in
            if Cancellation.isRequested { return false }
            let pose = try tracker.process(frame: frame.image, time: frame.time, index: frame.index)
            frames.append(pose ?? .noPerson(index: frame.index, time: frame.time))
            if let writer {
                let drawn = pose.map { PoseDrawing.draw($0, on: frame.image) } ?? frame.image
                try writer.append(drawn, at: frame.time - start)
            }
            if total > 0 { bar.update(stage: "pose", min((frame.time - start) / total, 0.99)) }
            return true
        }
        if Cancellation.isRequested { throw InterruptWatcher.cancelled("pose estimation") }
        try writer?.finish()
        bar.update(stage: "pose", 1)
        if json {
            try Console.printJSON(PoseReport(source: source, width: w, height: h, frames: frames))
        } else {
            let found = frames.filter { !$0.landmarks.isEmpty }.count
            try Console.line("\(source): \(frames.count) frames, person in \(found), detector ran on \(tracker.detectorRuns)")
            if found == 0 { try Console.line("no person was found in any frame") }
        }
    }

    static func summary(_ p: PoseFrame) -> String {
        func fmt(_ v: Vec3?) -> String {
            guard let v else { return "-" }
            return String(format: "(%.2f, %.2f, %.2f) m", v.x, v.y, v.z)
        }
        return """
        person found (score \(String(format: "%.2f", p.score))), 33 landmarks
          left wrist \(fmt(p.joints["leftWrist"])), right wrist \(fmt(p.joints["rightWrist"])) from the hip centre
        """
    }
}

/// The `--json` document.
struct PoseReport: Encodable {
    var source: String
    var width: Int
    var height: Int
    var frames: [PoseFrame]
}
