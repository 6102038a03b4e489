import Foundation
import Hummingbird
import SwingCore
import SwingPipeline
import SwingStore
import SwingVision

/// `/api/models…`: the catalog with each model's stored defaults and runs (docs/studio.md). The catalog
/// owns the files, the store the preferences; this adapter joins them and checks what the browser sends.
struct ModelRoutes: Sendable {
    let state: ServerState
    var db: any Store { state.db }
    var catalog: ModelCatalog { state.studio.catalog }

    func add(to api: RouterGroup<BasicRequestContext>) {
        api.get("models") { request, _ in
            let query = request.uri.queryParameters
            let task = query["task"].map(String.init)
            let hidden = query["hidden"].map { $0 == "1" || $0 == "true" } ?? false
            let records = try await Dictionary(db.allModelRecords().map { ($0.modelId, $0) }, uniquingKeysWith: { a, _ in a })
            let ordered = ModelPreferences.ordered(catalog.models(), preferences: records.mapValues(\.preferences),
                                                   includeHidden: hidden)
            var views: [ModelView] = []
            for model in ordered where task == nil || model.task == task {
                var view = ModelView(model, record: records[model.id], sha256: state.modelFiles.checksums.sha256(of: model))
                // The card shows the latest few runs; a model never run has no query to make.
                if (records[model.id]?.usageCount ?? 0) > 0 {
                    view.runs = try await db.detectionSessions(modelId: model.id, limit: Self.runsOnCard).map { RunView($0) }
                }
                views.append(view)
            }
            return try JSONResponse.make(["models": views])
        }
        // Every model's runs, newest first: the detections page.
        api.get("detections") { request, _ in
            let query = request.uri.queryParameters
            let limit = try Self.limit(query["limit"].map(String.init))
            let modelId = query["model"].map { String($0).lowercased() }.flatMap { $0.isEmpty ? nil : $0 }
            let runs = try await db.detectionSessions(modelId: modelId, limit: limit).map { RunView($0, model: $0.modelId) }
            return try JSONResponse.make(["runs": runs])
        }
        api.get("models/:id") { _, context in try await JSONResponse.make(try view(of: model(context), runs: true)) }
        api.post("models", use: add)
        api.get("models/jobs/:id") { _, context in
            let id = try APIRoutes.id(context, "id", what: "download")
            guard let job = await state.modelFiles.downloads.job(Int(id)) else { throw APIError(.notFound, "There is no download \(id).") }
            return try JSONResponse.make(job)
        }
        api.get("models/jobs/:id/events") { _, context in
            let id = Int(try APIRoutes.id(context, "id", what: "download"))
            let downloads = state.modelFiles.downloads
            guard await downloads.job(id) != nil else { throw APIError(.notFound, "There is no download \(id).") }
            return EventStream.response(event: "download", read: { await downloads.job(id) },
                                        isFinal: { $0.state.isFinal }, waitForChange: EventStream.poll)
        }
        api.patch("models/:id") { request, context in
            let model = try model(context)
            let body = try await request.body.collect(upTo: 64 << 10)
            let change: ModelChange
            do { change = try JSONDecoder().decode(ModelChange.self, from: Data(buffer: body)) } catch {
                throw APIError(.badRequest, #"Send a JSON object with any of "favorite", "hidden" and "defaults"."#)
            }
            if let defaults = change.defaults {
                try defaults.validate()
                try await db.setDefaults(conf: defaults.conf, iou: defaults.iou, maxDetections: defaults.maxDet,
                                   lineWidth: defaults.lineWidth, interpreter: defaults.interpreter,
                                   interpreterConfigJSON: try defaults.interpreterOptionsJSON(), id: model.id)
            }
            if let favorite = change.favorite { try await db.setFavorite(favorite, id: model.id) }
            if let hidden = change.hidden { try await db.setHidden(hidden, id: model.id) }
            return try await JSONResponse.make(try view(of: model, runs: true))
        }
        api.delete("models/:id") { _, context in
            let model = try model(context)
            guard model.source != .bundled else {
                throw APIError(.conflict, "The model \(model.id) ships with Swingmaster and cannot be removed; hide it instead.")
            }
            try catalog.remove(id: model.id)
            try await db.removeModelRecord(id: model.id)
            await state.studio.loaded.forget(path: model.path)
            await state.studio.tennisModels.forget(path: model.path)
            return Response(status: .noContent)
        }
    }

    /// Runs listed on each card of `GET /api/models`.
    static let runsOnCard = 3
    /// The most runs `GET /api/detections` lists at once.
    static let maxRunsListed = 1000

    /// `limit=` of the detections list: 1…``maxRunsListed``, 100 when absent.
    static func limit(_ text: String?) throws -> Int {
        guard let text else { return 100 }
        guard let n = Int(text), (1...maxRunsListed).contains(n) else {
            throw APIError(.badRequest, "The number of runs to list (limit) must be a whole number from 1 to \(maxRunsListed), not \(text.prefix(40)).")
        }
        return n
    }

    /// The catalog model the route's `:id` names (404 when there is none).
    private func model(_ context: BasicRequestContext) throws -> CatalogModel {
        let id = context.parameters.get("id") ?? ""
        guard let model = catalog.models().first(where: { $0.id == id.lowercased() }) else {
            throw APIError(.notFound, "There is no model '\(id.prefix(60))' in the catalog.")
        }
        return model
    }

    private func view(of model: CatalogModel, runs: Bool) async throws -> ModelView {
        var view = ModelView(model, record: try await db.modelRecord(id: model.id), sha256: state.modelFiles.checksums.sha256(of: model))
        if runs { view.runs = try await db.detectionSessions(modelId: model.id, limit: 20).map { RunView($0) } }
        return view
    }

    // MARK: Adding a model

    /// `POST /api/models`: the model file as the body (`X-Filename: name.onnx` or `.zip`), streamed to disk,
    /// checked and installed by the catalog; 201 with the new model.
    @Sendable func add(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let type = (request.headers[.contentType] ?? "").lowercased()
        if type.hasPrefix("application/json") { return try await download(request) }
        guard type.hasPrefix("application/octet-stream") else {
            throw APIError(.unsupportedMediaType, "Send the model file itself as the body with Content-Type: application/octet-stream and its name in X-Filename, or {\"url\": …} as JSON.")
        }
        let header = request.headers.first(where: { $0.name.canonicalName == "x-filename" })?.value
        let name = APIRoutes.fileName(header)
        let ext = URL(fileURLWithPath: name).pathExtension.lowercased()
        guard header != nil, ext == "onnx" || ext == "zip" else {
            throw APIError(.unsupportedMediaType, "Name the file in X-Filename: an ONNX model (.onnx) or a .zip holding one.")
        }
        let limit = min(state.configuration.maxUploadBytes, ModelCatalog.maxModelBytes)
        if let length = request.headers[.contentLength].flatMap({ Int64($0) }), length > limit {
            throw APIError(.contentTooLarge, "The model is larger than this server accepts (\(limit >> 20) MB).")
        }
        guard await state.uploads.enter() else {
            throw APIError(.tooManyRequests, "\(state.configuration.maxConcurrentUploads) uploads are already running; try again when one has finished.")
        }
        let stored: MediaStore.Stored
        do {
            stored = try await state.modelFiles.staging.receive(request.body, fileName: { name }, maxBytes: limit,
                                                            idleTimeout: state.configuration.uploadIdleTimeout)
            await state.uploads.leave()
        } catch {
            await state.uploads.leave()
            if let upload = error as? MediaStore.UploadError {
                throw upload.apiError { "The model is larger than this server accepts (\($0 >> 20) MB)." }
            }
            throw error
        }
        defer { try? FileManager.default.removeItem(atPath: stored.path) }
        let stem = URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent
        let model: CatalogModel
        do {
            // The staged file is named by its checksum; the catalog reads the extension and the wanted id.
            let staged = URL(fileURLWithPath: stored.path)
            model = try catalog.add(fileAt: staged, id: stem, displayName: name)
        } catch let error as CatalogError where error.kind == .duplicateId {
            throw APIError(.conflict, "The catalog already has a model called \(ModelCatalog.makeId(stem)); rename the file or remove that model first.",
                           code: Int(error.statusCode))
        } catch let error as CatalogError {
            throw APIError(.unprocessableContent, error.message, code: Int(error.statusCode))
        }
        return try await JSONResponse.make(try view(of: model, runs: false), status: .created)
    }
}

extension ModelRoutes {
    /// `POST /api/models` with `{"url": …, "sha256"?: …, "id"?: …}`: 202 with a download job whose progress
    /// is at `/api/models/jobs/{id}/events`. The catalog streams the body to disk and checks it.
    func download(_ request: Request) async throws -> Response {
        struct Body: Decodable { var url: String; var sha256: String?; var id: String? }
        let data = try await request.body.collect(upTo: 16 << 10)
        guard let body = try? JSONDecoder().decode(Body.self, from: Data(buffer: data)) else {
            throw APIError(.badRequest, #"Send {"url": "https://…/model.onnx"} with an optional "sha256"."#)
        }
        guard let url = URL(string: body.url), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host?.isEmpty == false else {
            throw APIError(.badRequest, "The model URL must be an http or https address, not \(body.url.prefix(80)).")
        }
        if let sha = body.sha256, sha.count != 64 || !sha.allSatisfy(\.isHexDigit) {
            throw APIError(.badRequest, "The SHA-256 must be 64 hexadecimal digits.")
        }
        let db = self.db, checksums = state.modelFiles.checksums
        do {
            let job = try await state.modelFiles.downloads.start(url, sha256: body.sha256, id: body.id, catalog: catalog, view: { model in
                ModelView(model, record: try await db.modelRecord(id: model.id), sha256: checksums.sha256(of: model))
            })
            return try JSONResponse.make(["job": job], status: .accepted)
        } catch ModelDownloads.Refusal.sameURL(let id) {
            throw APIError(.conflict, "This URL is already downloading (download \(id)); follow that one.")
        } catch ModelDownloads.Refusal.busy {
            throw APIError(.tooManyRequests, "\(ModelDownloads.limit) downloads are already running; try again when one has finished.")
        }
    }
}

/// The studio's model files as the server keeps them: their checksums, uploads waiting for the catalog's
/// check, and downloads started from the browser.
struct ModelFiles: Sendable {
    let checksums = ModelChecksums()
    /// Where uploaded model files wait while the catalog checks them (`HOME/cache/uploads`).
    let staging: MediaStore
    /// Models being downloaded for the browser.
    let downloads = ModelDownloads()

