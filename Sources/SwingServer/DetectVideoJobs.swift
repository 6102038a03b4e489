import Dispatch
import Foundation
import Hummingbird
import SwingCore
import SwingInference
import SwingMedia
import SwingPipeline
import SwingStore
import SwingVision

/// The studio's video jobs (docs/studio.md): a video uploaded to `POST /api/detect/video` is run through a
/// model every `stride` frames, with progress over Server-Sent Events, then its detections, the interpreter's
/// video summary and an annotated MP4 are served for playback.
///
/// These are studio jobs, not session analyses: they live in memory (a restart forgets them and empties
/// their folder) and their files in `HOME/cache/detect-jobs/<id>/`. One runs at a time on a thread of its
/// own; every frame's inference waits its turn in the studio's ``InferenceQueue``, so a live camera's frame
/// waits at most one video frame's inference. At most ``maxPending`` jobs wait or run (more: 429); the
/// newest ``keptFinished`` finished jobs are kept, older ones are deleted with their files. A job that fails
/// or is cancelled keeps its record (with the sentence) and loses its files at once.
final class DetectVideoJobs: @unchecked Sendable {
    /// What the page sees of one job.
    struct Job: Codable, Equatable, Sendable {
        enum State: String, Codable, Sendable {
            case queued, running, done, failed, cancelled
            var isFinal: Bool { self == .done || self == .failed || self == .cancelled }
        }
        var id: Int
        /// The uploaded file's name (display only; it never names a file on disk).
        var fileName: String
        var model: String
        var stride: Int
        var settings: DetectionSettings
        var state: State
        /// 0…1.
        var progress: Double = 0
        /// Frames run through the model so far, and how many the video will give at this stride.
        var framesDone = 0
        var framesTotal: Int
        /// The video's picture (after rotation), frame rate and length.
        var width: Int
        var height: Int
        var fps: Double
        var duration: Double
        var createdAt: Date
        /// Processed frames per second of clock time over the run (when done).
        var meanFps: Double?
        /// One sentence (when failed or cancelled).
        var error: String?
        /// Where the finished job's files are (when done).
        var result: String?
        var video: String?
        var source: String?
    }

    /// Jobs waiting or running at once; the next upload is refused (429).
    static let maxPending = 3
    /// Finished jobs (and their files) kept; the oldest beyond this are deleted.
    static let keptFinished = 4
    /// The largest stride accepted (every 300th frame is one picture per 10 s at 30 fps).
    static let maxStride = 300
    /// The most frames one job runs through the model (10 minutes at 30 fps, stride 1); a longer video
    /// needs a larger stride, so a job's memory (its detections) stays bounded.
    static let maxProcessedFrames = 18_000

    let directory: URL
    private let lock = NSLock()
    private var jobs: [Int: Job] = [:]
    private var cancelled: Set<Int> = []
    private var next = 1
    /// One job at a time, off Swift's cooperative threads (which serve HTTP).
    private let worker = DispatchQueue(label: "swingmaster.studio-video", qos: .utility)

