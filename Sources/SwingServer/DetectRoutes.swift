import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import SwingCore
import SwingInference
import SwingMedia
import SwingPipeline
import SwingStore
import SwingVision

/// What the studio's routes share: the catalog, the loaded models, the one inference queue.
struct Studio: Sendable {
    let catalog: ModelCatalog
    let loaded: LoadedModels
    let queue: InferenceQueue
    let checksums: ModelChecksums
    /// Where uploaded model files wait while the catalog checks them.
    let staging: MediaStore
    /// Models being downloaded for the browser.
    let downloads = ModelDownloads()
    /// The last picture each model ran on (the page re-runs one picture as sliders move: one run, not many).
    let lastPictures = LastPictures()
    /// Videos run through a model as jobs (`POST /api/detect/video`).
    let videoJobs: DetectVideoJobs
    /// BlazePose for tennis mode (`mode=tennis`), loaded on first use, and the YOLO models tennis mode runs
    /// (the same as `loaded` unless its schedule wants other thread counts).
    let pose = LoadedPose(threads: TennisSchedule.standard.threads)
    let tennisModels: LoadedModels

    init(home: URL, catalog: ModelCatalog? = nil) {
        self.catalog = catalog ?? ModelCatalog(locations: CatalogLocations(
            bundledDirectories: CatalogLocations.standard().bundledDirectories, home: home))
        loaded = LoadedModels()
        tennisModels = TennisSchedule.standard.threads == 0 ? loaded : LoadedModels(capacity: 2, sessionOptions: TennisSchedule.standard.sessionOptions)
        queue = InferenceQueue()
        checksums = ModelChecksums()
        var staging = MediaStore(directory: home.appendingPathComponent("cache/uploads", isDirectory: true))
        staging.keptExtensions = ["onnx", "zip"]
        self.staging = staging
        videoJobs = DetectVideoJobs(directory: home.appendingPathComponent("cache/detect-jobs", isDirectory: true))
    }

    /// The catalog model a request names with `model=ID`, loaded, with its settings: the model's stored
    /// defaults overridden by the query's `conf`, `iou`, `maxDet`, `classes`, `interpret`.
    /// - Throws: ``APIError`` (400 for a missing model or a bad value, 404 for an unknown model, 422 for a
    ///   model that is not a YOLO export).
    func open(_ query: [String: String], db: any Store) async throws -> OpenModel {
        let tennis = try Self.tennisMode(query)
        guard let id = query["model"], !id.isEmpty else {
            throw APIError(.badRequest, "Name the model with model=ID (GET /api/models lists them).")
        }
        guard let entry = catalog.models().first(where: { $0.id == id.lowercased() }) else {
            throw APIError(.notFound, "There is no model '\(id.prefix(60))' in the catalog.")
        }
        guard entry.kind == .yolo else {
            throw APIError(.unprocessableContent, entry.kind == .blazepose
                ? "The model \(entry.id) is a BlazePose model for the session analysis; the studio runs YOLO models."
                : "The model \(entry.id) cannot run in the studio: \(entry.problem ?? "it is not an Ultralytics YOLO export").")
        }
        let model = try await ResolvedModel.resolve(entry.id, db: db, catalog: catalog)
        let predictor: YOLOPredictor
        do { predictor = try await (tennis ? tennisModels : loaded).predictor(path: entry.path) } catch let error as any UserFacingError {
            throw APIError(error)
        }
        var settings = DetectionSettings(model: model)
        let mode = tennis ? try await tennisMode(for: predictor.info, id: entry.id) : nil
        if tennis { settings.interpret = TennisContactInterpreter().name }
        settings = settings.applying(try Self.change(query, names: predictor.info.names))
        try check(settings, names: predictor.info.names)
        return OpenModel(model: model, predictor: predictor, settings: settings,
                         interpreter: try interpreter(for: settings, model: model), tennis: mode)
    }

