import ArgumentParser
import Foundation
import SwingCore
import SwingInference
import SwingMedia
import SwingPipeline
import SwingPose
import SwingVision

/// `swingbench tennis --model M.onnx --image I.jpg` — the studio's tennis mode on one frame, the two ways it
/// can share the cores: YOLO then BlazePose with ONNX Runtime's default threads, against both at once with
/// THREADS each; and each model alone with both thread counts, in the same run. Rounds interleave the
/// configurations so a neighbour's load falls on all of them; medians are reported.
struct TennisBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tennis", abstract: "Tennis mode: YOLO and BlazePose one after the other vs at the same time.")

    @Option(help: "A YOLO detect ONNX export (e.g. tools/make_realistic_yolo.py's).") var model: String
    @Option(help: "The picture, with a person in it (JPEG, as a camera sends).") var image: String
    @Option(help: "Frames per configuration and round.") var runs = 20
    @Option(help: "Rounds over all configurations.") var rounds = 3
    @Option(help: "ONNX Runtime threads per model when both run at once.") var threads = 1
    @Option(help: "BlazePose models folder (default: SWINGMASTER_MODELS or ./Models).") var models: String?
    @Flag(help: "Print one JSON object instead of text.") var json = false

    func validate() throws {
        guard runs >= 1, rounds >= 1, threads >= 0 else { throw ValidationError("--runs and --rounds must be ≥ 1, --threads ≥ 0.") }
    }

    func run() async throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: image))
        let dir = models.map { URL(fileURLWithPath: $0) }
        func yolo(_ threads: Int) throws -> YOLOPredictor {
            var o = SessionOptions(); o.intraOpThreads = threads
            return try YOLOPredictor(modelPath: model, sessionOptions: o)
        }
        func pose(_ threads: Int) throws -> PoseEstimator {
            var o = PoseOptions(); o.threads = threads
            return try PoseEstimator(modelsDirectory: dir, options: o)
        }
        let yoloAll = try yolo(0), yoloFew = try yolo(threads)
        let poseAll = try pose(0), poseFew = try pose(threads)
        let queue = InferenceQueue(label: "swingbench.tennis")
        let settings = DetectionSettings()
        let interpreter = try settings.applying(.init(interpret: "tennis-contact")).interpreter(configuration: nil)

        struct Config { var name: String; var predictor: YOLOPredictor; var estimator: PoseEstimator; var schedule: TennisSchedule }
        let configs = [
            Config(name: "sequential, default threads", predictor: yoloAll, estimator: poseAll, schedule: .sequential),
            Config(name: "concurrent, \(threads) thread(s) each", predictor: yoloFew, estimator: poseFew, schedule: .concurrent),
            Config(name: "concurrent, default threads", predictor: yoloAll, estimator: poseAll, schedule: .concurrent),
            Config(name: "sequential, \(threads) thread(s) each", predictor: yoloFew, estimator: poseFew, schedule: .sequential),
            Config(name: "concurrent, yolo default, pose \(threads)", predictor: yoloAll, estimator: poseFew, schedule: .concurrent),
        ]
        var frameMs = [[Double]](repeating: [], count: configs.count)
        var yoloMs = frameMs, poseMs = frameMs
        var persons = [Int](repeating: 0, count: configs.count)
        let clock = ContinuousClock()
        for round in 0..<rounds {
            for (c, config) in configs.enumerated() {
                let mode = TennisMode(estimator: config.estimator, schedule: config.schedule)
                for i in 0..<(runs + (round == 0 ? 3 : 0)) {
                    let t = clock.now
                    let p = try await mode.run(image: bytes, predictor: config.predictor, settings: settings,
                                               interpreter: interpreter, queue: queue, source: "bench",
                                               frameIndex: i, time: Double(i) / 30)
                    guard round > 0 || i >= 3 else { continue }   // warm-up
                    frameMs[c].append(BenchStats.ms(clock.now - t))
                    yoloMs[c].append(p.yoloMs ?? 0); poseMs[c].append(p.poseMs ?? 0)
                    persons[c] += p.frame.pose == nil ? 0 : 1
                }
            }
        }
        // Each model alone, same frames, both thread counts.
        let picture = try ImageIO.decode(bytes)
        var alone: [String: Double] = [:]
        for (name, t) in [("yolo, default threads", 0), ("yolo, \(threads) thread(s)", 1)] {
            let p = t == 0 ? yoloAll : yoloFew
            var ms: [Double] = []
            for _ in 0..<(runs * rounds) {
                let s = clock.now; _ = try p.predict(picture, options: settings.prediction); ms.append(BenchStats.ms(clock.now - s))
            }
            alone[name] = BenchStats.median(ms)
        }
        for (name, e) in [("blazepose tracking, default threads", poseAll), ("blazepose tracking, \(threads) thread(s)", poseFew)] {
            let tracker = PoseTracker(estimator: e)
            var ms: [Double] = []
            for i in 0..<(runs * rounds) {
                let s = clock.now; _ = try tracker.process(frame: picture, time: Double(i) / 30); ms.append(BenchStats.ms(clock.now - s))
            }
            alone[name] = BenchStats.median(Array(ms.dropFirst(3)))
        }
        let rows = configs.indices.map { c in
            (configs[c].name, BenchStats.median(frameMs[c]), BenchStats.median(yoloMs[c]), BenchStats.median(poseMs[c]), persons[c], frameMs[c].count)
        }
        if json {
            let object: [String: Any] = [
                "image": [picture.width, picture.height],
                "schedules": rows.map { ["name": $0.0, "frameMs": $0.1, "yoloMs": $0.2, "poseMs": $0.3, "withPerson": $0.4, "frames": $0.5] },
                "alone": alone,
            ]
            print(String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
            return
        }
        print("tennis mode on one \(picture.width)×\(picture.height) frame, \(ProcessInfo.processInfo.activeProcessorCount) cores, medians of \(runs * rounds) frames")
        for r in rows {
            print(String(format: "  %-34@ %6.1f ms/frame (%4.1f FPS): yolo %5.1f, pose %5.1f ms; person in %d of %d",
                         r.0 as NSString, r.1, 1000 / r.1, r.2, r.3, r.4, r.5))
        }
        for (name, ms) in alone.sorted(by: { $0.key < $1.key }) {
            print(String(format: "  alone: %-34@ %6.1f ms", name as NSString, ms))
        }
    }
}