    /// Jobs under `directory`, which is emptied: jobs from an earlier run are gone with it.
    init(directory: URL) {
        self.directory = directory
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func folder(_ id: Int) -> URL { directory.appendingPathComponent(String(id), isDirectory: true) }
    func sourcePath(_ id: Int) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder(id).path)) ?? []
        // The playable copy when one was made, else the upload (stored as `upload.<ext>`).
        let name = names.first { $0 == "playable.mp4" } ?? names.first { $0.hasPrefix("upload.") }
        return name.map { folder(id).appendingPathComponent($0).path }
    }
    func resultPath(_ id: Int) -> String { folder(id).appendingPathComponent("result.json").path }
    func videoPath(_ id: Int) -> String { folder(id).appendingPathComponent("annotated.mp4").path }

    func job(_ id: Int) -> Job? { lock.lock(); defer { lock.unlock() }; return jobs[id] }

    /// Reserves a job number and its folder for an upload, unless ``maxPending`` jobs wait or run.
    func reserve() -> Int? {
        lock.lock(); defer { lock.unlock() }
        let pending = jobs.values.filter { !$0.state.isFinal }.count + reserved
        guard pending < Self.maxPending else { return nil }
        reserved += 1
        let id = next
        next += 1
        try? FileManager.default.createDirectory(at: folder(id), withIntermediateDirectories: true)
        return id
    }
    private var reserved = 0

    /// Gives back a reservation whose upload was refused, with its folder.
    func release(_ id: Int) {
        lock.lock(); reserved -= 1; lock.unlock()
        try? FileManager.default.removeItem(at: folder(id))
    }

    /// Queues `job` (reserved with ``reserve()``) to run `work` on the worker thread.
    /// - Parameter work: Runs the video; reports frames done through its argument, asks whether to stop
    ///   through the second, and returns the processed frames per second.
    func start(_ job: Job, work: @escaping @Sendable (_ progress: @escaping @Sendable (Int) -> Void,
                                                      _ isCancelled: @escaping @Sendable () -> Bool) throws -> Double) {
        lock.lock()
        reserved -= 1
        jobs[job.id] = job
        lock.unlock()
        let id = job.id
        worker.async { [self] in
            let began = update(id) { if $0.state == .queued { $0.state = .running } }
            guard began, !isCancelled(id) else {
                finish(id, .cancelled, error: cancelledSentence("video detection", nothing: "kept"))
                return
            }
            do {
                let fps = try work({ frames in self.update(id) { j in
                    j.framesDone = frames
                    j.progress = min(0.99, j.framesTotal > 0 ? Double(frames) / Double(j.framesTotal) : 0)
                } }, { self.isCancelled(id) })
                finish(id, .done, meanFps: fps)
            } catch {
                if isCancelled(id) {
                    finish(id, .cancelled, error: cancelledSentence("video detection", nothing: "kept"))
                } else {
                    finish(id, .failed, error: DetectRoutes.sentence(error))
                }
            }
        }
    }

    /// Stops a waiting or running job (its files go when the worker lets go of them) and answers it, or
    /// removes a finished one with its files and answers `nil`.
    /// - Returns: `.none` when there is no such job.
    func cancelOrRemove(_ id: Int) -> (found: Bool, job: Job?) {
        lock.lock()
        guard let job = jobs[id] else { lock.unlock(); return (false, nil) }
        if job.state.isFinal {
            jobs[id] = nil
            lock.unlock()
            try? FileManager.default.removeItem(at: folder(id))
            return (true, nil)
        }
        cancelled.insert(id)
        var stopped = job
        stopped.state = .cancelled
        stopped.error = cancelledSentence("video detection", nothing: "kept")
        jobs[id] = stopped
        lock.unlock()
        return (true, stopped)
    }

    private func isCancelled(_ id: Int) -> Bool { lock.lock(); defer { lock.unlock() }; return cancelled.contains(id) }

    /// Applies `change` to a job that is not final; `false` when there is none.
    @discardableResult
    private func update(_ id: Int, _ change: (inout Job) -> Void) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard var job = jobs[id], !job.state.isFinal else { return false }
        change(&job)
        jobs[id] = job
        return true
    }

    /// Ends job `id` in `state`. The files that go (older finished jobs beyond ``keptFinished``, and this
    /// job's own unless it is done) are deleted before the job is shown final, so a client that sees it
    /// final finds only the kept jobs' folders.
    private func finish(_ id: Int, _ state: Job.State, meanFps: Double? = nil, error: String? = nil) {
        lock.lock()
        let keepsFiles = state == .done && !cancelled.contains(id) && jobs[id]?.state != .cancelled
        let evicted = jobs.values.filter { $0.state.isFinal && $0.id != id }.map(\.id)
            .sorted(by: >).dropFirst(Self.keptFinished - 1)
        for old in evicted { jobs[old] = nil }
        lock.unlock()
        for old in evicted { try? FileManager.default.removeItem(at: folder(old)) }
        if !keepsFiles { try? FileManager.default.removeItem(at: folder(id)) }

        lock.lock()
        var lateCancel = false
        if var job = jobs[id] {
            // A job cancelled while its last frame ran stays cancelled.
            if cancelled.contains(id) || job.state == .cancelled {
                job.state = .cancelled
                job.error = job.error ?? error
            } else {
                job.state = state
                job.error = error
            }
            if job.state == .done {
                job.progress = 1
                job.meanFps = meanFps
                job.result = "/api/detect/jobs/\(id)/result"
                job.video = "/api/detect/jobs/\(id)/video"
                job.source = "/api/detect/jobs/\(id)/source"
            }
            jobs[id] = job
            cancelled.remove(id)
            lateCancel = keepsFiles && job.state != .done
        }
        lock.unlock()
        // Cancelled between the two locks: its files go now.
        if lateCancel { try? FileManager.default.removeItem(at: folder(id)) }
    }
}

/// `/api/detect/video` and `/api/detect/jobs/…`: docs/studio.md.
struct DetectVideoRoutes: Sendable {
    let state: ServerState
    var studio: Studio { state.studio }
    var jobs: DetectVideoJobs { state.studio.videoJobs }

