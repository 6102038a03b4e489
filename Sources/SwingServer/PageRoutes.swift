import Foundation
import Hummingbird
import Mustache

/// The Mustache templates of `Web/templates`, loaded once at start.
struct Pages: Sendable {
    let library: MustacheLibrary

    init(directory: URL) async throws {
        library = try await MustacheLibrary(directory: directory.path)
    }

    /// `name` rendered with `context` as an HTML response.
    func render(_ name: String, _ context: [String: Any], status: HTTPResponse.Status = .ok) throws -> Response {
        guard let html = library.render(context, withTemplate: name) else {
            throw APIError(.internalServerError, "The page template \(name).mustache is missing from the Web folder.")
        }
        return Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                        body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}

/// The pages: each is a template filled with a few values; the data comes from the API in the browser.
struct PageRoutes: Sendable {
    let state: ServerState
    static let version = "0.1.0"

    func add(to router: Router<BasicRequestContext>) {
        let pages: [(String, String, String)] = [
            ("/", "home", "Sessions"), ("/onboarding", "onboarding", "Welcome"), ("/sessions/new", "new", "New session"),
            ("/compare", "compare", "Compare shots"), ("/progress", "progress", "Progress"),
            ("/models", "models", "Models"), ("/detect", "detect", "Studio"), ("/detections", "detections", "Detection runs"),
        ]
        for (path, template, title) in pages {
            router.get(RouterPath(path)) { _, _ in try render(template, title: title) }
        }
        router.get("sessions/:id") { _, context in
            let id = try APIRoutes.id(context, "id", what: "session")
            return try render("results", title: "Session \(id)", ["sessionId": id])
        }
        router.get("sessions/:id/shots/:n") { _, context in
            let id = try APIRoutes.id(context, "id", what: "session")
            let n = try APIRoutes.id(context, "n", what: "shot")
            return try render("shot", title: "Shot \(n)", ["sessionId": id, "shotNumber": n])
        }
        router.get("login") { _, _ in try render("login", title: "Log in") }
        router.post("login") { request, _ in
            let body = try await request.body.collect(upTo: 4096)
            let form = String(buffer: body)
            let token = form.split(separator: "&").compactMap { pair -> String? in
                let kv = pair.split(separator: "=", maxSplits: 1)
                guard kv.count == 2, kv[0] == "token" else { return nil }
                return String(kv[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }.first ?? ""
            guard let expected = state.configuration.token, TokenMiddleware<BasicRequestContext>.equal(token, expected) else {
                return try render("login", title: "Log in", ["error": "That token is not this server's."], status: .unauthorized)
            }
            var response = Response(status: .seeOther, headers: [.location: "/"])
            response.setCookie(Cookie(name: TokenMiddleware<BasicRequestContext>.cookieName, value: expected, path: "/",
                                      httpOnly: true))
            return response
        }
    }

    private func render(_ template: String, title: String, _ extra: [String: Any] = [:],
                        status: HTTPResponse.Status = .ok) throws -> Response {
        var context: [String: Any] = ["title": title, "page": template, "version": Self.version,
                                      "vendorMissing": state.web.vendor == nil]
        context.merge(extra) { $1 }
        return try state.pages.render(template, context, status: status)
    }
}
