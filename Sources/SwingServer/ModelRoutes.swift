import Foundation
import Hummingbird
import SwingCore
import SwingPipeline

/// `/api/models…`: the catalog with each model's stored defaults and runs (docs/studio.md). The catalog
/// owns the files, the store the preferences; this adapter joins them and checks what the browser sends.
struct ModelRoutes: Sendable {
    let state: ServerState
    var studio: StudioService { state.studio }

    func add(to api: RouterGroup<BasicRequestContext>) {
        api.get("models") { request, _ in
            let query = request.uri.queryParameters
            let task = query["task"].map(String.init)
            let hidden = query["hidden"].map { $0 == "1" || $0 == "true" } ?? false
            return try JSONResponse.make(["models": try await studio.models(task: task, includeHidden: hidden)])
        }
        // Every model's runs, newest first: the detections page.
        api.get("detections") { request, _ in
            let query = request.uri.queryParameters
            let limit = try Self.limit(query["limit"].map(String.init))
            let modelId = query["model"].map { String($0).lowercased() }.flatMap { $0.isEmpty ? nil : $0 }
            return try JSONResponse.make(["runs": try await studio.runs(modelId: modelId, limit: limit)])
        }
        api.get("models/:id") { _, context in try await JSONResponse.make(try studio.view(ofModel: modelId(context))) }
        api.post("models", use: add)
        api.get("models/jobs/:id") { _, context in
            let id = try APIRoutes.id(context, "id", what: "download")
            guard let job = await studio.downloads.job(Int(id)) else { throw APIError(.notFound, "There is no download \(id).") }
            return try JSONResponse.make(job)
        }
        api.get("models/jobs/:id/events") { _, context in
            let id = Int(try APIRoutes.id(context, "id", what: "download"))
            let downloads = studio.downloads
            guard await downloads.job(id) != nil else { throw APIError(.notFound, "There is no download \(id).") }
            return EventStream.response(event: "download", read: { await downloads.job(id) },
                                        isFinal: { $0.state.isFinal }, waitForChange: EventStream.poll)
        }
        api.patch("models/:id") { request, context in
            let id = modelId(context)
            _ = try studio.model(id: id)
            let body = try await request.body.collect(upTo: 64 << 10)
            let change: ModelChange
            do { change = try JSONDecoder().decode(ModelChange.self, from: Data(buffer: body)) } catch {
                throw APIError(.badRequest, #"Send a JSON object with any of "favorite", "hidden" and "defaults"."#)
            }
            return try await JSONResponse.make(try studio.apply(change, toModel: id))
        }
        api.delete("models/:id") { _, context in
            try await studio.remove(model: modelId(context))
            return Response(status: .noContent)
        }
    }

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

    /// The model id the route's `:id` names (the studio answers 404 when the catalog has no such model).
    private func modelId(_ context: BasicRequestContext) -> String { context.parameters.get("id") ?? "" }

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
        let limit = min(state.configuration.maxUploadBytes, StudioService.maxModelBytes)
        if let length = request.headers[.contentLength].flatMap({ Int64($0) }), length > limit {
            throw APIError(.contentTooLarge, "The model is larger than this server accepts (\(limit >> 20) MB).")
        }
        let stored = try await state.streamUpload(tooLarge: { "The model is larger than this server accepts (\($0 >> 20) MB)." }) {
            try await state.modelFiles.staging.receive(request.body, fileName: { name }, maxBytes: limit,
                                                       idleTimeout: state.configuration.uploadIdleTimeout)
        }
        defer { try? FileManager.default.removeItem(atPath: stored.path) }
        // The staged file is named by its checksum; the catalog reads the extension and the wanted id.
        return try await JSONResponse.make(try studio.add(fileAt: URL(fileURLWithPath: stored.path), name: name), status: .created)
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
        return try JSONResponse.make(["job": try await studio.download(url, sha256: body.sha256, id: body.id)], status: .accepted)
    }
}

/// Where uploaded model files wait while the catalog checks them (`HOME/cache/uploads`).
struct ModelFiles: Sendable {
    let staging: MediaStore

    init(home: URL) {
        var staging = MediaStore(directory: home.appendingPathComponent("cache/uploads", isDirectory: true))
        staging.keptExtensions = ["onnx", "zip"]
        self.staging = staging
    }
}

