import Foundation
import SwingCore
import SwingStore
import SwingVision

/// One model as the studio's API and `swingmaster models list --json` / `models info` show it: the catalog
/// entry, its preferences, its stored defaults and its latest runs.
package struct ModelView: Codable, Equatable, Sendable {
    package var id: String
    package var name: String
    /// The model file on the machine that runs it.
    package var path: String
    package var kind: CatalogModel.Kind
    package var task: String?
    package var typeHint: ModelTypeHint
    package var source: CatalogModel.Source
    package var url: String?
    /// When a downloaded model was fetched.
    package var downloadedAt: Date?
    package var sizeBytes: Int64
    package var inputSize: [Int]?
    package var labels: [String]
    package var sha256: String?
    package var problem: String?
    package var favorite: Bool
    package var hidden: Bool
    package var lastUsedAt: Date?
    package var useCount: Int
    package var defaults: ModelDefaults
    /// The model's recent runs, newest first: 20 on `GET /api/models/{id}`, the latest ``StudioService/runsOnCard``
    /// in the list, `models info --sessions N`'s N.
    package var runs: [RunView]?

    /// What `models list` and the studio call the task (``CatalogModel/taskDescription``).
    package var taskDescription: String { CatalogModel.taskDescription(kind: kind, task: task) }

    /// Catalog model `m` with its `record` in the store (`nil`: never configured nor run) and its file's `sha256`.
    package init(_ m: CatalogModel, record: ModelRecord?, sha256: String?) {
        id = m.id; name = m.name; path = m.path; kind = m.kind; task = m.task; typeHint = m.typeHint; source = m.source; url = m.url
        downloadedAt = m.downloadedAt
        sizeBytes = m.sizeBytes; inputSize = m.inputSize; labels = m.labels; self.sha256 = sha256; problem = m.problem
        favorite = record?.isFavorite ?? false; hidden = record?.isHidden ?? false
        lastUsedAt = record?.lastUsedAt; useCount = record?.usageCount ?? 0
        defaults = ModelDefaults(record)
    }
}

extension ModelView {
    /// ``MediaLibrary/models(_:includeHidden:checksums:)``, read from `store`.
    static func ordered(_ models: [CatalogModel], includeHidden: Bool, checksums: ModelChecksums,
                        in store: any Store) async throws -> [(view: ModelView, stored: ModelDefaults)] {
        let records = try await Dictionary(store.allModelRecords().map { ($0.modelId, $0) }, uniquingKeysWith: { a, _ in a })
        return ModelPreferences.ordered(models, preferences: records.mapValues(\.preferences), includeHidden: includeHidden).map {
            (ModelView($0, record: records[$0.id], sha256: checksums.sha256(of: $0)), ModelDefaults(stored: records[$0.id]))
        }
    }
}

