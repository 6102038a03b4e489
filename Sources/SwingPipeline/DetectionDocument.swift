import Foundation
import SwingCore
import SwingVision

/// The detection document: what `swingmaster detect --json` prints and the studio's `POST /api/detect`
/// answers (docs/studio.md). One type for both, so the CLI and the server cannot drift apart.
package struct DetectionDocument: Codable, Equatable, Sendable {
    /// The model that ran.
    package struct Model: Codable, Equatable, Sendable {
        package var task: String
        /// Class names keyed by the id as text (JSON object keys are strings).
        package var names: [String: String]
        package var imgsz: [Int]

        package init(task: String, names: [String: String], imgsz: [Int]) {
            self.task = task; self.names = names; self.imgsz = imgsz
        }

        /// The model as a YOLO predictor describes it.
        package init(_ info: YOLOModelInfo) {
            self.init(task: info.task.rawValue,
                      names: Dictionary(uniqueKeysWithValues: info.names.map { (String($0.key), $0.value) }),
                      imgsz: info.imgsz)
        }
    }

    /// Milliseconds per stage of one prediction.
    package struct Speed: Codable, Equatable, Sendable {
        package var preMs: Double
        package var inferenceMs: Double
        package var postMs: Double
        package init(preMs: Double, inferenceMs: Double, postMs: Double) {
            self.preMs = preMs; self.inferenceMs = inferenceMs; self.postMs = postMs
        }
    }

    /// An axis-aligned box in image pixels, origin top-left.
    package struct Box: Codable, Equatable, Sendable {
        package var x1: Double, y1: Double, x2: Double, y2: Double
    }

    /// A rotated box.
    package struct OBB: Codable, Equatable, Sendable {
        package var cx: Double, cy: Double, w: Double, h: Double, angle: Double
        /// The four corners as `[x, y]` pairs.
        package var points: [[Double]]
    }

    /// COCO uncompressed RLE over the column-major pixel order; `size` is `[height, width]`.
    package struct Mask: Codable, Equatable, Sendable {
        package var size: [Int]
        package var counts: [Int]
    }

    /// One detection.
    package struct Item: Codable, Equatable, Sendable {
        package var classId: Int
        package var label: String
        package var confidence: Double
        package var box: Box
        /// `[x, y, visibility]` per keypoint (pose only).
        package var keypoints: [[Double]]?
        package var obb: OBB?
        package var mask: Mask?
        /// The track the detection belongs to (`detect --track` on a video); absent otherwise.
        package var trackId: Int?

        /// - Parameters:
        ///   - d: The detection.
        ///   - trackId: Its track, when the run tracks objects.
        package init(_ d: Detection, trackId: Int? = nil) {
            self.trackId = trackId
            classId = d.classId
            label = d.label
            confidence = d.confidence
            box = Box(x1: d.box.x1, y1: d.box.y1, x2: d.box.x2, y2: d.box.y2)
            keypoints = d.keypoints?.map { [$0.x, $0.y, $0.visibility] }
            obb = d.obb.map { o in
                OBB(cx: o.cx, cy: o.cy, w: o.w, h: o.h, angle: o.angle, points: o.corners.map { [$0.x, $0.y] })
            }
            mask = d.mask.map { Mask(size: [$0.height, $0.width], counts: $0.cocoRLE) }
        }

        /// The detection as interpreters read it (box, label, confidence; task extras are not used).
        package var detection: Detection {
            Detection(classId: classId, label: label, confidence: confidence,
                      box: Rect(x1: box.x1, y1: box.y1, x2: box.x2, y2: box.y2))
        }
    }

    /// One class of a classification model's top-k.
    package struct ClassScore: Codable, Equatable, Sendable {
        package var classId: Int
        package var label: String
        package var confidence: Double
    }

    /// One image or video frame's results.
    package struct Frame: Codable, Equatable, Sendable {
        /// The file name of the source (not the full path).
        package var source: String
        /// Frame index in the video (0 for an image).
        package var frame: Int
        /// Presentation time in seconds (0 for an image).
        package var time: Double
        package var width: Int
        package var height: Int
        package var speed: Speed
        package var detections: [Item]
        /// Top-k classes (classify models only).
        package var classification: [ClassScore]?
        /// The player's pose (the studio's tennis mode only).
        package var pose: StudioPose?

        package init(source: String, frame: Int, time: Double, width: Int, height: Int, speed: Speed,
                    detections: [Detection], classification: [Classification]?) {
            self.source = source
            self.frame = frame
            self.time = time
            self.width = width
            self.height = height
            self.speed = speed
            self.detections = detections.map { Item($0) }
            self.classification = classification?.map { ClassScore(classId: $0.classId, label: $0.label, confidence: $0.confidence) }
        }

        /// A predictor's result as one frame of the document.
        package init(_ result: YOLOResult, source: String, frame: Int = 0, time: Double = 0) {
            self.init(source: source, frame: frame, time: time, width: result.width, height: result.height,
                      speed: Speed(preMs: result.speed.preMs, inferenceMs: result.speed.inferenceMs, postMs: result.speed.postMs),
                      detections: result.detections, classification: result.classification)
        }

        /// A predictor's result after a tracker: the detections are the tracked ones, each with its `trackId`
        /// (what `yolo track` reports; a detection no confirmed track took is left out).
        package init(_ result: YOLOResult, tracked: [TrackedDetection], source: String, frame: Int, time: Double) {
            self.init(result, source: source, frame: frame, time: time)
            detections = tracked.map { Item($0.detection, trackId: $0.trackId) }
        }

        /// The frame as interpreters read it: what `interpret --detections` parses from `detect --json`.
        package var interpreterFrame: InterpreterFrame {
            let ids = detections.compactMap(\.trackId)
            return InterpreterFrame(detections: detections.map(\.detection), frameIndex: frame, time: time, width: width,
                                    height: height, trackIds: ids.count == detections.count && !ids.isEmpty ? ids : nil)
        }
    }

    package var model: Model
    package var results: [Frame]

    package init(model: Model, results: [Frame]) { self.model = model; self.results = results }

    /// The frames as interpreters read them.
    package var interpreterFrames: [InterpreterFrame] { results.map(\.interpreterFrame) }

    /// The numbers a detection session record keeps.
    /// - Parameters:
    ///   - interpreter: The interpreter that read the frames, if any.
    ///   - videoResult: Its result over the frames (``AnyDetectionInterpreter/interpretVideo(_:)``), summed up
    ///     in the record's one-line summary.
    package func runStats(startedAt: Date, endedAt: Date, source: String? = nil, interpreter: AnyDetectionInterpreter? = nil,
                         videoResult: (any Encodable & Sendable)? = nil) -> DetectionRunStats {
        let inference = results.map(\.speed.inferenceMs).reduce(0, +)
        var summary = interpreter.map { InterpreterRunSummary(interpreter: $0.name) }
        if let videoResult { summary?.add(video: videoResult) }
        return DetectionRunStats(startedAt: startedAt, endedAt: endedAt, frames: results.count,
                                 detections: results.map(\.detections.count).reduce(0, +),
                                 averageInferenceMs: results.isEmpty ? 0 : inference / Double(results.count),
                                 source: source, interpreter: interpreter?.name, summary: summary?.sentence)
    }
}

