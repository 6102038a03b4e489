import ArgumentParser
import Foundation
import SwingCore
import SwingInference
import SwingMedia
import SwingVision

/// `swingbench yolo --model M.onnx --image I.jpg` — our side of the YOLO comparison in `make bench`:
/// end-to-end latency (decode image → letterbox → inference → decode/NMS) and post-processing alone
/// on the model's raw output. `bench/yolo_peer.py` does the same in Python; `bench/yolo.sh` prints both.
struct YOLOBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "yolo", abstract: "End-to-end YOLO latency and post-processing time (median of N runs).")

    @Option(help: "A YOLO detect ONNX export (e.g. yolo11n.onnx).") var model: String
    @Option(help: "The image to run on (e.g. 1280×720 JPEG).") var image: String
    @Option(help: "Timed runs (median reported).") var runs = 20
    @Option(help: "Untimed warm-up runs.") var warmup = 3
    @Option(help: "Confidence threshold.") var conf: Double = PredictionOptions().conf
    @Option(help: "NMS IoU threshold.") var iou: Double = PredictionOptions().iou
    @Option(name: .customLong("max-det"), help: "Maximum detections.") var maxDet: Int = PredictionOptions().maxDet
    @Option(help: "ONNX Runtime intra-op threads (0 = ORT default, as the Python peer).") var threads = 0
    @Flag(help: "Print one JSON object instead of text.") var json = false

    func validate() throws {
        guard runs >= 1, warmup >= 0 else { throw ValidationError("--runs must be ≥ 1 and --warmup ≥ 0.") }
    }

    func run() async throws {
        var sessionOptions = SessionOptions()
        sessionOptions.intraOpThreads = threads
        let predictor = try YOLOPredictor(modelPath: model, sessionOptions: sessionOptions)
        let options = PredictionOptions(conf: conf, iou: iou, maxDet: maxDet)
        let clock = ContinuousClock()
        var stages: [String: [Double]] = ["decode": [], "pre": [], "infer": [], "post": [], "total": []]
        var last: YOLOResult?
        var loaded: ImageBuffer?
        for i in 0..<(warmup + runs) {
            let start = clock.now
            let picture = try ImageIO.load(image)
            let decodeMs = BenchStats.ms(clock.now - start)
            let result = try predictor.predict(picture, options: options)
            let totalMs = BenchStats.ms(clock.now - start)
            if i >= warmup {
                stages["decode", default: []].append(decodeMs)
                stages["pre", default: []].append(result.speed.preMs)
                stages["infer", default: []].append(result.speed.inferenceMs)
                stages["post", default: []].append(result.speed.postMs)
                stages["total", default: []].append(totalMs)
            }
            last = result
            loaded = picture
        }
        guard let picture = loaded, let result = last else { return }

        // Post-processing alone: the decoder on one stored raw output, repeated (it is sub-millisecond).
        let h = predictor.info.imgsz[0], w = predictor.info.imgsz[1]
        let geometry = LetterboxGeometry(sourceWidth: picture.width, sourceHeight: picture.height, targetWidth: w, targetHeight: h)
        var input: [Float] = []
        Letterbox.tensor(picture, geometry: geometry, into: &input)
        let outputs = try input.withUnsafeBufferPointer {
            try predictor.session.run(inputName: predictor.session.inputs[0].name, shape: [1, 3, h, w], data: $0)
        }
        let raw = predictor.session.outputs.compactMap { o in outputs[o.name].map { RawTensor(shape: $0.shape, data: $0.data) } }
        let decoder = YOLODecoder(info: predictor.info)
        var postOnly: [Double] = []
        for _ in 0..<max(50, runs) {
            let start = clock.now
            _ = try decoder.decode(raw, letterbox: geometry, options: options)
            postOnly.append(BenchStats.ms(clock.now - start))
        }
        let candidates = BenchStats.candidatesAbove(conf, in: raw.first, classCount: predictor.info.classCount)

        // Post-processing on a realistic output: random-weight fixtures put every anchor above conf,
        // a trained model on a real photo puts ~100 there. Same formula as bench/yolo_peer.py.
        var syntheticMs: Double?
        var syntheticCandidates = 0
        if let shape = raw.first?.shape, shape.count == 3, raw.count == 1, predictor.info.task == .detect, !predictor.info.endToEnd {
            let synthetic = BenchStats.syntheticDetectOutput(channels: shape[1], anchors: shape[2])
            syntheticCandidates = BenchStats.candidatesAbove(conf, in: synthetic, classCount: predictor.info.classCount)
            var times: [Double] = []
            for _ in 0..<max(200, runs) {
                let start = clock.now
                _ = try decoder.decode([synthetic], letterbox: geometry, options: options)
                times.append(BenchStats.ms(clock.now - start))
            }
            syntheticMs = BenchStats.median(times)
        }

        let medians = stages.mapValues(BenchStats.median)
        if json {
            let report: [String: Any] = [
                "pipeline": "swingmaster",
                "image": [picture.width, picture.height],
                "outputShape": raw.first?.shape ?? [],
                "candidatesAboveConf": candidates,
                "detections": result.detections.count,
                "medianMs": medians,
                "postOnlyMs": BenchStats.median(postOnly),
                "postSyntheticMs": syntheticMs ?? NSNull(),
                "syntheticCandidates": syntheticCandidates,
            ]
            let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            let m = { (k: String) in String(format: "%.2f", medians[k] ?? 0) }
            print("swingmaster: decode \(m("decode")) pre \(m("pre")) infer \(m("infer")) post \(m("post")) total \(m("total")) ms; "
                  + "post-only \(String(format: "%.3f", BenchStats.median(postOnly))) ms; \(result.detections.count) detections, "
                  + "\(candidates) candidates above conf \(conf)")
            if let syntheticMs {
                print("post-only on a realistic output (\(syntheticCandidates) candidates): \(String(format: "%.3f", syntheticMs)) ms")
            }
        }
    }
}

