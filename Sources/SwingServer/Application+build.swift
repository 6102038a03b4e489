import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import Mustache
import SwingCore
import SwingPipeline

/// Why `serve` refuses to start (the ``CategorizedError`` shape; exit 64 like other usage errors).
package struct ServerSetupError: CategorizedError {
    /// The category of failure.
    package enum Kind: Sendable, Equatable {
        /// A setting or folder `serve` cannot start with.
        case refused
    }

    /// The category of failure.
    package let kind: Kind
    /// One clear sentence.
    package let message: String

    /// Creates an error of `kind` saying `message`.
    package init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }

    package var statusCode: Int32 { StatusCode.usage }
}

/// What the routes share: the library (the store and the uploads folder), the upload streams, pages and limits.
struct ServerState: Sendable {
    let configuration: ServerConfiguration
    let media: MediaStore
    /// The sessions, jobs and uploads, and the rules for them (shared with `swingmaster worker`).
    let library: MediaLibrary
    let uploads: UploadGate
    let pages: Pages
    let web: WebLocations
    let annotated: AnnotatedVideos
    let metrics: ServerMetrics
    /// The model studio's work.
    let studio: StudioService
    /// The studio's model files: checksums, staged uploads, downloads.
    let modelFiles: ModelFiles
    /// The people in a frame, for the player to say who they are (``PeopleRoutes``).
    let people = PeopleLookup()
}

/// Builds the web app: routes, middleware and the job runner. `swingmaster serve` and the tests both
/// call this (the Hummingbird template's shape).
/// - Parameters:
///   - configuration: Address, limits, token, folders.
///   - analyze: Runs one job's analysis; `nil` runs the real pipeline (tests pass a fast stand-in).
/// - Throws: ``ServerSetupError`` when a non-loopback host has no token or a folder is missing, and the
///   store's errors when the database cannot be opened.
package func buildApplication(
    configuration: ServerConfiguration,
    logger: Logger = Logger(label: "swingmaster"),
    analyze: JobAnalysis? = nil
) async throws -> some ApplicationProtocol {
    try configuration.check()
    let home = configuration.home ?? SwingmasterHome.url()
    let web = try WebLocations(configuration)
    let media = MediaStore(directory: configuration.media ?? MediaLibrary.defaultDirectory(home: home))
    let library = try await MediaLibrary.open(database: configuration.database, home: home, directory: media.directory)
    media.removeAbandonedParts()
    let state = ServerState(configuration: configuration, media: media, library: library,
                            uploads: UploadGate(limit: configuration.maxConcurrentUploads),
                            pages: try await Pages(directory: web.templates), web: web,
                            annotated: AnnotatedVideos(library: library), metrics: ServerMetrics(),
                            studio: StudioService(home: home, library: library),
                            modelFiles: ModelFiles(home: home))
    state.modelFiles.staging.removeAbandonedParts()

    let router = Router(context: BasicRequestContext.self)
    router.add(middleware: ErrorSentenceMiddleware(metrics: state.metrics))
    router.add(middleware: OriginCheckMiddleware())
    if let token = configuration.token { router.add(middleware: TokenMiddleware(token: token)) }
    router.get("healthz") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "ok\n"))) }
    router.get("metrics") { _, _ in try await state.metrics.prometheusText(library: library) }
    APIRoutes(state: state).add(to: router.group("api"))
    EditRoutes(state: state).add(to: router.group("api"))
    RacketSoundRoutes(state: state).add(to: router.group("api"))
    PeopleRoutes(state: state).add(to: router.group("api"))
    ModelRoutes(state: state).add(to: router.group("api"))
    DetectRoutes(state: state).add(to: router.group("api"))
    PageRoutes(state: state).add(to: router)
    StaticFiles(state: state).add(to: router)

    // The camera's socket has a router of its own (upgrades only), behind the same token and origin checks.
    let sockets = Router(context: BasicWebSocketRequestContext.self)
    sockets.add(middleware: ErrorSentenceMiddleware(metrics: state.metrics))
    sockets.add(middleware: OriginCheckMiddleware())
    if let token = configuration.token { sockets.add(middleware: TokenMiddleware(token: token)) }
    DetectRoutes(state: state).add(to: sockets)
    var server = HTTPServerBuilder.http1WebSocketUpgrade(
        webSocketRouter: sockets,
        configuration: .init(ws: .init(maxFrameSize: DetectRoutes.maxImageBytes)))
    if let tls = try configuration.tlsConfiguration() { server = try .tls(server, tlsConfiguration: tls) }

    // With no workers here, `swingmaster worker` processes sharing the store run the jobs.
    let runner = JobRunner(library: state.library, workers: configuration.workers, leaseSeconds: configuration.leaseSeconds,
                           logger: logger, metrics: state.metrics, analyze: analyze)
    return Application(
        router: router,
        server: server,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "swingmaster"),
        services: configuration.workers > 0 ? [runner] : [],
        logger: logger
    )
}

