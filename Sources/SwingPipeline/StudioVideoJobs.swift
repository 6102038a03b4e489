import Dispatch
import Foundation
import SwingCore
import SwingInference
import SwingMedia
import SwingStore
import SwingVision

/// A model opened for the studio: loaded, with the settings and interpreter a request asked for.
package struct OpenModel: Sendable {
    package var model: ResolvedModel
    package var predictor: YOLOPredictor
    package var settings: DetectionSettings
    package var interpreter: AnyDetectionInterpreter?
    /// Tennis mode (`mode=tennis`): BlazePose runs beside the model, with a pose tracker of this opening's own.
    package var tennis: TennisMode?

    /// Bundles what the studio opened.
    package init(model: ResolvedModel, predictor: YOLOPredictor, settings: DetectionSettings,
                interpreter: AnyDetectionInterpreter?, tennis: TennisMode? = nil) {
        self.model = model; self.predictor = predictor; self.settings = settings
        self.interpreter = interpreter; self.tennis = tennis
    }
}

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
package final class StudioVideoJobs: @unchecked Sendable {
    /// What the page sees of one job.
    package struct Job: Codable, Equatable, Sendable {
        package typealias State = JobState
        package var id: Int
        /// The uploaded file's name (display only; it never names a file on disk).
        package var fileName: String
        package var model: String
        package var stride: Int
        package var settings: DetectionSettings
        package var state: State
        /// 0…1.
        package var progress: Double = 0
        /// Frames run through the model so far, and how many the video will give at this stride.
        package var framesDone = 0
        package var framesTotal: Int
        /// The video's picture (after rotation), frame rate and length.
        package var width: Int
        package var height: Int
        package var fps: Double
        package var duration: Double
        package var createdAt: Date
        /// Processed frames per second of clock time over the run (when done).
        package var meanFps: Double?
        /// One sentence (when failed or cancelled).
        package var error: String?
        /// Where the finished job's files are (when done).
        package var result: String?
        package var video: String?
        package var source: String?
    }

    /// Jobs waiting or running at once; the next upload is refused (429).
    package static let maxPending = 3
    /// Finished jobs (and their files) kept; the oldest beyond this are deleted.
    package static let keptFinished = 4
    /// The largest stride accepted (every 300th frame is one picture per 10 s at 30 fps).
    package static let maxStride = 300
    /// The most frames one job runs through the model (10 minutes at 30 fps, stride 1); a longer video
    /// needs a larger stride, so a job's memory (its detections) stays bounded.
    package static let maxProcessedFrames = 18_000

    package let directory: URL
    private let lock = NSLock()
    private var jobs: [Int: Job] = [:]
    /// The stop request of each job not finished (its work runs under it: ``Cancellation/current``).
    private var cancellations: [Int: Cancellation] = [:]
    private var next = 1
    /// One job at a time, off Swift's cooperative threads (which serve HTTP).
    private let worker = DispatchQueue(label: "swingmaster.studio-video", qos: .utility)

    /// Jobs under `directory`, which is emptied: jobs from an earlier run are gone with it.
    package init(directory: URL) {
        self.directory = directory
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    package func folder(_ id: Int) -> URL { directory.appendingPathComponent(String(id), isDirectory: true) }
    package func sourcePath(_ id: Int) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder(id).path)) ?? []
        // The playable copy when one was made, else the upload (stored as `upload.<ext>`).
        let name = names.first { $0 == "playable.mp4" } ?? names.first { $0.hasPrefix("upload.") }
        return name.map { folder(id).appendingPathComponent($0).path }
    }
    package func resultPath(_ id: Int) -> String { folder(id).appendingPathComponent("result.json").path }
    package func videoPath(_ id: Int) -> String { folder(id).appendingPathComponent("annotated.mp4").path }

    package func job(_ id: Int) -> Job? { lock.lock(); defer { lock.unlock() }; return jobs[id] }

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
    package func release(_ id: Int) {
        lock.lock(); reserved -= 1; lock.unlock()
        try? FileManager.default.removeItem(at: folder(id))
    }

    /// Queues `job` (reserved with ``reserve()``) to run `work` on the worker thread.
    /// - Parameter work: Runs the video under the job's ``Cancellation`` (asking `Cancellation.isRequested`
    ///   whether to stop), reports frames done through its argument, and returns the processed frames per second.
    func start(_ job: Job, work: @escaping @Sendable (_ progress: @escaping @Sendable (Int) -> Void) throws -> Double) {
        lock.lock()
        reserved -= 1
        jobs[job.id] = job
        let cancellation = Cancellation()
        cancellations[job.id] = cancellation
        lock.unlock()
        let id = job.id
        worker.async { [self] in Cancellation.$current.withValue(cancellation) {
            let began = update(id) { if $0.state == .queued { $0.state = .running } }
            guard began, !isCancelled(id) else {
                finish(id, .cancelled, error: cancelledSentence("video detection", nothing: "kept"))
                return
            }
            do {
                let fps = try work({ frames in self.update(id) { j in
                    j.framesDone = frames
                    j.progress = min(0.99, j.framesTotal > 0 ? Double(frames) / Double(j.framesTotal) : 0)
                } })
                finish(id, .done, meanFps: fps)
            } catch {
                if isCancelled(id) {
                    finish(id, .cancelled, error: cancelledSentence("video detection", nothing: "kept"))
                } else {
                    finish(id, .failed, error: (error as? any UserFacingError)?.description ?? "The video could not be processed.")
                }
            }
        } }
    }

    /// Stops a waiting or running job (its files go when the worker lets go of them) and answers it, or
    /// removes a finished one with its files and answers `nil`.
    /// - Returns: `.none` when there is no such job.
    package func cancelOrRemove(_ id: Int) -> (found: Bool, job: Job?) {
        lock.lock()
        guard let job = jobs[id] else { lock.unlock(); return (false, nil) }
        if job.state.isFinal {
            jobs[id] = nil
            lock.unlock()
            try? FileManager.default.removeItem(at: folder(id))
            return (true, nil)
        }
        cancellations[id]?.cancel()
        var stopped = job
        stopped.state = .cancelled
        stopped.error = cancelledSentence("video detection", nothing: "kept")
        jobs[id] = stopped
        lock.unlock()
        return (true, stopped)
    }

    private func isCancelled(_ id: Int) -> Bool { lock.lock(); defer { lock.unlock() }; return cancellations[id]?.isCancelled ?? false }

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
        let keepsFiles = state == .done && !(cancellations[id]?.isCancelled ?? false) && jobs[id]?.state != .cancelled
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
            if (cancellations[id]?.isCancelled ?? false) || job.state == .cancelled {
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
            cancellations[id] = nil
            lateCancel = keepsFiles && job.state != .done
        }
        lock.unlock()
        // Cancelled between the two locks: its files go now.
        if lateCancel { try? FileManager.default.removeItem(at: folder(id)) }
    }

    /// The job `id`.
    /// - Throws: ``RequestError`` (`notFound`) when there is none.
    package func named(_ id: Int) throws -> Job {
        guard let job = job(id) else { throw RequestError(.notFound, "There is no video job \(id).") }
        return job
    }

    /// The job `id` when it is done, for its files.
    /// - Throws: ``RequestError``: `notFound`, `conflict` while it waits or runs, `gone` when it failed or
    ///   was cancelled.
    package func finished(_ id: Int) throws -> Job {
        let job = try named(id)
        switch job.state {
        case .done: return job
        case .queued, .running:
            throw RequestError(.conflict, "Video job \(job.id) is still running (\(Int(job.progress * 100)) %); follow its events and ask again when it is done.")
        case .failed, .cancelled:
            throw RequestError(.gone, "Video job \(job.id) \(job.state == .failed ? "failed" : "was cancelled"), so it has no results.")
        }
    }

    /// Reserves a job number and its folder for an upload.
    /// - Throws: ``RequestError`` (`busy`) when ``maxPending`` jobs wait or run.
    package func reserveOrRefuse() throws -> Int {
        guard let id = reserve() else {
            throw RequestError(.busy, "\(Self.maxPending) videos are already waiting or running in the studio; try again when one has finished.")
        }
        return id
    }

    /// `stride` as a request gives it: a whole number 1…``maxStride`` (1 when absent).
    /// - Throws: ``RequestError`` (`invalid`).
    package static func stride(_ text: String?) throws -> Int {
        guard let text else { return 1 }
        guard let v = Int(text), (1...maxStride).contains(v) else {
            throw RequestError(.invalid, "The stride must be a whole number of frames from 1 to \(maxStride), not \(text.prefix(40)).")
        }
        return v
    }

    /// What a job needs to know of its video before it runs.
    package struct Video: Sendable, Equatable {
        /// The picture after rotation.
        package var width: Int
        package var height: Int
        package var fps: Double
        package var duration: Double
        /// Frames the model will run on at the job's stride.
        package var framesTotal: Int
    }

    /// Probes an upload: a video with a picture, not too many frames to run at this stride.
    /// - Throws: ``RequestError`` (`unprocessable`) with one sentence naming the file.
    package static func checkVideo(_ path: String, name: String, stride: Int) throws -> Video {
        let info: MediaInfo
        do { info = try MediaProbe.probe(path) } catch {
            throw RequestError(.unprocessable, "\(name) is not a video this server can read.", code: StatusCode.unreadableMedia)
        }
        guard let v = info.video else {
            throw RequestError(.unprocessable, "\(name) has no video stream; the studio runs the model over a video's pictures.",
                               code: StatusCode.noVideoTrack)
        }
        // FFmpeg reads a picture as a one-frame "video"; the Image input is the place for it.
        if info.formatName.contains("image2") || info.formatName.hasSuffix("_pipe") || (v.frameCount ?? 2) < 2 && info.duration <= 0 {
            throw RequestError(.unprocessable, "\(name) is a picture, not a video; choose Image to run the model on a picture.",
                               code: StatusCode.noVideoTrack)
        }
        let fps = v.frameRate > 0 ? v.frameRate : 30
        let frames = v.frameCount ?? Int((info.duration * fps).rounded(.up))
        let total = max(1, (frames + stride - 1) / stride)
        guard total <= maxProcessedFrames else {
            let least = (frames + maxProcessedFrames - 1) / maxProcessedFrames
            throw RequestError(.unprocessable, "\(name) has \(frames) frames, \(total) to run at stride \(stride); the studio runs at most \(maxProcessedFrames), so choose a stride of at least \(least).")
        }
        let size = v.displaySize
        return Video(width: size.width, height: size.height, fps: fps, duration: info.duration, framesTotal: total)
    }

    /// Queues the reserved job `id` for the upload at `upload` (in the job's folder) and answers it.
    /// - Parameters:
    ///   - fileName: The upload's name as the user gave it (display only).
    ///   - video: What ``checkVideo(_:name:stride:)`` found.
    ///   - open: The model and settings to run.
    ///   - queue: The studio's inference queue every frame waits its turn in.
    ///   - db: Where the model's run is recorded when the job is done.
    package func submit(id: Int, fileName: String, upload: String, stride: Int, video: Video, open: OpenModel,
                       queue: InferenceQueue, db: any Store) -> Job {
        let job = Job(id: id, fileName: fileName, model: open.model.displayName, stride: stride, settings: open.settings,
                      state: .queued, framesTotal: video.framesTotal, width: video.width, height: video.height, fps: video.fps,
                      duration: video.duration, createdAt: Date())
        start(job, work: Self.work(job: job, open: open, upload: upload, jobs: self, queue: queue, db: db))
        return job
    }

    /// The job's work on the worker thread: a browser-playable copy when the upload is not one, the model
    /// over the frames (each inference through the studio's queue), the annotated MP4, the result document
    /// with the interpreter's summary, and the run recorded with the model.
    static func work(job: Job, open: OpenModel, upload: String, jobs: StudioVideoJobs, queue: InferenceQueue,
                     db: any Store) -> @Sendable (@escaping @Sendable (Int) -> Void) throws -> Double {
        { progress in
            let folder = jobs.folder(job.id)
            if !((try? PlaybackCopy.isBrowserPlayable(upload)) ?? false) {
                try PlaybackCopy.make(from: upload, to: folder.appendingPathComponent("playable.mp4").path, isCancelled: { Cancellation.isRequested })
            }
            let startedAt = Date()
            let clock = ContinuousClock.now
            let done = FrameCounter()
            var run = DetectionRun(sourcePath: upload, modelPath: open.model.reference.path, options: open.settings.prediction,
                                   classFilter: nil, videoStride: job.stride, savePath: jobs.videoPath(job.id),
                                   sessionOptions: .init(), tracker: open.settings.track ? ByteTracker.Configuration() : nil)
            run.inferenceQueue = queue
            var document = try run.run { _, fraction in
                if fraction < 1 { progress(done.increment()) }
            }
            let seconds = (ContinuousClock.now - clock).seconds
            for i in document.results.indices { document.results[i].source = job.fileName }
            let interpretation = open.interpreter.map {
                StudioPrediction.Interpretation(interpreter: $0.name, result: $0.interpretVideo(document.interpreterFrames))
            }
            let data = try InterpretedDetections.encode(InterpretedDetections(document: document, interpretation: interpretation),
                                                        pretty: false)
            try data.write(to: URL(fileURLWithPath: jobs.resultPath(job.id)), options: .atomic)
            if Cancellation.isRequested { throw PipelineError.cancelled("video detection", nothing: "kept") }
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