/// A model's studio defaults. In a `PATCH` every field is optional (a missing one falls back to the
/// built-in default); in answers every field is filled.
package struct ModelDefaults: Codable, Equatable, Sendable {
    package var conf: Double?
    package var iou: Double?
    package var maxDet: Int?
    package var lineWidth: Int?
    package var interpreter: String?
    package var interpreterOptions: JSONValue?

    static let defaultLineWidth = 2
    static let lineWidths = 1...20

    package init(conf: Double? = nil, iou: Double? = nil, maxDet: Int? = nil, lineWidth: Int? = nil, interpreter: String? = nil,
         interpreterOptions: JSONValue? = nil) {
        self.conf = conf; self.iou = iou; self.maxDet = maxDet; self.lineWidth = lineWidth
        self.interpreter = interpreter; self.interpreterOptions = interpreterOptions
    }

    /// The stored defaults with the built-in ones where nothing is stored.
    init(_ r: ModelRecord?) {
        self.init(stored: r)
        let p = PredictionOptions()
        conf = conf ?? p.conf
        iou = iou ?? p.iou
        maxDet = maxDet ?? p.maxDet
        lineWidth = lineWidth ?? Self.defaultLineWidth
    }

    /// The defaults as `r` stores them, `nil` where none is set.
    init(stored r: ModelRecord?) {
        conf = r?.confThreshold; iou = r?.iouThreshold; maxDet = r?.maxDetections; lineWidth = r?.lineWidth
        interpreter = r?.interpreter
        interpreterOptions = r?.interpreterConfigJSON.flatMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }
    }

    /// Refuses values out of range, an unknown interpreter, or options the interpreter cannot read.
    func validate() throws {
        let settings = DetectionSettings(conf: conf ?? PredictionOptions().conf, iou: iou ?? PredictionOptions().iou,
                                         maxDet: maxDet ?? PredictionOptions().maxDet, interpret: interpreter)
        try settings.validate(names: [:])
        if let lineWidth, !Self.lineWidths.contains(lineWidth) {
            throw RequestError(.invalid, "The line width (lineWidth) must be a whole number from \(Self.lineWidths.lowerBound) to \(Self.lineWidths.upperBound), not \(lineWidth).")
        }
        if let interpreterOptions {
            guard case .object = interpreterOptions else {
                throw RequestError(.invalid, #"The interpreter options (interpreterOptions) must be a JSON object such as {"minimumConfidence": 0.5}."#)
            }
            guard let interpreter else {
                throw RequestError(.invalid, "Interpreter options (interpreterOptions) need an interpreter to configure.")
            }
            _ = try InterpreterRegistry.standard.interpreter(named: interpreter, configuration: try interpreterOptionsJSON().map { Data($0.utf8) })
        }
    }

    /// The options as the store keeps them.
    func interpreterOptionsJSON() throws -> String? {
        try interpreterOptions.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
    }
}

/// The body of `PATCH /api/models/{id}`.
package struct ModelChange: Decodable, Sendable {
    package var favorite: Bool?
    package var hidden: Bool?
    package var defaults: ModelDefaults?
}

/// One detection run of a model.
package struct RunView: Codable, Equatable, Sendable {
    package var id: Int64?
    package var source: String?
    package var startedAt: Date
    package var endedAt: Date
    package var frames: Int
    package var detections: Int
    package var meanFps: Double
    package var averageInferenceMs: Double
    package var interpreter: String?
    /// What the interpreter saw over the run, in one line.
    package var summary: String?
    /// The model that ran (on `GET /api/detections`, which lists every model's runs).
    package var model: String?

    /// Run `r`, naming its `model` when given.
    package init(_ r: DetectionSessionRecord, model: String? = nil) {
        id = r.id; source = r.source; startedAt = r.startedAt; endedAt = r.endedAt; frames = r.frameCount
        detections = r.detectionCount; meanFps = r.meanFps; averageInferenceMs = r.averageInferenceMs
        interpreter = r.interpreter; summary = r.summary; self.model = model
    }
}

/// SHA-256 of catalog files, computed once per file version (the catalog records it only for downloads).
package final class ModelChecksums: @unchecked Sendable {
    package init() {}

    private let lock = NSLock()
    private var known: [String: (size: Int64, modified: Date, sha256: String)] = [:]

    package func sha256(of model: CatalogModel) -> String? {
        if let recorded = model.sha256 { return recorded }
        let attributes = try? FileManager.default.attributesOfItem(atPath: model.path)
        let modified = attributes?[.modificationDate] as? Date ?? .distantPast
        lock.lock()
        let cached = known[model.path]
        lock.unlock()
        if let cached, cached.size == model.sizeBytes, cached.modified == modified { return cached.sha256 }
        guard let hex = try? SHA256.hex(ofFile: model.path) else { return nil }
        lock.lock()
        known[model.path] = (model.sizeBytes, modified, hex)
        lock.unlock()
        return hex
    }
}

