import Foundation
import Hummingbird
import SwingCore
import SwingPipeline

/// The player's corrections of a session (issue #27, docs/server.md "Editing a session"): a thin adapter
/// over ``SessionEditor``, which re-measures in place and stores the next revision.
///
/// - `POST /api/sessions/{id}/edits` with `{"action": "add" | "remove" | "restore", "time": seconds}`
/// - `POST /api/sessions/{id}/edits/undo`
/// - `POST /api/sessions/{id}/listen` with `{"sensitivity": "fewer" | "normal" | "more"}` (and optionally
///   `peakThresholdFactor`, `minRelativeAmplitude`), or `{"racketSound": id}`: the sound heard again
/// - `POST /api/sessions/{id}/player` with `{"x", "y", "time"}`: measure the person the player tapped (every
///   window posed again following them; ``SessionEditor/Change/player(_:)``)
/// - `GET /api/sessions/{id}/envelope?bins=N`: the sound's loudness over the analysed part, for the timeline.
///
/// Each answers with the new session document; a refused edit is 422 with its sentence, an edit that lost
/// a race with another is 409, and nothing is stored either way.
struct EditRoutes: Sendable {
    let state: ServerState

    struct EditRequest: Decodable { var action: ContactEdit.Action; var time: Double }
    struct ListenRequest: Decodable {
        var sensitivity: ContactSensitivity?
        var peakThresholdFactor: Double?
        var minRelativeAmplitude: Double?
        /// Hear it with the player's racket sound instead of the detector.
        var racketSound: Int64?
    }

    func add(to api: RouterGroup<BasicRequestContext>) {
        api.post("sessions/:id/edits") { request, context in
            let id = try APIRoutes.id(context, "id", what: "session")
            guard let body = try? await request.body.collect(upTo: 4096) else {
                throw APIError(.contentTooLarge, #"An edit is a small JSON object: {"action": …, "time": seconds}."#)
            }
            guard let edit = try? JSONDecoder().decode(EditRequest.self, from: Data(buffer: body)) else {
                throw APIError(.badRequest, #"Send {"action": "add", "remove" or "restore", "time": seconds}."#)
            }
            return try await apply([.edit(ContactEdit(action: edit.action, time: edit.time))], to: id)
        }
        api.post("sessions/:id/edits/undo") { _, context in
            try await apply([.undo], to: APIRoutes.id(context, "id", what: "session"))
        }
        api.post("sessions/:id/listen") { request, context in
            let id = try APIRoutes.id(context, "id", what: "session")
            guard let body = try? await request.body.collect(upTo: 4096),
                  let ask = try? JSONDecoder().decode(ListenRequest.self, from: Data(buffer: body)),
                  (ask.sensitivity == nil) != (ask.racketSound == nil) else {
                throw APIError(.badRequest, #"Send {"sensitivity": "fewer", "normal" or "more"}, or {"racketSound": id}."#)
            }
            if let sound = ask.racketSound {
                guard try await state.library.racketSound(id: sound) != nil else { throw RacketSoundRoutes.noSound(sound) }
                return try await apply(to: id) { library in try await library.edit(session: id, hearingWith: sound) }
            }
            guard let sensitivity = ask.sensitivity else { throw APIError(.badRequest, #"Send {"sensitivity": "fewer", "normal" or "more"}."#) }
            let expert = SessionEditor.DetectorThresholds(peakThresholdFactor: ask.peakThresholdFactor,
                                                          minRelativeAmplitude: ask.minRelativeAmplitude)
            return try await apply([.redetect(sensitivity, expert)], to: id)
        }
        api.post("sessions/:id/player") { request, context in
            let id = try APIRoutes.id(context, "id", what: "session")
            guard let body = try? await request.body.collect(upTo: 4096),
                  let ask = try? JSONDecoder().decode(PlayerRequest.self, from: Data(buffer: body)) else {
                throw APIError(.badRequest, #"Send {"x": 0…1, "y": 0…1, "time": seconds}: where you are in the frame you tapped."#)
            }
            return try await apply([.player(PlayerMark(x: ask.x, y: ask.y, time: ask.time))], to: id)
        }
        api.get("sessions/:id/envelope", use: envelope)
    }

    /// `POST /api/sessions/{id}/player`: the point the player tapped (fractions of the picture) and the moment.
    struct PlayerRequest: Decodable { var x: Double; var y: Double; var time: Double? }

    /// Runs the edit off the event loop (adding a contact poses its window) and answers with the document.
    func apply(_ changes: [SessionEditor.Change], to id: Int64) async throws -> Response {
        try await apply(to: id) { library in try await library.edit(session: id, changes) }
    }

    /// Runs `edit` of session `id` off the event loop and answers with the document it returns.
    func apply(to id: Int64, _ edit: @escaping @Sendable (MediaLibrary) async throws -> Data) async throws -> Response {
        let library = state.library
        let bytes: Data
        do {
            bytes = try await Task.detached { try await edit(library) }.value
        } catch let error as any UserFacingError {
            throw APIError(error)
        }
        // The annotated video showed the old shots: it is drawn again when next asked for.
        state.library.forgetDrawings(session: id)
        return JSONResponse.bytes(bytes)
    }

    @Sendable func envelope(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let id = try APIRoutes.id(context, "id", what: "session")
        let bins = Int(request.uri.queryParameters["bins"].map(String.init) ?? "") ?? 600
        guard SoundEnvelope.binRange.contains(bins) else { throw APIError(.badRequest, "bins must be 10 to 4000.") }
        do {
            guard let envelope = try await state.library.envelope(ofSession: id, bins: bins) else { throw APIRoutes.noSession(id) }
            return try JSONResponse.make(envelope)
        } catch let error as SoundEnvelope.Unreadable {
            throw APIError(.unprocessableContent, error.description)
        }
    }
}
