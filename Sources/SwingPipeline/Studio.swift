import Dispatch
import Foundation
import SwingCore
import SwingInference
import SwingMedia
import SwingVision

/// What one studio prediction runs with: the model's thresholds, the class filter and the interpreter.
/// Filled from the model's stored defaults, then the request's query, then (on the live socket) the
/// client's setting messages; always checked before a frame is run.
package struct DetectionSettings: Codable, Equatable, Sendable {
    /// Keep detections whose confidence is above this, 0…1.
    package var conf: Double
    /// NMS IoU threshold, 0…1.
    package var iou: Double
    /// Most detections per image, 1…``maxDetLimit``.
    package var maxDet: Int
    /// Class ids to keep (`nil` keeps every class).
    package var classes: [Int]?
    /// The interpreter to run on each frame (`nil` = none).
    package var interpret: String?
    /// Follow objects from frame to frame (``ByteTracker``): detections gain a `trackId` (live camera only).
    package var track: Bool = false

    /// The largest `maxDet` accepted.
    package static let maxDetLimit = 10_000

    /// The settings of `model`: its stored defaults, else Ultralytics' defaults.
    package init(model: ResolvedModel) {
        conf = model.conf(nil)
        iou = model.iou(nil)
        maxDet = model.maxDet(nil)
        classes = nil
        interpret = model.record?.interpreter
    }

    /// Settings given field by field.
    package init(conf: Double = PredictionOptions().conf, iou: Double = PredictionOptions().iou,
                maxDet: Int = PredictionOptions().maxDet, classes: [Int]? = nil, interpret: String? = nil) {
        self.conf = conf; self.iou = iou; self.maxDet = maxDet; self.classes = classes; self.interpret = interpret
    }

    /// The options a YOLO prediction takes.
    package var prediction: PredictionOptions {
        PredictionOptions(conf: conf, iou: iou, maxDet: maxDet, classes: classes.map(Set.init))
    }

    /// Checks every value against its range and the model.
    /// - Parameters:
    ///   - names: The model's classes by id.
    ///   - interpreters: The interpreters that can be named.
    /// - Throws: ``VisionError`` (`invalidOptions`, `invalidClassFilter`) or ``InterpreterError``
    ///   (`unknownInterpreter`), one sentence naming the value.
    package func validate(names: [Int: String], interpreters: InterpreterRegistry = .standard) throws {
        guard conf.isFinite, (0...1).contains(conf) else {
            throw VisionError(.invalidOptions, "The confidence threshold (conf) must be a number from 0 to 1, not \(conf).")
        }
        guard iou.isFinite, (0...1).contains(iou) else {
            throw VisionError(.invalidOptions, "The IoU threshold (iou) must be a number from 0 to 1, not \(iou).")
        }
        guard (1...Self.maxDetLimit).contains(maxDet) else {
            throw VisionError(.invalidOptions, "The most detections per image (maxDet) must be a whole number from 1 to \(Self.maxDetLimit), not \(maxDet).")
        }
        if let classes {
            let unknown = classes.filter { names[$0] == nil }
            guard unknown.isEmpty else {
                let range = names.keys.max().map { "0…\($0)" } ?? "none"
                throw VisionError(.invalidClassFilter, "Class id \(unknown[0]) is not in this model (its ids: \(range)); check classes.")
            }
        }
        if let interpret, !interpreters.names.contains(interpret) {
            throw InterpreterError.unknownInterpreter(interpret, known: interpreters.names)
        }
    }

    /// The interpreter these settings name, configured with `configuration` (the model's stored options).
    /// - Throws: ``InterpreterError`` for an unknown name or a configuration that does not decode.
    package func interpreter(configuration: Data?) throws -> AnyDetectionInterpreter? {
        try interpret.map { try InterpreterRegistry.standard.interpreter(named: $0, configuration: configuration) }
    }

    /// These settings with the fields `change` carries replaced.
    package func applying(_ change: Change) -> DetectionSettings {
        var s = self
        if let v = change.conf { s.conf = v }
        if let v = change.iou { s.iou = v }
        if let v = change.maxDet { s.maxDet = v }
        if let v = change.classes { s.classes = v }
        if let v = change.interpret { s.interpret = v }
        if let v = change.track { s.track = v }
        return s
    }

    /// A partial change, as a live client sends it: `{"conf": 0.5}`, `{"classes": null}` (every class),
    /// `{"interpret": null}` (no interpreter). A field that is absent keeps its value; `null` clears the
    /// fields that can be cleared.
    package struct Change: Decodable, Equatable, Sendable {
        package var conf: Double?
        package var iou: Double?
        package var maxDet: Int?
        /// `.some(nil)` clears the filter.
        package var classes: [Int]??
        /// `.some(nil)` turns the interpreter off.
        package var interpret: String??
        package var track: Bool?

        package init(conf: Double? = nil, iou: Double? = nil, maxDet: Int? = nil, classes: [Int]?? = nil,
                    interpret: String?? = nil) {
            self.conf = conf; self.iou = iou; self.maxDet = maxDet; self.classes = classes; self.interpret = interpret
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case conf, iou, maxDet, classes, interpret, track }

        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            conf = try c.decodeIfPresent(Double.self, forKey: .conf)
            iou = try c.decodeIfPresent(Double.self, forKey: .iou)
            maxDet = try c.decodeIfPresent(Int.self, forKey: .maxDet)
            if c.contains(.classes) { classes = .some(try c.decodeNil(forKey: .classes) ? nil : try c.decode([Int].self, forKey: .classes)) }
            if c.contains(.interpret) { interpret = .some(try c.decodeNil(forKey: .interpret) ? nil : try c.decode(String.self, forKey: .interpret)) }
            track = try c.decodeIfPresent(Bool.self, forKey: .track)
        }

        /// Parses a setting message.
        /// - Throws: ``VisionError`` (`invalidOptions`) naming what is wrong: not a JSON object, an unknown
        ///   key, or a value of the wrong type.
        package static func parse(_ data: Data) throws -> Change {
            guard let object = try? JSONSerialization.jsonObject(with: data), let keys = (object as? [String: Any])?.keys else {
                throw VisionError(.invalidOptions, "A setting message is a JSON object such as {\"conf\": 0.5}.")
            }
            let known = Set(CodingKeys.allCases.map(\.rawValue))
            if let unknown = keys.sorted().first(where: { !known.contains($0) }) {
                throw VisionError(.invalidOptions, "Unknown setting \"\(unknown.prefix(40))\"; the settings are \(known.sorted().joined(separator: ", ")).")
            }
            do { return try JSONDecoder().decode(Change.self, from: data) } catch let DecodingError.typeMismatch(_, context) {
                let key = context.codingPath.first?.stringValue ?? "value"
                throw VisionError(.invalidOptions, "The setting \"\(key)\" has the wrong type (numbers for conf, iou and maxDet, a list of class ids for classes, a name for interpret, true or false for track).")
            } catch {
                throw VisionError(.invalidOptions, "A setting message is a JSON object such as {\"conf\": 0.5}.")
            }
        }
    }
}