    /// The settings a query string changes (`conf`, `iou`, `maxDet`, `classes` as ids or names, `interpret`).
    static func change(_ query: [String: String], names: [Int: String]) throws -> DetectionSettings.Change {
        func number(_ key: String) throws -> Double? {
            guard let text = query[key] else { return nil }
            guard let v = Double(text) else { throw APIError(.badRequest, "The setting \(key) must be a number, not \(text.prefix(40)).") }
            return v
        }
        var change = DetectionSettings.Change(conf: try number("conf"), iou: try number("iou"))
        if let text = query["maxDet"] {
            guard let v = Int(text) else {
                throw APIError(.badRequest, "The most detections per image (maxDet) must be a whole number from 1 to \(DetectionSettings.maxDetLimit), not \(text.prefix(40)).")
            }
            change.maxDet = v
        }
        if let text = query["classes"], !text.isEmpty {
            do { change.classes = .some(try ClassFilter.parse(text, names: names, what: "classes").sorted()) } catch let error as VisionError {
                throw APIError(.badRequest, error.message, code: Int(error.statusCode))
            }
        }
        if let text = query["interpret"] { change.interpret = .some(text.isEmpty || text == "none" ? nil : text) }
        if let text = query["track"] { change.track = text == "1" || text == "true" }
        return change
    }

    /// Refuses settings out of range as a 400 with the engine's sentence.
    func check(_ settings: DetectionSettings, names: [Int: String]) throws {
        do { try settings.validate(names: names) } catch let error as any UserFacingError {
            throw APIError(.badRequest, error.description, code: Int(error.statusCode))
        }
    }

    /// The interpreter the settings name, with the model's stored options.
    func interpreter(for settings: DetectionSettings, model: ResolvedModel) throws -> AnyDetectionInterpreter? {
        // The stored options belong to the stored interpreter; another one starts from its own defaults.
        let options = settings.interpret == model.record?.interpreter ? model.interpreterConfig(nil) : nil
        do { return try settings.interpreter(configuration: options) } catch let error as any UserFacingError {
            throw APIError(.badRequest, error.description, code: Int(error.statusCode))
        }
    }
}

/// A model opened for the studio.
struct OpenModel: Sendable {
    var model: ResolvedModel
    var predictor: YOLOPredictor
    var settings: DetectionSettings
    var interpreter: AnyDetectionInterpreter?
    /// Tennis mode (`mode=tennis`): BlazePose runs beside the model, with a pose tracker of this opening's own.
    var tennis: TennisMode? = nil
}

/// `POST /api/detect` (one image) and `GET /api/detect/live` (the camera's WebSocket): docs/studio.md.
struct DetectRoutes: Sendable {
    let state: ServerState
    var studio: Studio { state.studio }

    /// The largest picture accepted, in a body or one socket message.
    static let maxImageBytes = 16 << 20

    func add(to api: RouterGroup<BasicRequestContext>) {
        api.post("detect") { request, _ in
            let query = Self.query(request)
            let open = try await studio.open(query, db: state.db)
            let body = try await request.body.collect(upTo: Self.maxImageBytes)
            let startedAt = Date()
            let prediction: StudioPrediction
            do {
                if let tennis = open.tennis {
                    prediction = try await tennis.run(
                        image: Data(buffer: body), predictor: open.predictor, settings: open.settings,
                        interpreter: open.interpreter, queue: studio.queue, source: "image")
                } else {
                    prediction = try await StudioPrediction.run(image: Data(buffer: body), predictor: open.predictor,
                                                                settings: open.settings, interpreter: open.interpreter,
                                                                queue: studio.queue, source: "image")
                }
            } catch let error as any UserFacingError { throw APIError(error) }
            let document = DetectionDocument(model: .init(open.predictor.info), results: [prediction.frame])
            if studio.lastPictures.isNew(SHA256.hex(Data(buffer: body)), model: open.model.displayName) {
                var stats = document.runStats(startedAt: startedAt, endedAt: Date(), source: "image", interpreter: open.interpreter)
                if let interpretation = prediction.interpretation {
                    var summary = InterpreterRunSummary(interpreter: interpretation.interpreter)
                    summary.add(interpretation.result)
                    stats.summary = summary.sentence
                }
                try await open.model.recordUse(stats, in: state.db)
            }
            let answer = InterpretedDetections(document: document, interpretation: prediction.interpretation)
            if open.tennis != nil { return JSONResponse.bytes(try JSONResponse.encoder.encode(TennisAnswer(answer: answer))) }
            return JSONResponse.bytes(try JSONResponse.encoder.encode(answer))
        }
        DetectVideoRoutes(state: state).add(to: api)
    }