    init(home: URL) {
        var staging = MediaStore(directory: home.appendingPathComponent("cache/uploads", isDirectory: true))
        staging.keptExtensions = ["onnx", "zip"]
        self.staging = staging
    }
}

/// One model as the studio's API shows it: the catalog entry, its preferences and its stored defaults.
struct ModelView: Codable, Equatable, Sendable {
    var id: String
    var name: String
    var kind: CatalogModel.Kind
    var task: String?
    var typeHint: ModelTypeHint
    var source: CatalogModel.Source
    var url: String?
    var sizeBytes: Int64
    var inputSize: [Int]?
    var labels: [String]
    var sha256: String?
    var problem: String?
    var favorite: Bool
    var hidden: Bool
    var lastUsedAt: Date?
    var useCount: Int
    var defaults: ModelDefaults
    /// The model's recent runs: 20 on `GET /api/models/{id}`, the latest ``ModelRoutes/runsOnCard`` in the list.
    var runs: [RunView]?

    init(_ m: CatalogModel, record: ModelRecord?, sha256: String?) {
        id = m.id; name = m.name; kind = m.kind; task = m.task; typeHint = m.typeHint; source = m.source; url = m.url
        sizeBytes = m.sizeBytes; inputSize = m.inputSize; labels = m.labels; self.sha256 = sha256; problem = m.problem
        favorite = record?.isFavorite ?? false; hidden = record?.isHidden ?? false
        lastUsedAt = record?.lastUsedAt; useCount = record?.usageCount ?? 0
        defaults = ModelDefaults(record)
    }
}

/// A model's studio defaults. In a `PATCH` every field is optional (a missing one falls back to the
/// built-in default); in answers every field is filled.
struct ModelDefaults: Codable, Equatable, Sendable {
    var conf: Double?
    var iou: Double?
    var maxDet: Int?
    var lineWidth: Int?
    var interpreter: String?
    var interpreterOptions: JSONValue?