/// Model downloads started from the browser (`POST /api/models` with a URL): each runs as a task whose
/// progress the page follows over Server-Sent Events. At most ``limit`` run at once; finished ones are kept
/// for a while so a page that reconnects still learns the outcome.
package actor ModelDownloads {
    /// What the page sees of one download.
    package struct Job: Codable, Equatable, Sendable {
        /// `running` until `done` or `failed` (a download is never queued or cancelled).
        package typealias State = JobState
        package var id: Int
        package var url: String
        package var state: State
        package var bytesReceived: Int64 = 0
        package var totalBytes: Int64?
        /// The installed model (when `done`).
        package var model: ModelView?
        /// One sentence (when `failed`).
        package var error: String?
    }

    package static let limit = 2
    private var jobs: [Int: Job] = [:]
    private var next = 1

    /// Why a download was not started.
    package enum Refusal: Error { case busy, sameURL(Int) }

    /// Starts downloading `url` into `catalog`.
    /// - Returns: the new job.
    /// - Throws: ``Refusal`` when ``limit`` downloads are already running, or this URL is already downloading
    ///   (both would write the same partial file).
    func start(_ url: URL, sha256: String?, id: String?, catalog: ModelCatalog,
               view: @escaping @Sendable (CatalogModel) async throws -> ModelView) throws -> Job {
        let running = jobs.values.filter { $0.state == .running }
        if let same = running.first(where: { $0.url == url.absoluteString }) { throw Refusal.sameURL(same.id) }
        guard running.count < Self.limit else { throw Refusal.busy }
        let job = Job(id: next, url: url.absoluteString, state: .running)
        next += 1
        jobs[job.id] = job
        // Keep the newest 50 finished jobs.
        for old in jobs.values.filter({ $0.state.isFinal }).sorted(by: { $0.id < $1.id }).dropLast(50) { jobs[old.id] = nil }
        let jobId = job.id
        Task.detached {
            do {
                let model = try await catalog.download(url, sha256: sha256, id: id) { progress in
                    Task { await self.progress(jobId, progress) }
                }
                await self.finish(jobId, model: try await view(model))
            } catch let error as any UserFacingError {
                await self.fail(jobId, error.description)
            } catch {
                await self.fail(jobId, "The download failed.")
            }
        }
        return job
    }

    package func job(_ id: Int) -> Job? { jobs[id] }

    private func progress(_ id: Int, _ p: DownloadProgress) {
        guard var job = jobs[id], job.state == .running else { return }
        job.bytesReceived = max(job.bytesReceived, p.bytesReceived)
        job.totalBytes = p.totalBytes
        jobs[id] = job
    }

    private func finish(_ id: Int, model: ModelView) {
        jobs[id]?.state = .done
        jobs[id]?.model = model
    }

    private func fail(_ id: Int, _ sentence: String) {
        jobs[id]?.state = .failed
        jobs[id]?.error = sentence
    }
}

/// The catalog joined with the store's preferences, defaults and runs: what `/api/models…` answers and changes
/// (docs/studio.md). The catalog owns the files, the store the preferences.
extension StudioService {
    /// Runs listed with each model of ``models(task:includeHidden:)``.
    package static let runsOnCard = 3

    /// The catalog's models in the player's order (favourites, then the most recently used), hidden ones
    /// only when asked, of one task (`detect`, `pose`, …) or all; each with its latest ``runsOnCard`` runs.
    package func models(task: String?, includeHidden: Bool) async throws -> [ModelView] {
        var views: [ModelView] = []
        for (var view, _) in try await ModelView.ordered(catalog.models(), includeHidden: includeHidden, checksums: checksums, in: store)
        where task == nil || view.task == task {
            // A model never run has no query to make.
            if view.useCount > 0 {
                view.runs = try await store.detectionSessions(modelId: view.id, limit: Self.runsOnCard).map { RunView($0) }
            }
            views.append(view)
        }
        return views
    }

