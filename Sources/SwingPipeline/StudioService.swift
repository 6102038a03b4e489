import Foundation
import SwingCore
import SwingInference
import SwingStore
import SwingVision

/// The model studio's work (docs/studio.md), whatever serves it: the catalog, the loaded models, the one
/// inference queue every picture waits its turn in, tennis mode's BlazePose and the video jobs.
///
/// A request names a model and its settings as a query (`model=ID&conf=…&classes=…&mode=tennis`);
/// ``open(_:)`` loads the model and checks every setting, refusing with a ``RequestError`` before any
/// picture is read.
package struct StudioService: Sendable {
    package let catalog: ModelCatalog
    package let loaded: LoadedModels
    package let queue: InferenceQueue
    /// The last picture each model ran on (the page re-runs one picture as sliders move: one run, not many).
    package let lastPictures = LastPictures()
    /// Videos run through a model as jobs.
    package let videoJobs: StudioVideoJobs
    /// BlazePose for tennis mode (`mode=tennis`), loaded on first use, and the YOLO models tennis mode runs
    /// (the same as `loaded` unless its schedule wants other thread counts).
    package let pose = LoadedPose(threads: TennisSchedule.standard.threads)
    package let tennisModels: LoadedModels
    /// The catalog files' SHA-256, each computed once per file version.
    package let checksums = ModelChecksums()
    /// Models being downloaded for the browser.
    package let downloads = ModelDownloads()
    /// Where the models' preferences, defaults and runs are kept.
    let store: any Store

    /// The studio of the Swingmaster home `home`: its catalog (unless `catalog` is given) and its video
    /// jobs' folder, `HOME/cache/detect-jobs` (emptied: jobs of an earlier run are gone); the models'
    /// settings and runs in `library`'s store.
    package init(home: URL, library: MediaLibrary, catalog: ModelCatalog? = nil) {
        self.store = library.store
        self.catalog = catalog ?? ModelCatalog(locations: CatalogLocations(
            bundledDirectories: CatalogLocations.standard().bundledDirectories, home: home))
        loaded = LoadedModels()
        tennisModels = TennisSchedule.standard.threads == 0 ? loaded : LoadedModels(capacity: 2, sessionOptions: TennisSchedule.standard.sessionOptions)
        queue = InferenceQueue()
        videoJobs = StudioVideoJobs(directory: home.appendingPathComponent("cache/detect-jobs", isDirectory: true))
    }

    /// The catalog model a request names with `model=ID`, loaded, with its settings: the model's stored
    /// defaults overridden by the query's `conf`, `iou`, `maxDet`, `classes`, `interpret`, `track`.
    /// - Throws: ``RequestError``: `invalid` for a missing model or a bad value, `notFound` for an unknown
    ///   model, `unprocessable` for a model that is not a YOLO export; the engine's error when it cannot load.
    package func open(_ query: [String: String]) async throws -> OpenModel {
        let tennis = try Self.tennisMode(query)
        guard let id = query["model"], !id.isEmpty else {
            throw RequestError(.invalid, "Name the model with model=ID (GET /api/models lists them).")
        }
        guard let entry = catalog.models().first(where: { $0.id == id.lowercased() }) else {
            throw RequestError(.notFound, "There is no model '\(id.prefix(60))' in the catalog.")
        }
        guard entry.kind == .yolo else {
            throw RequestError(.unprocessable, entry.kind == .blazepose
                ? "The model \(entry.id) is a BlazePose model for the session analysis; the studio runs YOLO models."
                : "The model \(entry.id) cannot run in the studio: \(entry.problem ?? "it is not an Ultralytics YOLO export").")
        }
        let model = try await ResolvedModel.resolve(entry.id, db: store, catalog: catalog)
        let predictor = try await (tennis ? tennisModels : loaded).predictor(path: entry.path)
        var settings = DetectionSettings(model: model)
        let mode = tennis ? try await tennisMode(for: predictor.info, id: entry.id) : nil
        if tennis { settings.interpret = TennisContactInterpreter().name }
        settings = settings.applying(try Self.change(query, names: predictor.info.names))
        try check(settings, names: predictor.info.names)
        return OpenModel(model: model, predictor: predictor, settings: settings,
                         interpreter: try interpreter(for: settings, model: model), tennis: mode)
    }

    /// The settings a query string changes (`conf`, `iou`, `maxDet`, `classes` as ids or names, `interpret`,
    /// `track`).
    /// - Throws: ``RequestError`` (`invalid`).
    package static func change(_ query: [String: String], names: [Int: String]) throws -> DetectionSettings.Change {
        func number(_ key: String) throws -> Double? {
            guard let text = query[key] else { return nil }
            guard let v = Double(text) else { throw RequestError(.invalid, "The setting \(key) must be a number, not \(text.prefix(40)).") }
            return v
        }
        var change = DetectionSettings.Change(conf: try number("conf"), iou: try number("iou"))
        if let text = query["maxDet"] {
            guard let v = Int(text) else {
                throw RequestError(.invalid, "The most detections per image (maxDet) must be a whole number from 1 to \(DetectionSettings.maxDetLimit), not \(text.prefix(40)).")
            }
            change.maxDet = v
        }
        if let text = query["classes"], !text.isEmpty {
            do { change.classes = .some(try ClassFilter.parse(text, names: names, what: "classes").sorted()) } catch let error as VisionError {
                throw RequestError(.invalid, error.message, code: error.statusCode)
            }
        }
        if let text = query["interpret"] { change.interpret = .some(text.isEmpty || text == "none" ? nil : text) }
        if let text = query["track"] { change.track = text == "1" || text == "true" }
        return change
    }

    /// Refuses settings out of range with the engine's sentence.
    /// - Throws: ``RequestError`` (`invalid`, with the engine's code).
    package func check(_ settings: DetectionSettings, names: [Int: String]) throws {
        do { try settings.validate(names: names) } catch let error as any UserFacingError {
            throw RequestError(.invalid, error.description, code: error.statusCode)
        }
    }

    /// The interpreter the settings name, with the model's stored options.
    /// - Throws: ``RequestError`` (`invalid`, with the engine's code) for an unknown interpreter or options.
    package func interpreter(for settings: DetectionSettings, model: ResolvedModel) throws -> AnyDetectionInterpreter? {
        // The stored options belong to the stored interpreter; another one starts from its own defaults.
        let options = settings.interpret == model.record?.interpreter ? model.interpreterConfig(nil) : nil
        do { return try settings.interpreter(configuration: options) } catch let error as any UserFacingError {
            throw RequestError(.invalid, error.description, code: error.statusCode)
        }
    }

    /// Whether the query asks for tennis mode (`mode=tennis`: BlazePose beside a detect model, the pose next
    /// to the detections, `tennis-contact` as the default interpreter).
    /// - Throws: ``RequestError`` (`invalid`) for a mode that is not `tennis`.
    package static func tennisMode(_ query: [String: String]) throws -> Bool {
        guard let mode = query["mode"], !mode.isEmpty, mode != "detect" else { return false }
        guard mode == "tennis" else {
            throw RequestError(.invalid, "The mode must be tennis (BlazePose beside the model) or left out, not \(mode.prefix(40)).")
        }
        return true
    }

    /// A tennis mode of its own for the model `info` describes.
    /// - Throws: ``RequestError`` (`unprocessable`) when the model is not a detect model or BlazePose cannot
    ///   be loaded.
    func tennisMode(for info: YOLOModelInfo, id: String) async throws -> TennisMode {
        guard info.task == .detect else {
            throw RequestError(.unprocessable, "Tennis mode needs a detect model (one that finds a racket and a ball); \(id) is a \(info.task.rawValue) model.")
        }
        do { return try await pose.mode() } catch let error as any UserFacingError {
            throw RequestError(.unprocessable, "Tennis mode cannot run: \(error.description)")
        }
    }

    /// Runs the opened model (and BlazePose in tennis mode) on one picture, and records the run with the
    /// model unless it is the picture this model ran on last (a page re-running it as sliders move).
    /// - Parameter source: What the picture is, for the run's record (`image`).
    /// - Returns: The detection document with the interpreter's result.
    /// - Throws: The engine's error for a picture it cannot read or run.
    package func detect(image: Data, open: OpenModel, source: String = "image") async throws -> InterpretedDetections {
        let startedAt = Date()
        let prediction: StudioPrediction
        if let tennis = open.tennis {
            prediction = try await tennis.run(image: image, predictor: open.predictor, settings: open.settings,
                                              interpreter: open.interpreter, queue: queue, source: source)
        } else {
            prediction = try await StudioPrediction.run(image: image, predictor: open.predictor, settings: open.settings,
                                                        interpreter: open.interpreter, queue: queue, source: source)
        }
        let document = DetectionDocument(model: .init(open.predictor.info), results: [prediction.frame])
        if lastPictures.isNew(SHA256.hex(image), model: open.model.displayName) {
            var stats = document.runStats(startedAt: startedAt, endedAt: Date(), source: source, interpreter: open.interpreter)
            if let interpretation = prediction.interpretation {
                var summary = InterpreterRunSummary(interpreter: interpretation.interpreter)
                summary.add(interpretation.result)
                stats.summary = summary.sentence
            }
            try await open.model.recordUse(stats, in: store)
        }
        return InterpretedDetections(document: document, interpretation: prediction.interpretation)
    }

    /// Queues the reserved video job `id` for the upload at `upload` (``StudioVideoJobs/submit(id:fileName:upload:stride:video:open:queue:db:)``
    /// on the studio's queue, the run recorded with the model when done).
    package func submitVideo(id: Int, fileName: String, upload: String, stride: Int, video: StudioVideoJobs.Video,
                            open: OpenModel) -> StudioVideoJobs.Job {
        videoJobs.submit(id: id, fileName: fileName, upload: upload, stride: stride, video: video, open: open, queue: queue, db: store)
    }

    /// Records a camera stream's run with its model (nothing when no frame was answered).
    package func record(_ live: LiveDetection) async { await live.record(in: store) }
}

/// The checksum of the last picture each model ran on.
package final class LastPictures: @unchecked Sendable {   // state guarded by `lock`
    private let lock = NSLock()
    private var last: [String: String] = [:]

    /// An empty memory.
    package init() {}

    /// Whether `sha256` differs from the last picture `model` ran on (and remembers it).
    package func isNew(_ sha256: String, model: String) -> Bool {
        lock.lock(); defer { lock.unlock() }
        if last[model] == sha256 { return false }
        if last.count > 100 { last.removeAll() }
        last[model] = sha256
        return true
    }
}