    static func query(_ request: Request) -> [String: String] {
        var out: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { out[String(key)] = String(value) }
        return out
    }

    /// Adds the live socket to the WebSocket router.
    func add(to router: Router<BasicWebSocketRequestContext>) {
        router.ws("api/detect/live", shouldUpgrade: { request, _ in
            // Refuse before upgrading when the model or a setting is wrong: the browser gets the sentence.
            _ = try await studio.open(Self.query(request), db: state.db)
            return .upgrade([:])
        }, onUpgrade: { inbound, outbound, context in
            let open: OpenModel
            do { open = try await studio.open(Self.query(context.request), db: state.db) } catch {
                try await LiveSocket.send(LiveSocket.ErrorMessage(error: Self.sentence(error)), to: outbound)
                return
            }
            try await LiveSocket(open: open, studio: studio, db: state.db).run(inbound: inbound, outbound: outbound)
        })
    }

    static func sentence(_ error: any Error) -> String {
        switch error {
        case let e as APIError: e.message
        case let e as any UserFacingError: e.description
        default: "The frame could not be processed."
        }
    }
}

/// One camera's socket: a reader that keeps at most one frame waiting (the newest), and a worker that runs
/// the model on it and answers. Settings change between frames.
struct LiveSocket: Sendable {
    let open: OpenModel
    let studio: Studio
    let db: any Store