    /// The newest `limit` runs of model `modelId`, or of every model when `nil` (each naming its model).
    package func runs(modelId: String?, limit: Int) async throws -> [RunView] {
        try await store.detectionSessions(modelId: modelId, limit: limit).map { RunView($0, model: $0.modelId) }
    }

    /// The catalog model `id` names (any case).
    /// - Throws: ``RequestError`` `.notFound` when there is none.
    package func model(id: String) throws -> CatalogModel {
        guard let model = catalog.models().first(where: { $0.id == id.lowercased() }) else {
            throw RequestError(.notFound, "There is no model '\(id.prefix(60))' in the catalog.")
        }
        return model
    }

    /// Model `id` as the API shows it, with its newest 20 runs.
    /// - Throws: ``RequestError`` `.notFound` when there is no such model.
    package func view(ofModel id: String) async throws -> ModelView { try await view(of: model(id: id), runs: true) }

    func view(of model: CatalogModel, runs: Bool) async throws -> ModelView {
        var view = ModelView(model, record: try await store.modelRecord(id: model.id), sha256: checksums.sha256(of: model))
        if runs { view.runs = try await store.detectionSessions(modelId: model.id, limit: 20).map { RunView($0) } }
        return view
    }

    /// Applies `change` to model `id`'s preferences and defaults.
    /// - Returns: The model as the API shows it now.
    /// - Throws: ``RequestError`` `.notFound` for no such model, `.invalid` for a default out of range or an
    ///   interpreter that cannot take its options; nothing is changed then.
    package func apply(_ change: ModelChange, toModel id: String) async throws -> ModelView {
        let model = try model(id: id)
        if let defaults = change.defaults {
            try defaults.validate()
            try await store.setDefaults(conf: defaults.conf, iou: defaults.iou, maxDetections: defaults.maxDet,
                                        lineWidth: defaults.lineWidth, interpreter: defaults.interpreter,
                                        interpreterConfigJSON: try defaults.interpreterOptionsJSON(), id: model.id)
        }
        if let favorite = change.favorite { try await store.setFavorite(favorite, id: model.id) }
        if let hidden = change.hidden { try await store.setHidden(hidden, id: model.id) }
        return try await view(of: model, runs: true)
    }

    /// Removes model `id`'s file and record, and unloads it.
    /// - Throws: ``RequestError`` `.notFound` for no such model, `.conflict` for one that ships with
    ///   Swingmaster; the catalog's error.
    package func remove(model id: String) async throws {
        let model = try model(id: id)
        guard model.source != .bundled else {
            throw RequestError(.conflict, "The model \(model.id) ships with Swingmaster and cannot be removed; hide it instead.")
        }
        try catalog.remove(id: model.id)
        _ = try await store.removeModelRecord(id: model.id)
        await loaded.forget(path: model.path)
        await tennisModels.forget(path: model.path)
    }

    /// The largest model file the catalog installs, bytes.
    package static var maxModelBytes: Int64 { ModelCatalog.maxModelBytes }

    /// Installs the checked model file at `staged` (named `name` by the player; its id from the name's stem).
    /// - Throws: ``RequestError`` `.conflict` when the catalog has a model of that id, `.unprocessable` with
    ///   the catalog's sentence when the file is not a model it can run.
    package func add(fileAt staged: URL, name: String) async throws -> ModelView {
        let stem = URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent
        let model: CatalogModel
        do {
            model = try catalog.add(fileAt: staged, id: stem, displayName: name)
        } catch let error as CatalogError where error.kind == .duplicateId {
            throw RequestError(.conflict, "The catalog already has a model called \(ModelCatalog.makeId(stem)); rename the file or remove that model first.",
                               code: error.statusCode)
        } catch let error as CatalogError {
            throw RequestError(.unprocessable, error.message, code: error.statusCode)
        }
        return try await view(of: model, runs: false)
    }

