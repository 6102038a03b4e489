import Foundation
import Hummingbird
import SwingCore
import SwingPipeline

/// The people in one frame, so the player can say which one they are (issue #39, docs/server.md "Who you
/// are"): a thin adapter over ``PeopleFinder``, which finds them with the pose stage's own detection.
///
/// - `GET /api/sessions/{id}/people?t=SECONDS`: in the stored session's video, the frame shown at `t`.
/// - `POST /api/people`: in one picture, the body a JPEG or PNG (`Content-Type: image/jpeg` or `image/png`) of at
///   most 8 MB and 4096 pixels a side — the frame the upload page took from the chosen video.
///
/// Each answers `{"time", "width", "height", "people": [{"box": {x1, y1, x2, y2}, "hips": {x, y}, "size",
/// "score"}]}` with every position a fraction of the picture. At most ``maxAtOnce`` pictures are looked at or
/// waiting at a time (429 beyond), one after the other.
struct PeopleRoutes: Sendable {
    let state: ServerState
    var lookup: PeopleLookup { state.people }

    /// Pictures being looked at or waiting, at most: each holds a decoded frame (6 MB at 1080p) until its turn.
    static let maxAtOnce = 3

    func add(to api: RouterGroup<BasicRequestContext>) {
        api.get("sessions/:id/people") { request, context in
            let id = try APIRoutes.id(context, "id", what: "session")
            guard let video = try await state.library.video(ofSession: id), let document = try await state.library.document(id: id) else {
                throw APIRoutes.noSession(id)
            }
            let start = document.session.start ?? 0, end = start + document.session.duration
            let text = request.uri.queryParameters["t"].map(String.init)
            guard let t = text.flatMap(Double.init), t.isFinite, t >= start - 0.5, t <= end + 0.5 else {
                throw APIError(.badRequest, "Give the moment as t=SECONDS within the session's video (\(Self.seconds(start))–\(Self.seconds(end)) s)\(text.map { ", not \($0.prefix(40))" } ?? "").")
            }
            let path = video.path
            let found = try await look { try await $0.people(inVideo: path, at: max(0, t)) }
            guard let found else {
                throw APIError(.unprocessableContent, "The session's video has no frame at \(Self.seconds(t)) s.")
            }
            return try JSONResponse.make(found)
        }
        api.post("people") { request, _ in
            let type = (request.headers[.contentType] ?? "").lowercased()
            guard type.hasPrefix("image/jpeg") || type.hasPrefix("image/png") else {
                throw APIError(.unsupportedMediaType, "Send one frame of your video as a JPEG or PNG (Content-Type: image/jpeg or image/png), not \(type.isEmpty ? "an untyped body" : type.prefix(60)).")
            }
            let limit = PeopleFinder.maxPictureBytes
            if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
                throw APIError(.contentTooLarge, "The picture is larger than \(limit >> 20) MB; send one frame, at most 1920 pixels long.")
            }
            guard await lookup.gate.enter() else { throw Self.busy }
            let body: ByteBuffer
            do { body = try await request.body.collect(upTo: limit) } catch {
                await lookup.gate.leave()
                throw APIError(.contentTooLarge, "The picture is larger than \(limit >> 20) MB; send one frame, at most 1920 pixels long.")
            }
            let data = Data(buffer: body)
            let found = try await look(entered: true) { try await $0.people(inPicture: data) }
            return try JSONResponse.make(found)
        }
    }

    static let busy = APIError(.tooManyRequests, "Several pictures are being looked at already; try again in a moment.")

    /// Runs `work` on the engine's people finder (after passing the gate unless `entered`); the engine's refusals
    /// become their sentences.
    func look<T: Sendable>(entered: Bool = false, _ work: @Sendable (PeopleService) async throws -> T) async throws -> T {
        if !entered { guard await lookup.gate.enter() else { throw Self.busy } }
        do {
            let result = try await work(lookup.service)
            await lookup.gate.leave()
            return result
        } catch let error as any UserFacingError {
            await lookup.gate.leave()
            throw APIError(error)
        } catch {
            await lookup.gate.leave()
            throw error
        }
    }

    static func seconds(_ t: Double) -> String { String(format: "%.2f", t) }
}

/// What the people routes share: the engine's people finder and the bound on pictures looked at or waiting.
final class PeopleLookup: Sendable {
    let service = PeopleService()
    let gate = UploadGate(limit: PeopleRoutes.maxAtOnce)
}