enum BenchStats {
    static func ms(_ d: Duration) -> Double {
        let c = d.components
        return Double(c.seconds) * 1000 + Double(c.attoseconds) / 1e15
    }

    static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return 0 }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// A `[1, channels, anchors]` detect output shaped like a trained model's on a real photo: every
    /// 84th anchor is a candidate (score 0.30…0.89 for one class, box scattered over 640×640),
    /// all other scores below 0.05. Integer arithmetic only, so bench/yolo_peer.py builds the same floats.
    static func syntheticDetectOutput(channels: Int, anchors: Int) -> RawTensor {
        let classes = channels - 4
        var data = [Float](repeating: 0, count: channels * anchors)
        for a in 0..<anchors {
            data[0 * anchors + a] = Float((a * 13) % 640)
            data[1 * anchors + a] = Float((a * 29) % 640)
            data[2 * anchors + a] = Float(20 + a % 50)
            data[3 * anchors + a] = Float(20 + a % 70)
            for c in 0..<classes {
                data[(4 + c) * anchors + a] = Float((a * 7 + c * 13) % 50) / 1000
            }
            if a % 84 == 0, classes > 0 {
                data[(4 + (a / 84) % classes) * anchors + a] = Float(30 + (a * 37) % 60) / 100
            }
        }
        return RawTensor(shape: [1, channels, anchors], data: data)
    }

    /// Anchors whose best class score exceeds `conf` in a raw `[1, 4+nc(+extra), N]` output.
    static func candidatesAbove(_ conf: Double, in output: RawTensor?, classCount: Int) -> Int {
        guard let output, output.shape.count == 3 else { return 0 }
        let channels = output.shape[1], anchors = output.shape[2]
        guard channels >= 4 + classCount, anchors > channels else { return 0 }  // end-to-end layouts are [1, N, 6]
        var count = 0
        let threshold = Float(conf)
        output.data.withUnsafeBufferPointer { p in
            for a in 0..<anchors {
                var best: Float = 0
                for c in 0..<classCount { best = max(best, p[(4 + c) * anchors + a]) }
                if best > threshold { count += 1 }
            }
        }
        return count
    }
}