    /// Starts downloading the model at `url` into the catalog (``ModelDownloads``).
    /// - Throws: ``RequestError`` `.conflict` when this URL is already downloading, `.busy` when
    ///   ``ModelDownloads/limit`` downloads run.
    package func download(_ url: URL, sha256: String?, id: String?) async throws -> ModelDownloads.Job {
        let store = self.store, checksums = self.checksums
        do {
            return try await downloads.start(url, sha256: sha256, id: id, catalog: catalog, view: { model in
                ModelView(model, record: try await store.modelRecord(id: model.id), sha256: checksums.sha256(of: model))
            })
        } catch ModelDownloads.Refusal.sameURL(let id) {
            throw RequestError(.conflict, "This URL is already downloading (download \(id)); follow that one.")
        } catch ModelDownloads.Refusal.busy {
            throw RequestError(.busy, "\(ModelDownloads.limit) downloads are already running; try again when one has finished.")
        }
    }
}

/// The models' records in the store — preferences, stored defaults, runs — as `swingmaster models` reads and
/// changes them; the catalog (the files) stays the caller's.
extension MediaLibrary {
    /// `models` in the player's order (favourites, then the most recently used), hidden ones only when
    /// `includeHidden`, each as the API shows it (without runs) and with its stored defaults as stored
    /// (`nil` where none is set: the model runs at the built-in or the command's own default).
    package func models(_ models: [CatalogModel], includeHidden: Bool,
                        checksums: ModelChecksums) async throws -> [(view: ModelView, stored: ModelDefaults)] {
        try await ModelView.ordered(models, includeHidden: includeHidden, checksums: checksums, in: store)
    }

    /// `model` as the API shows it, with its newest `runs` runs.
    package func view(of model: CatalogModel, runs: Int, checksums: ModelChecksums) async throws -> ModelView {
        var view = ModelView(model, record: try await store.modelRecord(id: model.id), sha256: checksums.sha256(of: model))
        view.runs = try await store.detectionSessions(modelId: model.id).prefix(max(runs, 0)).map { RunView($0) }
        return view
    }

    /// Notes when downloaded `model` arrived, unless its record already says.
    package func recordDownload(of model: CatalogModel) async throws {
        if try await store.modelRecord(id: model.id)?.downloadedAt == nil {
            try await store.recordDownload(id: model.id, at: model.downloadedAt ?? Date())
        }
    }

    /// Forgets model `id`'s preferences, defaults and runs (its file is the catalog's).
    /// - Returns: whether the library had a record of it.
    @discardableResult
    package func forgetModel(id: String) async throws -> Bool { try await store.removeModelRecord(id: id) }

    /// Marks model `id` a favourite (listed first), or not.
    package func setFavorite(_ favorite: Bool, model id: String) async throws { try await store.setFavorite(favorite, id: id) }

    /// Hides model `id` from the lists, or shows it again.
    package func setHidden(_ hidden: Bool, model id: String) async throws { try await store.setHidden(hidden, id: id) }

    /// Sets model `id`'s stored confidence and IoU thresholds — each given one, the other kept; `clear` forgets
    /// both — and its interpreter options when `interpreterConfig` is given (`""` forgets them).
    /// - Returns: The model's stored defaults now (`nil` where none is set).
    package func setDefaults(conf: Double?, iou: Double?, clear: Bool, interpreterConfig: String?,
                             model id: String) async throws -> ModelDefaults {
        if clear || conf != nil || iou != nil {
            let old = try await store.modelRecord(id: id)
            try await store.setThresholds(conf: clear ? nil : conf ?? old?.confThreshold, iou: clear ? nil : iou ?? old?.iouThreshold, id: id)
        }
        if let interpreterConfig { try await store.setInterpreterConfig(interpreterConfig.isEmpty ? nil : interpreterConfig, id: id) }
        return ModelDefaults(stored: try await store.modelRecord(id: id))
    }
}