    static let defaultLineWidth = 2
    static let lineWidths = 1...20

    init(conf: Double? = nil, iou: Double? = nil, maxDet: Int? = nil, lineWidth: Int? = nil, interpreter: String? = nil,
         interpreterOptions: JSONValue? = nil) {
        self.conf = conf; self.iou = iou; self.maxDet = maxDet; self.lineWidth = lineWidth
        self.interpreter = interpreter; self.interpreterOptions = interpreterOptions
    }

    /// The stored defaults with the built-in ones where nothing is stored.
    init(_ r: ModelRecord?) {
        let p = PredictionOptions()
        conf = r?.confThreshold ?? p.conf
        iou = r?.iouThreshold ?? p.iou
        maxDet = r?.maxDetections ?? p.maxDet
        lineWidth = r?.lineWidth ?? Self.defaultLineWidth
        interpreter = r?.interpreter
        interpreterOptions = r?.interpreterConfigJSON.flatMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }
    }

    /// Refuses values out of range, an unknown interpreter, or options the interpreter cannot read.
    func validate() throws {
        let settings = DetectionSettings(conf: conf ?? PredictionOptions().conf, iou: iou ?? PredictionOptions().iou,
                                         maxDet: maxDet ?? PredictionOptions().maxDet, interpret: interpreter)
        try settings.validate(names: [:])
        if let lineWidth, !Self.lineWidths.contains(lineWidth) {
            throw APIError(.badRequest, "The line width (lineWidth) must be a whole number from \(Self.lineWidths.lowerBound) to \(Self.lineWidths.upperBound), not \(lineWidth).")
        }
        if let interpreterOptions {
            guard case .object = interpreterOptions else {
                throw APIError(.badRequest, #"The interpreter options (interpreterOptions) must be a JSON object such as {"minimumConfidence": 0.5}."#)
            }
            guard let interpreter else {
                throw APIError(.badRequest, "Interpreter options (interpreterOptions) need an interpreter to configure.")
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
struct ModelChange: Decodable {
    var favorite: Bool?
    var hidden: Bool?
    var defaults: ModelDefaults?
}

/// One detection run of a model.
struct RunView: Codable, Equatable, Sendable {
    var id: Int64?
    var source: String?
    var startedAt: Date
    var endedAt: Date
    var frames: Int
    var detections: Int
    var meanFps: Double
    var averageInferenceMs: Double
    var interpreter: String?
    /// What the interpreter saw over the run, in one line.
    var summary: String?
    /// The model that ran (on `GET /api/detections`, which lists every model's runs).
    var model: String?

    init(_ r: DetectionSessionRecord, model: String? = nil) {
        id = r.id; source = r.source; startedAt = r.startedAt; endedAt = r.endedAt; frames = r.frameCount
        detections = r.detectionCount; meanFps = r.meanFps; averageInferenceMs = r.averageInferenceMs
        interpreter = r.interpreter; summary = r.summary; self.model = model
    }
}

/// SHA-256 of catalog files, computed once per file version (the catalog records it only for downloads).
final class ModelChecksums: @unchecked Sendable {
    private let lock = NSLock()
    private var known: [String: (size: Int64, modified: Date, sha256: String)] = [:]

    func sha256(of model: CatalogModel) -> String? {
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
actor ModelDownloads {
    /// What the page sees of one download.
    struct Job: Codable, Equatable, Sendable {
        /// `running` until `done` or `failed` (a download is never queued or cancelled).
        typealias State = JobState
        var id: Int
        var url: String
        var state: State
        var bytesReceived: Int64 = 0
        var totalBytes: Int64?
        /// The installed model (when `done`).
        var model: ModelView?
        /// One sentence (when `failed`).
        var error: String?
    }

    static let limit = 2
    private var jobs: [Int: Job] = [:]
    private var next = 1

    /// Why a download was not started.
    enum Refusal: Error { case busy, sameURL(Int) }

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

    func job(_ id: Int) -> Job? { jobs[id] }

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