    /// The waiting frame: the client's message number and its bytes.
    struct Frame: Sendable {
        var id: Int
        var bytes: Data
    }

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        // At most one frame waits; a newer one replaces it (`dropped` counts those).
        let (frames, continuation) = AsyncStream<Frame>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let shared = LiveState(settings: open.settings, interpreter: open.interpreter)
        let startedAt = Date()
        let startedClock = ContinuousClock.now
        // Tennis mode: this camera's own pose tracker (it follows one person through one stream).
        let tennis = open.tennis
        try await LiveSocket.send(Ready(model: .init(open.predictor.info), settings: open.settings,
                                        skeleton: tennis == nil ? nil : .blazePose), to: outbound)
        let stats = try await withThrowingTaskGroup(of: LiveTotals?.self) { group in
            group.addTask {
                var totals = LiveTotals()
                let clock = ContinuousClock()
                // Frames answered in the last two seconds: the rate the camera sees now, not since it opened.
                var recent: [ContinuousClock.Instant] = []
                // Objects followed from frame to frame while the client asks for it (a fresh tracker each time).
                var tracker: ByteTracker?
                // With tracking and the counter: objects crossing the counter's line (fresh when either changes).
                var crossings: (interpreter: String, counter: LineCrossings)?
                for await frame in frames {
                    let (settings, interpreter) = shared.current()
                    let started = clock.now
                    do {
                        var p: StudioPrediction
                        if let tennis {
                            p = try await tennis.run(image: frame.bytes, predictor: open.predictor, settings: settings,
                                                     interpreter: interpreter, queue: studio.queue, source: "camera",
                                                     frameIndex: frame.id, time: (started - startedClock).seconds)
                        } else {
                            p = try await StudioPrediction.run(image: frame.bytes, predictor: open.predictor, settings: settings,
                                                               interpreter: interpreter, queue: studio.queue,
                                                               source: "camera", frameIndex: frame.id)
                        }
                        if settings.track {
                            if tracker == nil { tracker = ByteTracker() }
                            p.track(with: &tracker, time: (started - startedClock).seconds)
                        } else {
                            tracker = nil
                        }
                        if settings.track, let interpreter, let counting = interpreter.lineCounting {
                            if crossings?.interpreter != interpreter.name { crossings = (interpreter.name, counting.makeCounter()) }
                            let f = p.frame.interpreterFrame
                            p.crossings = crossings?.counter.update(counting.objects(f), width: f.width, height: f.height, time: f.time)
                        } else {
                            crossings = nil
                        }
                        totals.add(p)
                        let now = clock.now
                        recent.append(now)
                        recent.removeAll { now - $0 > .seconds(2) }
                        let span = recent.count > 1 ? (now - recent[0]).seconds : 0
                        let serverMs = (now - started).seconds * 1000
                        try await LiveSocket.send(LiveResult(frameId: frame.id, prediction: p, serverMs: serverMs,
                                                             dropped: shared.dropped,
                                                             fps: span > 0 ? Double(recent.count - 1) / span : 0), to: outbound)
                    } catch let error as any UserFacingError {
                        try await LiveSocket.send(ErrorMessage(error: "Frame \(frame.id): \(error.description)"), to: outbound)
                    }
                }
                return totals
            }
            group.addTask {
                defer { continuation.finish() }
                var received = 0
                for try await message in inbound.messages(maxSize: DetectRoutes.maxImageBytes) {
                    switch message {
                    case .binary(let buffer):
                        received += 1
                        if case .dropped = continuation.yield(Frame(id: received, bytes: Data(buffer: buffer))) {
                            shared.countDrop()
                        }
                    case .text(let text):
                        do {
                            let change = try DetectionSettings.Change.parse(Data(text.utf8))
                            let settings = shared.current().settings.applying(change)
                            try settings.validate(names: open.predictor.info.names)
                            let interpreter = try studio.interpreter(for: settings, model: open.model)
                            shared.set(settings, interpreter)
                            try await LiveSocket.send(SettingsMessage(settings: settings), to: outbound)
                        } catch {
                            try await LiveSocket.send(ErrorMessage(error: DetectRoutes.sentence(error)), to: outbound)
                        }
                    }
                }
                return nil
            }
            var totals = LiveTotals()
            for try await result in group { if let result { totals = result } }
            return totals
        }
        if stats.frames > 0 {
            try? await open.model.recordUse(DetectionRunStats(startedAt: startedAt, endedAt: Date(), frames: stats.frames,
                                                        detections: stats.detections,
                                                        averageInferenceMs: stats.inferenceMs / Double(stats.frames),
                                                        source: "camera", interpreter: stats.summary?.interpreter,
                                                        summary: stats.summary?.sentence), in: db)
        }
    }

    static func send(_ message: some Encodable, to outbound: WebSocketOutboundWriter) async throws {
        let data = try JSONResponse.encoder.encode(message)
        try await outbound.write(.text(String(decoding: data, as: UTF8.self)))
    }

    struct Ready: Encodable {
        var type = "ready"
        var model: DetectionDocument.Model
        var settings: DetectionSettings
        /// Tennis mode: how to draw the pose.
        var skeleton: PoseSkeleton?
    }

    struct SettingsMessage: Encodable {
        var type = "settings"
        var settings: DetectionSettings
    }

    struct ErrorMessage: Encodable {
        var type = "error"
        var error: String
    }

    /// One processed frame.
    struct LiveResult: Encodable {
        struct Timings: Encodable {
            var decodeMs: Double, preMs: Double, inferenceMs: Double, postMs: Double, serverMs: Double
            /// Tennis mode: each model's time on the frame.
            var poseMs: Double?, yoloMs: Double?
        }
        var type = "result"
        var frameId: Int
        var width: Int
        var height: Int
        var detections: [DetectionDocument.Item]
        var classification: [DetectionDocument.ClassScore]?
        /// Tennis mode: the player's pose, when a person was found.
        var pose: StudioPose?
        var interpretation: StudioPrediction.Interpretation?
        /// With tracking on: each track's recent centres, oldest first, for drawing trails.
        var trails: [StudioPrediction.Trail]?
        /// With tracking on and the counter: the line, the crossings so far per label and direction, and this
        /// frame's new ones.
        var crossings: LineCrossings.Summary?
        var timings: Timings
        var dropped: Int
        var fps: Double

        init(frameId: Int, prediction p: StudioPrediction, serverMs: Double, dropped: Int, fps: Double) {
            self.frameId = frameId
            width = p.frame.width; height = p.frame.height
            detections = p.frame.detections; classification = p.frame.classification
            pose = p.frame.pose
            interpretation = p.interpretation
            trails = p.trails
            crossings = p.crossings
            timings = Timings(decodeMs: p.decodeMs, preMs: p.frame.speed.preMs, inferenceMs: p.frame.speed.inferenceMs,
                              postMs: p.frame.speed.postMs, serverMs: serverMs, poseMs: p.poseMs, yoloMs: p.yoloMs)
            self.dropped = dropped; self.fps = fps
        }
    }
}