/// The detection document with an interpreter's result under `interpretation`: the bytes of
/// `detect --json --interpret NAME` and of the studio's answers.
package struct InterpretedDetections: Encodable, Sendable {
    package var document: DetectionDocument
    /// The interpreter's result, encoded through its concrete type.
    package var interpretation: (any Encodable & Sendable)?

    package init(document: DetectionDocument, interpretation: (any Encodable & Sendable)?) {
        self.document = document; self.interpretation = interpretation
    }

    private enum Key: String, CodingKey { case interpretation }

    package func encode(to encoder: any Encoder) throws {
        try document.encode(to: encoder)
        if let interpretation {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(AnyEncodable(interpretation), forKey: .interpretation)
        }
    }

    /// Pretty-printed, sorted keys: the bytes `detect --json` prints.
    /// - Throws: ``InterpreterError`` (`encodingFailed`) when a number cannot be written (e.g. NaN).
    package func jsonData() throws -> Data { try Self.encode(self) }

    /// Encodes `value` as `detect --json` does (sorted keys; pretty unless `pretty` is false, as the web API
    /// sends it), reporting failure as the interpreters do.
    /// - Throws: ``InterpreterError`` (`encodingFailed`).
    package static func encode(_ value: some Encodable, pretty: Bool = true) throws -> Data {
        let enc = JSONEncoder()
        enc.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        do { return try enc.encode(value) } catch {
            throw InterpreterError.encodingFailed(String(describing: error))
        }
    }
}