    func add(to api: RouterGroup<BasicRequestContext>) {
        api.post("detect/video", use: upload)
        api.get("detect/jobs/:id") { _, context in try JSONResponse.make(try job(context)) }
        api.get("detect/jobs/:id/events") { _, context in
            let id = try job(context).id
            let jobs = self.jobs
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                            body: .init { writer in
                var last: DetectVideoJobs.Job?
                var quiet = 0
                while let job = jobs.job(id) {
                    if job != last {
                        let json = String(decoding: try JSONResponse.encoder.encode(job), as: UTF8.self)
                        try await writer.write(ByteBuffer(string: "event: job\ndata: \(json)\n\n"))
                        last = job
                        quiet = 0
                    } else if quiet >= 100 {
                        try await writer.write(ByteBuffer(string: ": still working\n\n"))   // keeps proxies from closing
                        quiet = 0
                    }
                    if job.state.isFinal || Task.isCancelled { break }
                    quiet += 1
                    try await Task.sleep(for: .milliseconds(100))
                }
                try await writer.finish(nil)
            })
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

    private func job(_ context: BasicRequestContext) throws -> DetectVideoJobs.Job {
        let id = try Self.id(context)
        guard let job = jobs.job(id) else { throw APIError(.notFound, "There is no video job \(id).") }
        return job
    }

    /// The job, when it is done (409 while it runs, 410 when it failed or was cancelled).
    private func finished(_ context: BasicRequestContext) throws -> DetectVideoJobs.Job {
        let job = try job(context)
        switch job.state {
        case .done: return job
        case .queued, .running:
            throw APIError(.conflict, "Video job \(job.id) is still running (\(Int(job.progress * 100)) %); follow its events and ask again when it is done.")
        case .failed, .cancelled:
            throw APIError(.gone, "Video job \(job.id) \(job.state == .failed ? "failed" : "was cancelled"), so it has no results.")
        }
    }

    /// `POST /api/detect/video?model=ID&…&stride=N`, the video as the body: checked, streamed to disk, queued.
    @Sendable func upload(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let config = state.configuration
        let query = DetectRoutes.query(request)
        // Everything the query says is checked before a byte of the body is read.
        let stride = try Self.stride(query["stride"])
        let open = try await studio.open(query, db: state.db)
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
        guard let id = jobs.reserve() else {
            throw APIError(.tooManyRequests, "\(DetectVideoJobs.maxPending) videos are already waiting or running in the studio; try again when one has finished.")
        }
        var queued = false
        defer { if !queued { jobs.release(id) } }
        guard await state.uploads.enter() else {
            throw APIError(.tooManyRequests, "\(config.maxConcurrentUploads) uploads are already running; try again when one has finished.")
        }
        let stored: MediaStore.Stored
        do {
            stored = try await MediaStore(directory: jobs.folder(id)).receive(
                request.body, fileName: { fileName }, maxBytes: config.maxUploadBytes, idleTimeout: config.uploadIdleTimeout)
            await state.uploads.leave()
        } catch {
            await state.uploads.leave()
            if let upload = error as? MediaStore.UploadError { throw upload.apiError(tooLarge: APIRoutes.tooLarge) }
            throw error
        }
        // A fixed name in the job's folder; the extension (allowlisted) helps FFmpeg and the browser.
        let ext = URL(fileURLWithPath: stored.path).pathExtension
        let upload = jobs.folder(id).appendingPathComponent("upload.\(ext)").path
        guard rename(stored.path, upload) == 0 else {
            throw APIError(.init(code: 507, reasonPhrase: "Insufficient Storage"), "The server cannot store the upload: \(String(cString: strerror(errno))).")
        }
        let video = try Self.checkVideo(upload, name: fileName, stride: stride)
        let job = DetectVideoJobs.Job(
            id: id, fileName: fileName, model: open.model.displayName, stride: stride, settings: open.settings,
            state: .queued, framesTotal: video.framesTotal, width: video.width, height: video.height, fps: video.fps,
            duration: video.duration, createdAt: Date())
        jobs.start(job, work: Self.work(job: job, open: open, upload: upload, jobs: jobs, studio: studio, db: state.db))
        queued = true
        return try JSONResponse.make(["job": job], status: .accepted)
    }

    /// `stride` from the query: a whole number 1…``DetectVideoJobs/maxStride`` (1 when absent).
    static func stride(_ text: String?) throws -> Int {
        guard let text else { return 1 }
        guard let v = Int(text), (1...DetectVideoJobs.maxStride).contains(v) else {
            throw APIError(.badRequest, "The stride must be a whole number of frames from 1 to \(DetectVideoJobs.maxStride), not \(text.prefix(40)).")
        }
        return v
    }

    /// Probes the upload: a video with a picture, not too many frames to run at this stride.
    /// - Throws: ``APIError`` 422 with one sentence naming the file.
    static func checkVideo(_ path: String, name: String, stride: Int) throws
        -> (width: Int, height: Int, fps: Double, duration: Double, framesTotal: Int) {
        let info: MediaInfo
        do { info = try MediaProbe.probe(path) } catch {
            throw APIError(.unprocessableContent, "\(name) is not a video this server can read.", code: Int(StatusCode.unreadableMedia))
        }
        guard let v = info.video else {
            throw APIError(.unprocessableContent, "\(name) has no video stream; the studio runs the model over a video's pictures.",
                           code: Int(StatusCode.noVideoTrack))
        }
        // FFmpeg reads a picture as a one-frame "video"; the Image input is the place for it.
        if info.formatName.contains("image2") || info.formatName.hasSuffix("_pipe") || (v.frameCount ?? 2) < 2 && info.duration <= 0 {
            throw APIError(.unprocessableContent, "\(name) is a picture, not a video; choose Image to run the model on a picture.",
                           code: Int(StatusCode.noVideoTrack))
        }
        let fps = v.frameRate > 0 ? v.frameRate : 30
        let frames = v.frameCount ?? Int((info.duration * fps).rounded(.up))
        let total = max(1, (frames + stride - 1) / stride)
        guard total <= DetectVideoJobs.maxProcessedFrames else {
            let least = (frames + DetectVideoJobs.maxProcessedFrames - 1) / DetectVideoJobs.maxProcessedFrames
            throw APIError(.unprocessableContent, "\(name) has \(frames) frames, \(total) to run at stride \(stride); the studio runs at most \(DetectVideoJobs.maxProcessedFrames), so choose a stride of at least \(least).")
        }
        let size = v.displaySize
        return (size.width, size.height, fps, info.duration, total)
    }

    /// The job's work on the worker thread: a browser-playable copy when the upload is not one, the model
    /// over the frames (each inference through the studio's queue), the annotated MP4, the result document
    /// with the interpreter's summary, and the run recorded with the model.
    static func work(job: DetectVideoJobs.Job, open: OpenModel, upload: String, jobs: DetectVideoJobs, studio: Studio,
                     db: any Store) -> @Sendable (@escaping @Sendable (Int) -> Void, @escaping @Sendable () -> Bool) throws -> Double {
        { progress, isCancelled in
            let folder = jobs.folder(job.id)
            if !((try? PlaybackCopy.isBrowserPlayable(upload)) ?? false) {
                try PlaybackCopy.make(from: upload, to: folder.appendingPathComponent("playable.mp4").path, isCancelled: isCancelled)
            }
            let startedAt = Date()
            let clock = ContinuousClock.now
            let done = FrameCounter()
            var run = DetectionRun(sourcePath: upload, modelPath: open.model.reference.path, options: open.settings.prediction,
                                   classFilter: nil, videoStride: job.stride, savePath: jobs.videoPath(job.id),
                                   sessionOptions: .init(), tracker: open.settings.track ? ByteTracker.Configuration() : nil)
            run.inferenceQueue = studio.queue
            run.isCancelled = isCancelled
            var document = try run.run { _, fraction in
                if fraction < 1 { progress(done.increment()) }
            }
            let seconds = (ContinuousClock.now - clock).seconds
            for i in document.results.indices { document.results[i].source = job.fileName }
            let interpretation = open.interpreter.map {
                StudioPrediction.Interpretation(interpreter: $0.name, result: $0.interpretVideo(document.interpreterFrames))
            }
            let data = try JSONResponse.encoder.encode(InterpretedDetections(document: document, interpretation: interpretation))
            try data.write(to: URL(fileURLWithPath: jobs.resultPath(job.id)), options: .atomic)
            if isCancelled() { throw PipelineError.cancelled("video detection", nothing: "kept") }
            // The run is recorded before the job reads as done. This closure runs on the jobs' own dispatch
            // thread, never the cooperative pool, so waiting here for the store holds no task thread.
            let stats = document.runStats(startedAt: startedAt, endedAt: Date(), source: "video",
                                          interpreter: open.interpreter, videoResult: interpretation?.result)
            let recorded = DispatchSemaphore(value: 0)
            Task { try? await open.model.recordUse(stats, in: db); recorded.signal() }
            recorded.wait()
            progress(document.results.count)
            return seconds > 0 ? Double(document.results.count) / seconds : 0
        }
    }
}


/// Frames counted by a progress callback that may be called from any thread.
private final class FrameCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() -> Int { lock.lock(); defer { lock.unlock() }; count += 1; return count }
}