extension StudioPrediction {
    /// Runs the frame's detections through `tracker`: only detections of confirmed tracks stay, each with its
    /// `trackId` (masks, keypoints and boxes as the model gave them), and ``trails`` is set.
    mutating func track(with tracker: inout ByteTracker?, time: Double) {
        guard var t = tracker else { return }
        let items = frame.detections
        let tracked = t.update(items.map(\.detection), time: time)
        tracker = t
        frame.detections = tracked.map { var item = items[$0.detectionIndex]; item.trackId = $0.trackId; return item }
        trails = tracked.map { StudioPrediction.Trail(trackId: $0.trackId, points: $0.trail.map { [$0.x, $0.y] }) }
    }
}

/// What a socket's reader and worker share: the settings in force and the drop count.
final class LiveState: @unchecked Sendable {
    private let lock = NSLock()
    private var settings: DetectionSettings
    private var interpreter: AnyDetectionInterpreter?
    private var drops = 0

    init(settings: DetectionSettings, interpreter: AnyDetectionInterpreter?) {
        self.settings = settings; self.interpreter = interpreter
    }

    func current() -> (settings: DetectionSettings, interpreter: AnyDetectionInterpreter?) {
        lock.lock(); defer { lock.unlock() }
        return (settings, interpreter)
    }

    func set(_ settings: DetectionSettings, _ interpreter: AnyDetectionInterpreter?) {
        lock.lock(); self.settings = settings; self.interpreter = interpreter; lock.unlock()
    }

    func countDrop() { lock.lock(); drops += 1; lock.unlock() }
    var dropped: Int { lock.lock(); defer { lock.unlock() }; return drops }
}

/// The checksum of the last picture each model ran on.
final class LastPictures: @unchecked Sendable {
    private let lock = NSLock()
    private var last: [String: String] = [:]

    /// Whether `sha256` differs from the last picture `model` ran on (and remembers it).
    func isNew(_ sha256: String, model: String) -> Bool {
        lock.lock(); defer { lock.unlock() }
        if last[model] == sha256 { return false }
        if last.count > 100 { last.removeAll() }
        last[model] = sha256
        return true
    }
}

/// A socket's totals, for its detection run record.
struct LiveTotals: Sendable {
    var frames = 0
    var detections = 0
    var inferenceMs = 0.0
    /// What the interpreter in force saw (a new tally when the client picks another interpreter).
    var summary: InterpreterRunSummary?

    mutating func add(_ p: StudioPrediction) {
        frames += 1; detections += p.frame.detections.count; inferenceMs += p.frame.speed.inferenceMs
        guard let interpretation = p.interpretation else { return }
        if summary?.interpreter != interpretation.interpreter {
            summary = InterpreterRunSummary(interpreter: interpretation.interpreter)
        }
        summary?.add(interpretation.result)
        if let crossings = p.crossings { summary?.set(crossings: crossings) }
    }
}
