import Foundation
import Hummingbird
import ServiceLifecycle
import SwingCore
import SwingPipeline

/// `/api/…`: uploads, jobs (with Server-Sent Events), sessions, preferences. Ids are the only thing a
/// request contributes to a file path, and they are numbers.
struct APIRoutes: Sendable {
    let state: ServerState
    var library: MediaLibrary { state.library }

    func add(to api: RouterGroup<BasicRequestContext>) {
        api.post("uploads", use: upload)
        api.get("jobs") { _, _ in try JSONResponse.make(["jobs": try await library.recentJobs()]) }
        api.get("jobs/:id") { _, context in try JSONResponse.make(try await job(context)) }
        api.get("jobs/:id/events", use: events)
        api.delete("jobs/:id") { _, context in
            let id = try Self.id(context, "id", what: "job")
            guard let job = try await library.cancelJob(id: id) else { throw APIError(.notFound, "There is no job \(id).") }
            return try JSONResponse.make(job)
        }
        api.get("landmarks") { _, _ in try JSONResponse.make(Landmarks()) }
        api.get("vocabulary") { _, _ in try JSONResponse.make(Vocabulary()) }
        api.get("sessions") { _, _ in try JSONResponse.make(["sessions": try await library.sessionSummaries()]) }
        api.get("sessions/:id") { _, context in
            let id = try Self.id(context, "id", what: "session")
            guard let bytes = try await library.documentJSON(id: id) else { throw Self.noSession(id) }
            return JSONResponse.bytes(bytes)
        }
        api.get("sessions/:id/shots/:n") { _, context in
            let id = try Self.id(context, "id", what: "session")
            let n = try Self.id(context, "n", what: "shot")
            guard let bytes = try await library.shotJSON(id: id, number: Int(n)) else {
                throw APIError(.notFound, "Session \(id) has no shot \(n).")
            }
            return JSONResponse.bytes(bytes)
        }
        api.get("sessions/:id/video") { request, context in
            let video = try await session(context)
            return try await FileResponses.send(try await library.playable(video), request: request, context: context)
        }
        api.get("sessions/:id/thumbnail.jpg") { request, context in
            let video = try await session(context)
            let path: String
            do { path = try await library.thumbnail(of: video) } catch let error as any UserFacingError where error.statusCode == StatusCode.databaseError {
                throw error
            } catch {
                throw APIError(.notFound, "Session \(video.session) has no picture to show.")
            }
            return try await FileResponses.send(path, request: request, context: context,
                                                headers: [.cacheControl: "private, max-age=86400"], contentType: "image/jpeg")
        }
        api.get("sessions/:id/original") { request, context in
            let video = try await session(context)
            return try await FileResponses.send(video.path, request: request, context: context,
                                                headers: [.contentDisposition: Self.attachment(video.fileName)])
        }
        // The videos drawn from the session: drawn on first request (202 with progress), then the MP4.
        for kind in DerivedVideo.allCases {
            api.get("sessions/:id/\(kind.fileName)") { request, context in
                let video = try await session(context)
                let id = video.session
                switch await state.annotated.request(session: id, kind, source: video.path) {
                case .ready(let path):
                    return try await FileResponses.send(path, request: request, context: context,
                                                        headers: [.contentDisposition: Self.attachment("session-\(id)-\(kind.fileName)")],
                                                        contentType: "video/mp4")
                case .drawing(let progress):
                    // Still being drawn: 202 with how far it got; ask again (the page polls, then downloads).
                    return JSONResponse.bytes(try JSONResponse.encoder.encode(Drawing(progress: progress)), status: .accepted,
                                              headers: [.retryAfter: "1", .cacheControl: "no-store"])
                case .failed(let error):
                    throw error
                }
            }
        }
        api.get("sessions/:id/export.json") { _, context in
            let id = try Self.id(context, "id", what: "session")
            guard let bytes = try await library.documentJSON(id: id) else { throw Self.noSession(id) }
            return JSONResponse.bytes(bytes, headers: [.contentDisposition: Self.attachment("session-\(id).json")])
        }
        api.get("sessions/:id/export.csv") { _, context in
            let id = try Self.id(context, "id", what: "session")
            guard let csv = try await library.csv(id: id) else { throw Self.noSession(id) }
            return Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8",
                                                   .contentDisposition: Self.attachment("session-\(id).csv")],
                            body: .init(byteBuffer: ByteBuffer(string: csv)))
        }
        // The pose for OpenSim: markers (.trc) and the body measures over time (.mot), of the session or,
        // with ?shot=N, of one shot's swing.
        for format in OpenSimFormat.allCases {
            api.get("sessions/:id/export.\(format.rawValue)") { request, context in
                let id = try Self.id(context, "id", what: "session")
                let text = request.uri.queryParameters["shot"].map(String.init)
                let shot = try text.map { text in
                    guard let n = Int(text), n >= 1 else { throw APIError(.badRequest, "Give the shot by its number, from 1, not \(text.prefix(40)).") }
                    return n
                }
                let name = "session-\(id)" + (shot.map { "-shot-\($0)" } ?? "") + ".\(format.rawValue)"
                guard let text = try await library.openSim(format, id: id, shot: shot, name: name) else { throw Self.noSession(id) }
                return Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8",
                                                       .contentDisposition: Self.attachment(name)],
                                body: .init(byteBuffer: ByteBuffer(string: text)))
            }
        }
        api.delete("sessions/:id") { _, context in
            let video = try await session(context)
            // An upload goes with its last session (a second session of the same upload keeps it); a video
            // the CLI analysed is the user's own file and stays where it is.
            try await library.deleteSession(video)
            await state.annotated.remove(session: video.session)
            return Response(status: .noContent)
        }
        api.get("preferences") { _, _ in try JSONResponse.make(Preferences(hand: try await library.dominantHand()?.rawValue)) }
        api.put("preferences") { request, context in
            let body = try await request.body.collect(upTo: 4096)
            guard let prefs = try? JSONDecoder().decode(Preferences.self, from: Data(buffer: body)),
                  let hand = prefs.hand.flatMap(Hand.init(rawValue:)) else {
                throw APIError(.badRequest, #"Send {"hand": "right"} or {"hand": "left"}."#)
            }
            try await library.setDominantHand(hand)
            return try JSONResponse.make(Preferences(hand: hand.rawValue))
        }
    }

    struct Preferences: Codable { var hand: String? }

    /// The 202 body of an annotated video still being drawn.
    struct Drawing: Codable { var state = "drawing"; var progress: Double }

    /// `GET /api/landmarks`: the body-landmark vocabulary the pages draw with (``BodyLandmark``,
    /// ``SkeletonJoints``), so no page spells a landmark's index itself.
    struct Landmarks: Codable {
        /// BlazePose's 33 landmark names, in array order, and its skeleton edges as index pairs.
        var landmarks = BodyLandmark.allCases.map(\.name)
        var edges = BodyLandmark.edges.map { [$0.index, $1.index] }
        /// The shot view's 17 joints (its `joints`, `bones`) and the hitting wrist's position among them per hand.
        var joints = SkeletonJoints.names
        var bones = SkeletonJoints.bones
        var wrist = Dictionary(uniqueKeysWithValues: Hand.allCases.map { ($0.rawValue, SkeletonJoints.wristPosition(of: $0)) })
    }

    // MARK: Uploads

    /// `POST /api/uploads?hand=&start=&duration=&swingCheck=&sensitivity=&player=&racketSound=`: the raw file as the body (`X-Filename` names it), or
    /// a `multipart/form-data` form whose field `file` holds it; either way streamed to disk.
    @Sendable func upload(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let config = state.configuration
        let type = request.headers[.contentType] ?? ""
        // Either the file itself as the body, or a form (`multipart/form-data`) with a field `file`.
        let boundary = MultipartFile<RequestBody>.boundary(of: type)
        if boundary == nil, type.lowercased().hasPrefix("multipart/") {
            throw APIError(.badRequest, "Send a form as multipart/form-data with a boundary, or the video itself as the body.")
        }
        guard boundary != nil || type.hasPrefix("video/") || type.hasPrefix("audio/") || type.hasPrefix("application/octet-stream") else {
            throw APIError(.unsupportedMediaType, "Upload a video (Content-Type: video/…, or a form with a field file), not \(type.isEmpty ? "an untyped body" : type).")
        }
        let query = request.uri.queryParameters
        let hand = query["hand"].map(String.init)
        guard hand == nil || hand == "right" || hand == "left" else { throw APIError(.badRequest, "The hand must be right or left.") }
        let start = try Self.seconds(query["start"].map(String.init), "start")
        let duration = try Self.seconds(query["duration"].map(String.init), "duration")
        if let duration, duration <= 0 { throw APIError(.badRequest, "The duration must be more than 0 seconds.") }
        let swingCheck = query["swingCheck"].map(String.init)
        guard swingCheck == nil || swingCheck == "on" || swingCheck == "off" else {
            throw APIError(.badRequest, "swingCheck must be on or off.")
        }
        let sensitivity = query["sensitivity"].map(String.init)
        guard sensitivity == nil || sensitivity.flatMap(ContactSensitivity.init(rawValue:)) != nil else {
            throw APIError(.badRequest, "sensitivity must be fewer, normal or more.")
        }
        let player = try Self.playerMark(query["player"].map(String.init))
        let racketSound = try await RacketSoundRoutes.chosen(query["racketSound"].map(String.init), in: library)
        if let length = request.headers[.contentLength].flatMap({ Int64($0) }), length > config.maxUploadBytes {
            throw APIError(.contentTooLarge, Self.tooLarge(config.maxUploadBytes))
        }
        let headerName = request.headers.first(where: { $0.name.canonicalName == "x-filename" })?.value
        let formName = FileNameBox()
        let name: @Sendable () -> String = { Self.fileName(formName.value ?? headerName) }
        let started = ContinuousClock.now
        let stored: MediaStore.Stored
        do {
            stored = try await state.streamUpload {
                if let boundary {
                    try await state.media.receive(MultipartFile(base: request.body, boundary: boundary, names: formName),
                                                  fileName: name, maxBytes: config.maxUploadBytes, idleTimeout: config.uploadIdleTimeout)
                } else {
                    try await state.media.receive(request.body, fileName: name, maxBytes: config.maxUploadBytes,
                                                  idleTimeout: config.uploadIdleTimeout)
                }
            }
        } catch let form as MultipartFile<RequestBody>.FormError {
            throw APIError(.badRequest, form.description)
        }
        state.metrics.upload(bytes: stored.bytes, seconds: started.duration(to: .now).seconds)
        let fileName = name()
        // The engine's checks, with its sentences and codes; a refused file is not kept.
        let analysis = AnalysisRequest(hand: hand.flatMap(Hand.init(rawValue:)), start: start, duration: duration,
                                       swingCheck: swingCheck != "off",
                                       sensitivity: sensitivity.flatMap(ContactSensitivity.init(rawValue:)) ?? .normal, player: player,
                                       racketSound: racketSound)
        let warnings: [String]
        do { warnings = try await library.admit(stored.path, fileName: fileName, range: analysis.range) } catch let error as any UserFacingError {
            throw APIError(error)
        }
        let job = try await library.enqueue(upload: stored.path, sha256: stored.sha256, fileName: fileName, request: analysis,
                                            warnings: warnings)
        return try JSONResponse.make(["job": job], status: .accepted)
    }

    /// The client's file name, reduced to a safe display name (it never names a file on disk).
    static func fileName(_ header: String?) -> String {
        let decoded = header.flatMap { $0.removingPercentEncoding } ?? header ?? ""
        let last = decoded.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let clean = String(last.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }.prefix(200))
            .trimmingCharacters(in: .whitespaces)
        return clean.isEmpty || clean.hasPrefix(".") ? "upload.mp4" : clean
    }

    /// `player=X,Y` or `player=X,Y@SECONDS` (``PlayerMark``), or nothing; a 400 with the engine's sentence otherwise.
    static func playerMark(_ text: String?) throws -> PlayerMark? {
        guard let text else { return nil }
        guard let mark = PlayerMark(text: text) else {
            throw APIError(.badRequest, "The player must be X,Y or X,Y@SECONDS: where you are in the picture as fractions across and down, and the moment you tapped (got \(text.prefix(40))).")
        }
        if let problem = mark.problem { throw APIError(.badRequest, problem) }
        return mark
    }

    static func seconds(_ text: String?, _ name: String) throws -> Double? {
        guard let text else { return nil }
        guard let v = Double(text), v.isFinite, v >= 0, v <= 1_000_000 else {
            throw APIError(.badRequest, "The \(name) must be a number of seconds from 0 to 1000000 (got \(text.prefix(40))).")
        }
        return v
    }

    static func tooLarge(_ max: Int64) -> String {
        "The file is larger than this server accepts (\(max >> 20) MB); trim it or raise --max-upload-mb."
    }

    // MARK: Jobs

    /// `GET /api/jobs/{id}/events`: one `JOB` per change, read from the job row, until a final state.
    @Sendable func events(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let id = try Self.id(context, "id", what: "job")
        guard try await library.job(id: id) != nil else { throw APIError(.notFound, "There is no job \(id).") }
        let library = self.library
        // The store says when the row changes (PostgreSQL's NOTIFY from whichever process wrote it); the
        // timeout is the fallback when a signal is missed.
        return EventStream.response(event: "job", read: { try await library.job(id: id) },
                                    isFinal: { $0.state.isFinal },
                                    waitForChange: { await library.waitForJobChange(id: id, timeout: .milliseconds(500)) })
    }

    private func job(_ context: BasicRequestContext) async throws -> JobView {
        let id = try Self.id(context, "id", what: "job")
        guard let job = try await library.job(id: id) else { throw APIError(.notFound, "There is no job \(id).") }
        return job
    }

    /// The session the route's `:id` names (404 when there is none).
    private func session(_ context: BasicRequestContext) async throws -> SessionVideo {
        let id = try Self.id(context, "id", what: "session")
        guard let video = try await library.video(ofSession: id) else { throw Self.noSession(id) }
        return video
    }

    static func noSession(_ id: Int64) -> APIError { APIError(.notFound, "There is no session \(id).") }

    /// A positive id from the path (anything else is a 404: ids are the only path input).
    static func id(_ context: BasicRequestContext, _ name: String, what: String) throws -> Int64 {
        let text = context.parameters.get(name) ?? ""
        guard let id = Int64(text), id > 0 else { throw APIError(.notFound, "There is no \(what) '\(text.prefix(40))'.") }
        return id
    }

    static func attachment(_ name: String) -> String {
        let safe = name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" ? String($0) : "_" }.joined()
        return "attachment; filename=\"\(safe)\""
    }
}