/// Loaded YOLO models, kept so the studio does not load a model per request: at most ``capacity``, the
/// least recently used one dropped first. A model file replaced on disk (another size or modification
/// time) is loaded again.
package actor LoadedModels {
    private struct Entry {
        var size: Int64
        var modified: Date
        var predictor: YOLOPredictor
        var lastUsed: UInt64
    }

    /// How many models stay loaded.
    package let capacity: Int
    private let sessionOptions: SessionOptions
    private var entries: [String: Entry] = [:]
    private var tick: UInt64 = 0

    /// - Parameters:
    ///   - capacity: Models kept loaded (at least 1).
    ///   - sessionOptions: ONNX Runtime settings for every model loaded.
    package init(capacity: Int = 4, sessionOptions: SessionOptions = .init()) {
        self.capacity = max(1, capacity)
        self.sessionOptions = sessionOptions
    }

    /// The predictor for the model file at `path`, loaded on first use.
    /// - Throws: `InferenceError` when the runtime or file cannot be loaded, ``VisionError`` when it is not a
    ///   YOLO model.
    package func predictor(path: String) throws -> YOLOPredictor {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
        let modified = attributes?[.modificationDate] as? Date ?? .distantPast
        tick += 1
        if var entry = entries[path], entry.size == size, entry.modified == modified {
            entry.lastUsed = tick
            entries[path] = entry
            return entry.predictor
        }
        let predictor = try YOLOPredictor(modelPath: path, sessionOptions: sessionOptions)
        if entries[path] == nil, entries.count >= capacity,
           let oldest = entries.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
            entries[oldest] = nil
        }
        entries[path] = Entry(size: size, modified: modified, predictor: predictor, lastUsed: tick)
        return predictor
    }

    /// Forgets the model at `path` (it was removed from the catalog); callers holding it keep their copy.
    package func forget(path: String) { entries[path] = nil }
}