extension ServerConfiguration {
    /// Refuses settings that would expose the store or cannot work.
    func check() throws {
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) || host.hasPrefix("127.")
        if !loopback && token == nil {
            throw ServerSetupError(.refused, "Serving on \(host) makes your sessions reachable from other machines; set a token with --token or SWINGMASTER_TOKEN (or serve on 127.0.0.1).")
        }
        if let token, token.count < 12 || !token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._~".contains($0)) }) {
            throw ServerSetupError(.refused, "The token must be at least 12 characters of letters, digits, '-', '.', '_' or '~'.")
        }
        guard (1...65535).contains(port) || port == 0 else { throw ServerSetupError(.refused, "--port must be 0…65535 (got \(port)).") }
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ServerSetupError(.refused, "HTTPS needs both --tls-cert and --tls-key.")
        }
        guard workers >= 0, maxConcurrentUploads >= 1, maxUploadBytes >= 1 else {
            throw ServerSetupError(.refused, "--workers must be 0 or more, --max-upload-mb and --max-concurrent-uploads at least 1.")
        }
    }
}

extension ServerConfiguration {
    /// The TLS settings of ``tlsCertificate`` and ``tlsKey`` (PEM files), or `nil` to serve plain HTTP.
    /// - Throws: ``ServerSetupError`` naming the file that cannot be read as a PEM certificate or key.
    func tlsConfiguration() throws -> TLSConfiguration? {
        guard let certificatePath = tlsCertificate, let keyPath = tlsKey else { return nil }
        let chain: [NIOSSLCertificate]
        do { chain = try NIOSSLCertificate.fromPEMFile(certificatePath) } catch {
            throw ServerSetupError(.refused, "\(certificatePath) is not a readable PEM certificate.")
        }
        guard !chain.isEmpty else { throw ServerSetupError(.refused, "\(certificatePath) holds no certificate.") }
        let key: NIOSSLPrivateKey
        do { key = try NIOSSLPrivateKey(file: keyPath, format: .pem) } catch {
            throw ServerSetupError(.refused, "\(keyPath) is not a readable PEM private key.")
        }
        return TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
    }
}

/// Turns errors that escape a handler into `{"error", "code"}` JSON for the API (pages get plain text).
struct ErrorSentenceMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            metrics.request(status: response.status.code, seconds: started.duration(to: .now).seconds)
            return response
        } catch let error as APIError {
            metrics.request(status: error.status.code, seconds: started.duration(to: .now).seconds)
            throw error
        } catch let error as any UserFacingError {
            throw APIError(error)
        } catch let error as HTTPError where request.uri.path.hasPrefix("/api/") {
            throw APIError(error.status, error.body ?? error.status.reasonPhrase)
        }
    }
}

/// Refuses state-changing requests and WebSocket upgrades from other sites: those with an `Origin` must
/// come from the host they are sent to.
struct OriginCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // A WebSocket upgrade is a GET, but a page on another site could open one with the user's cookie.
        let upgrade = request.headers[.upgrade]?.lowercased() == "websocket"
        if [.post, .put, .delete, .patch].contains(request.method) || upgrade, let origin = request.headers[.origin] {
            let host = request.head.authority ?? ""
            guard let url = URL(string: origin), let originHost = url.host else {
                throw APIError(.forbidden, "The request's Origin \(origin) is not this server.")
            }
            // Browsers send the page's http(s) origin; the check protects their cookies. A WebSocket client
            // library names its own ws:// URL, carries no browser's cookies, and could send anything.
            if upgrade, ["ws", "wss"].contains(url.scheme?.lowercased()) { return try await next(request, context) }
            let originAuthority = url.port.map { "\(originHost):\($0)" } ?? originHost
            guard originAuthority == host else {
                throw APIError(.forbidden, "The request's Origin \(origin) is not this server (\(host)).")
            }
        }
        return try await next(request, context)
    }
}

/// With `--token`, every page and API call needs it: `Authorization: Bearer TOKEN` or the cookie the
/// login page sets. `/healthz`, `/login` and static assets are open.
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String
    static var cookieName: String { "swingmaster_token" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if path == "/healthz" || path == "/login" || path.hasPrefix("/static/") || path.hasPrefix("/vendor/") {
            return try await next(request, context)
        }
        let bearer = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        let presented = bearer ?? request.cookies[Self.cookieName]?.value
        if let presented, Self.equal(presented, token) { return try await next(request, context) }
        if path.hasPrefix("/api/") || path == "/metrics" {
            throw APIError(.unauthorized, "This server needs its token: send Authorization: Bearer TOKEN, or log in at /login.")
        }
        return Response(status: .seeOther, headers: [.location: "/login"])
    }

    /// Compares in time independent of where the strings differ.
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
