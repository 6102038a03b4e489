import Foundation
import Hummingbird
import SwingCore
import SwingPipeline

/// The player's racket sounds (issue #38; docs/server.md "Your racket's sound"): contact models learnt from
/// a corrected session on its results page, offered on the upload page for later videos. A thin adapter
/// over ``MediaLibrary``'s racket-sound operations.
///
/// - `GET /api/racket-sounds`: every one, newest first
/// - `POST /api/sessions/{id}/racket-sound` with an optional `{"name": "…"}`: learn one from the session's
///   contacts as the player left them (201)
/// - `DELETE /api/racket-sounds/{id}`: forget one (204)
struct RacketSoundRoutes: Sendable {
    let state: ServerState
    /// Learning reads a whole session's sound and trains for seconds: one at a time per server.
    let learning = UploadGate(limit: 1)

    struct LearnRequest: Decodable { var name: String? }

    func add(to api: RouterGroup<BasicRequestContext>) {
        api.get("racket-sounds") { _, _ in try JSONResponse.make(["racketSounds": try await state.library.racketSounds()]) }
        api.post("sessions/:id/racket-sound", use: learn)
        api.delete("racket-sounds/:id") { _, context in
            let id = try APIRoutes.id(context, "id", what: "racket sound")
            guard try await state.library.removeRacketSound(id: id) else { throw Self.noSound(id) }
            return Response(status: .noContent)
        }
    }

    @Sendable func learn(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let id = try APIRoutes.id(context, "id", what: "session")
        guard let body = try? await request.body.collect(upTo: 4096) else {
            throw APIError(.contentTooLarge, #"Send nothing, or a small JSON object: {"name": "what to call it"}."#)
        }
        var name: String?
        if body.readableBytes > 0 {
            guard let ask = try? JSONDecoder().decode(LearnRequest.self, from: Data(buffer: body)) else {
                throw APIError(.badRequest, #"Send nothing, or {"name": "what to call it"}."#)
            }
            name = ask.name
        }
        guard await learning.enter() else {
            throw APIError(.tooManyRequests, "Swingmaster is learning a racket sound already; try again in a few seconds.")
        }
        let library = state.library
        let learnt: Result<RacketSound, any Error>
        do {
            learnt = .success(try await Task.detached { [name] in try await library.learnRacketSound(fromSession: id, name: name) }.value)
        } catch {
            learnt = .failure(error)
        }
        await learning.leave()
        do {
            return try JSONResponse.make(["racketSound": try learnt.get()], status: .created)
        } catch let error as any UserFacingError {
            throw APIError(error)
        }
    }

    /// The upload's `racketSound=ID`: a racket sound the store holds, or a 400 with a sentence.
    static func chosen(_ text: String?, in library: MediaLibrary) async throws -> Int64? {
        guard let text else { return nil }
        guard let id = Int64(text), id > 0, try await library.racketSound(id: id) != nil else {
            throw APIError(.badRequest, "There is no racket sound '\(text.prefix(40))' to hear the hits with; choose one the upload page lists, or none.")
        }
        return id
    }

    static func noSound(_ id: Int64) -> APIError { APIError(.notFound, "There is no racket sound \(id).") }
}
