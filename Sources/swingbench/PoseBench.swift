import ArgumentParser
import Foundation
import SwingTestSupport
import SwingCore
import SwingMedia
import SwingPose

/// `swingbench pose --video V | --images I…` — BlazePose frames per second, ours vs MediaPipe Python
/// (`bench/pose_peer.py`) on the same frames, same machine, one run each.
struct PoseBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pose",
        abstract: "BlazePose throughput: SwingPose vs MediaPipe Python on the same frames."
    )

    @Option(help: "A video: frames are tracked (video mode) like MediaPipe's Pose(static_image_mode=False).")
    var video: String?

    @Option(parsing: .upToNextOption, help: "Images: static mode, each image once per pass.")
    var images: [String] = []

    @Option(help: "Video: at most this many frames (0 = all).")
    var frames = 300

    @Option(name: .customLong("repeat"), help: "Images: passes over the list.")
    var repeat_ = 5

    @Option(help: "Python with mediapipe==0.10.14 for the peer (default: env SWINGMASTER_MP_PYTHON); skip the peer if unset.")
    var peerPython: String?

    @Option(help: "Models folder (default: SWINGMASTER_MODELS or ./Models).")
    var models: String?

    @Option(help: "ONNX Runtime intra-op threads per model (0 = one per core).")
    var threads = 0
    @Flag(help: "Turn off ONNX Runtime's spin-waiting threads (session.intra_op.allow_spinning = 0).")
    var noSpin = false

    func validate() throws {
        guard (video != nil) != !images.isEmpty else { throw ValidationError("give either --video or --images") }
    }

    func run() throws {
        // Decode first: the benchmark measures pose estimation, not decoding (the peer does the same).
        var inputs: [(ImageBuffer, Double)] = []
        if let video {
            let reader = try VideoFrameReader(path: video)
            while let f = try reader.nextFrame(), frames == 0 || inputs.count < frames { inputs.append((f.image, f.time)) }
        } else {
            let imgs = try images.map { try ImageIO.load($0) }
            for _ in 0..<max(1, repeat_) { inputs += imgs.map { ($0, 0) } }
        }
        guard let first = inputs.first else { throw ValidationError("no frames to benchmark") }
        var options = PoseOptions()
        options.threads = max(0, threads)
        options.allowSpinning = !noSpin
        let estimator = try PoseEstimator(modelsDirectory: models.map { URL(fileURLWithPath: $0) }, options: options)
        _ = try estimator.estimate(image: first.0)  // warm-up (ORT allocations), as the peer does
        let tracker = PoseTracker(estimator: estimator)
        var persons = 0
        let t0 = DispatchTime.now().uptimeNanoseconds
        for (i, (image, time)) in inputs.enumerated() {
            if video != nil {
                persons += try tracker.process(frame: image, time: time, index: i) != nil ? 1 : 0
            } else {
                persons += try estimator.estimate(image: image) != nil ? 1 : 0
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
        let fps = Double(inputs.count) / seconds
        print(String(format: "swingpose: %d frames in %.2f s = %.1f frames/s, person in %d", inputs.count, seconds, fps, persons))
        if video != nil {
            let pre = (seconds - tracker.inferenceSeconds) / Double(inputs.count) * 1000
            print(String(format: "swingpose: inference %.2f ms/frame, pre/post-processing %.2f ms/frame, detector on %d frames",
                         tracker.inferenceSeconds / Double(inputs.count) * 1000, pre, tracker.detectorRuns))
        }
        guard let python = peerPython ?? ProcessInfo.processInfo.environment["SWINGMASTER_MP_PYTHON"] else {
            print("peer: skipped (set --peer-python or SWINGMASTER_MP_PYTHON to a Python with mediapipe==0.10.14)")
            return
        }
        var args = [Self.peerScript().path]
        if let video { args += ["--video", video, "--frames", String(frames)] } else {
            args += ["--images"] + images + ["--repeat", String(repeat_)]
        }
        let run = try Subprocess.run(python, args, timeout: 3600)
        struct Peer: Decodable { var frames: Int; var seconds: Double; var fps: Double; var persons: Int }
        guard run.succeeded, let line = String(decoding: run.stdout, as: UTF8.self).split(separator: "\n").last,
              let peer = try? JSONDecoder().decode(Peer.self, from: Data(line.utf8)) else {
            print("peer: failed (exit \(run.status))")
            return
        }
        print(String(format: "mediapipe: %d frames in %.2f s = %.1f frames/s, person in %d", peer.frames, peer.seconds, peer.fps, peer.persons))
        print(String(format: "ratio (swingpose / mediapipe): %.2fx", fps / peer.fps))
    }

    /// `bench/pose_peer.py`, found from the current directory or this source file's package.
    static func peerScript() -> URL {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("bench/pose_peer.py")
        if FileManager.default.fileExists(atPath: cwd.path) { return cwd }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("bench/pose_peer.py")
    }
}