/// Runs model inference one call at a time, first come first served, on a thread of its own.
///
/// Every client of the studio shares the machine's cores; one inference already uses them all, so running
/// two at once only makes both slower. Queuing them in arrival order gives each camera its turn (none
/// starves), and keeps the blocking ONNX Runtime call off Swift's cooperative threads, which serve HTTP.
package final class InferenceQueue: Sendable {
    private let queue: DispatchQueue

    /// A queue with its own serial dispatch queue named `label`.
    package init(label: String = "swingmaster.inference") {
        queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    /// Runs `work` after every call queued before it, and returns its result.
    package func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Runs `work` in its turn and blocks the calling thread until it is done: for work that runs on a
    /// thread of its own (a studio video job), never on Swift's cooperative threads, and never from `work`.
    package func runBlocking<T>(_ work: () throws -> T) rethrows -> T {
        try queue.sync(execute: work)
    }
}

/// One studio prediction on a picture held in memory: decode, run, interpret.
package struct StudioPrediction: Sendable {
    /// The frame in the detection document's shape.
    package var frame: DetectionDocument.Frame
    /// The interpreter's result for this frame, with the interpreter's name.
    package var interpretation: Interpretation?
    /// Milliseconds to decode the picture.
    package var decodeMs: Double
    /// With tracking: each track's recent centres (set by the caller that tracks).
    package var trails: [Trail]? = nil
    /// With tracking and the counter: the line-crossing counts so far (set by the caller that tracks).
    package var crossings: LineCrossings.Summary? = nil
    /// Tennis mode: milliseconds BlazePose took on the frame (``TennisMode``).
    package var poseMs: Double? = nil
    /// Tennis mode: milliseconds the YOLO model took on the frame (letterbox, inference, post-processing).
    package var yoloMs: Double? = nil

    /// One track's recent centres, oldest first, pixels.
    package struct Trail: Codable, Sendable {
        package var trackId: Int
        package var points: [[Double]]
        package init(trackId: Int, points: [[Double]]) { self.trackId = trackId; self.points = points }
    }

    /// An interpreter's result on one frame, as the studio sends it: `{"interpreter": name, "result": …}`.
    package struct Interpretation: Encodable, Sendable {
        package var interpreter: String
        package var result: any Encodable & Sendable

        /// `result` of the interpreter called `interpreter` (one frame's, or a video's summary).
        package init(interpreter: String, result: any Encodable & Sendable) { self.interpreter = interpreter; self.result = result }

        enum CodingKeys: String, CodingKey { case interpreter, result }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(interpreter, forKey: .interpreter)
            try c.encode(AnyEncodable(result), forKey: .result)
        }
    }

    /// Decodes `image`, runs `predictor` on it through `queue`, and interprets the detections.
    /// - Parameters:
    ///   - image: An encoded picture (JPEG from a camera; PNG, WebP, BMP from an upload).
    ///   - predictor: The loaded model.
    ///   - settings: Checked settings (see ``DetectionSettings/validate(names:interpreters:)``).
    ///   - interpreter: The interpreter `settings` names, configured (see ``DetectionSettings/interpreter(configuration:)``).
    ///   - queue: Where inference waits its turn.
    ///   - source: How the document names the picture.
    ///   - frameIndex: The frame's number in its stream (0 for a single image).
    /// - Throws: ``MediaError`` (`imageUnreadable`) for bytes that are not a picture, ``VisionError`` and
    ///   `InferenceError` from the model.
    package static func run(image: Data, predictor: YOLOPredictor, settings: DetectionSettings,
                           interpreter: AnyDetectionInterpreter?, queue: InferenceQueue,
                           source: String, frameIndex: Int = 0) async throws -> StudioPrediction {
        let clock = ContinuousClock()
        let start = clock.now
        let picture = try ImageIO.decode(image)
        let decodeMs = (clock.now - start).milliseconds
        let options = settings.prediction
        let result = try await queue.run { try predictor.predict(picture, options: options) }
        let frame = DetectionDocument.Frame(result, source: source, frame: frameIndex)
        let interpretation = interpreter.map {
            Interpretation(interpreter: $0.name, result: $0.interpret(frame.interpreterFrame))
        }
        return StudioPrediction(frame: frame, interpretation: interpretation, decodeMs: decodeMs)
    }
}
