import Foundation
import Hummingbird
import SwingCore
import SwingPipeline

/// `/api/detect/video` and `/api/detect/jobs/…`: docs/studio.md.
struct DetectVideoRoutes: Sendable {
    let state: ServerState
    var studio: StudioService { state.studio }
    var jobs: StudioVideoJobs { state.studio.videoJobs }

    func add(to api: RouterGroup<BasicRequestContext>) {
        api.post("detect/video", use: upload)
        api.get("detect/jobs/:id") { _, context in try JSONResponse.make(try job(context)) }
        api.get("detect/jobs/:id/events") { _, context in
            let id = try job(context).id
            let jobs = self.jobs
            return EventStream.response(event: "job", read: { jobs.job(id) }, isFinal: { $0.state.isFinal },
                                        waitForChange: EventStream.poll)
        }
        api.get("detect/jobs/:id/result") { request, context in
            let job = try finished(context)
            return try await FileResponses.send(jobs.resultPath(job.id), request: request, context: context,
                                                headers: [.cacheControl: "no-store"], contentType: "application/json; charset=utf-8")
        }
        api.get("detect/jobs/:id/video") { request, context in
            let job = try finished(context)
            let stem = URL(fileURLWithPath: job.fileName).deletingPathExtension().lastPathComponent
            return try await FileResponses.send(jobs.videoPath(job.id), request: request, context: context,
                                                headers: [.contentDisposition: APIRoutes.attachment("\(stem)-\(job.model)-annotated.mp4")],
                                                contentType: "video/mp4")
        }
        api.get("detect/jobs/:id/source") { request, context in
            let job = try finished(context)
            guard let path = jobs.sourcePath(job.id) else { throw APIError(.notFound, "The video of job \(job.id) is no longer on the server.") }
            return try await FileResponses.send(path, request: request, context: context)
        }
        api.delete("detect/jobs/:id") { _, context in
            let id = try Self.id(context)
            let (found, job) = jobs.cancelOrRemove(id)
            guard found else { throw APIError(.notFound, "There is no video job \(id).") }
            if let job { return try JSONResponse.make(job) }
            return Response(status: .noContent)
        }
    }

    static func id(_ context: BasicRequestContext) throws -> Int {
        let text = context.parameters.get("id") ?? ""
        guard let id = Int(text), id > 0 else { throw APIError(.notFound, "There is no video job '\(text.prefix(40))'.") }
        return id
    }

    private func job(_ context: BasicRequestContext) throws -> StudioVideoJobs.Job { try jobs.named(Self.id(context)) }

    /// The job, when it is done (409 while it runs, 410 when it failed or was cancelled).
    private func finished(_ context: BasicRequestContext) throws -> StudioVideoJobs.Job { try jobs.finished(Self.id(context)) }

    /// `POST /api/detect/video?model=ID&…&stride=N`, the video as the body: checked, streamed to disk, queued.
    @Sendable func upload(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let config = state.configuration
        let query = DetectRoutes.query(request)
        // Everything the query says is checked before a byte of the body is read.
        let stride = try StudioVideoJobs.stride(query["stride"])
        let open = try await studio.open(query)
        if open.settings.track && open.predictor.info.task == .classify {
            throw APIError(.badRequest, "Tracking needs a model that finds boxes (detect, segment, pose or obb); this one classifies whole images.")
        }
        let type = (request.headers[.contentType] ?? "").lowercased()
        guard type.hasPrefix("application/octet-stream") || type.hasPrefix("video/") else {
            throw APIError(.unsupportedMediaType, "Send the video itself as the body (Content-Type: application/octet-stream or video/…) with its name in X-Filename.")
        }
        if let length = request.headers[.contentLength].flatMap({ Int64($0) }), length > config.maxUploadBytes {
            throw APIError(.contentTooLarge, APIRoutes.tooLarge(config.maxUploadBytes))
        }
        let fileName = APIRoutes.fileName(request.headers.first(where: { $0.name.canonicalName == "x-filename" })?.value)
        let id = try jobs.reserveOrRefuse()
        var queued = false
        defer { if !queued { jobs.release(id) } }
        let stored = try await state.streamUpload {
            try await MediaStore(directory: jobs.folder(id)).receive(
                request.body, fileName: { fileName }, maxBytes: config.maxUploadBytes, idleTimeout: config.uploadIdleTimeout)
        }
        // A fixed name in the job's folder; the extension (allowlisted) helps FFmpeg and the browser.
        let ext = URL(fileURLWithPath: stored.path).pathExtension
        let upload = jobs.folder(id).appendingPathComponent("upload.\(ext)").path
        guard rename(stored.path, upload) == 0 else {
            throw APIError(.init(code: 507, reasonPhrase: "Insufficient Storage"), "The server cannot store the upload: \(String(cString: strerror(errno))).")
        }
        let video = try StudioVideoJobs.checkVideo(upload, name: fileName, stride: stride)
        let job = studio.submitVideo(id: id, fileName: fileName, upload: upload, stride: stride, video: video, open: open)
        queued = true
        return try JSONResponse.make(["job": job], status: .accepted)
    }
}
