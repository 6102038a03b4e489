import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import SwingCore
import SwingPipeline

/// `POST /api/detect` (one image) and `GET /api/detect/live` (the camera's WebSocket): docs/studio.md.
struct DetectRoutes: Sendable {
    let state: ServerState
    var studio: StudioService { state.studio }

    /// The largest picture accepted, in a body or one socket message.
    static let maxImageBytes = 16 << 20

    func add(to api: RouterGroup<BasicRequestContext>) {
        api.post("detect") { request, _ in
            let query = Self.query(request)
            let open = try await studio.open(query)
            let body = try await request.body.collect(upTo: Self.maxImageBytes)
            let answer = try await studio.detect(image: Data(buffer: body), open: open)
            if open.tennis != nil { return JSONResponse.bytes(try JSONResponse.encoder.encode(TennisAnswer(answer: answer))) }
            return JSONResponse.bytes(try JSONResponse.encoder.encode(answer))
        }
        DetectVideoRoutes(state: state).add(to: api)
    }

    static func query(_ request: Request) -> [String: String] {
        var out: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { out[String(key)] = String(value) }
        return out
    }

    /// Adds the live socket to the WebSocket router.
    func add(to router: Router<BasicWebSocketRequestContext>) {
        router.ws("api/detect/live", shouldUpgrade: { request, _ in
            // Refuse before upgrading when the model or a setting is wrong: the browser gets the sentence.
            _ = try await studio.open(Self.query(request))
            return .upgrade([:])
        }, onUpgrade: { inbound, outbound, context in
            let open: OpenModel
            do { open = try await studio.open(Self.query(context.request)) } catch {
                try await LiveSocket.send(LiveSocket.ErrorMessage(error: Self.sentence(error)), to: outbound)
                return
            }
            try await LiveSocket(live: LiveDetection(open: open, studio: studio), state: state).run(inbound: inbound, outbound: outbound)
        })
    }

    static func sentence(_ error: any Error) -> String {
        switch error {
        case let e as APIError: e.message
        case let e as any UserFacingError: e.description
        default: "The frame could not be processed."
        }
    }
}

/// One camera's socket: a reader that keeps at most one frame waiting (the newest), and a worker that runs
/// the model on it and answers. Settings change between frames.
struct LiveSocket: Sendable {
    let live: LiveDetection
    let state: ServerState

    /// The waiting frame: the client's message number and its bytes.
    struct Frame: Sendable {
        var id: Int
        var bytes: Data
    }

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        // At most one frame waits; a newer one replaces it (`dropped` counts those).
        let (frames, continuation) = AsyncStream<Frame>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let live = self.live
        try await LiveSocket.send(Ready(model: .init(live.open.predictor.info), settings: live.settings,
                                        skeleton: live.open.tennis == nil ? nil : .blazePose), to: outbound)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await frame in frames {
                    do {
                        try await LiveSocket.send(try await live.process(frame.bytes, id: frame.id), to: outbound)
                    } catch let error as any UserFacingError {
                        try await LiveSocket.send(ErrorMessage(error: "Frame \(frame.id): \(error.description)"), to: outbound)
                    }
                }
            }
            group.addTask {
                defer { continuation.finish() }
                var received = 0
                for try await message in inbound.messages(maxSize: DetectRoutes.maxImageBytes) {
                    switch message {
                    case .binary(let buffer):
                        received += 1
                        if case .dropped = continuation.yield(Frame(id: received, bytes: Data(buffer: buffer))) {
                            live.countDrop()
                        }
                    case .text(let text):
                        do {
                            try await LiveSocket.send(SettingsMessage(settings: try live.change(Data(text.utf8))), to: outbound)
                        } catch {
                            try await LiveSocket.send(ErrorMessage(error: DetectRoutes.sentence(error)), to: outbound)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        await state.studio.record(live)
    }

    static func send(_ message: some Encodable, to outbound: WebSocketOutboundWriter) async throws {
        let data = try JSONResponse.encoder.encode(message)
        try await outbound.write(.text(String(decoding: data, as: UTF8.self)))
    }

    struct Ready: Codable {
        var type = "ready"
        var model: DetectionDocument.Model
        var settings: DetectionSettings
        /// Tennis mode: how to draw the pose.
        var skeleton: PoseSkeleton?
    }

    struct SettingsMessage: Codable {
        var type = "settings"
        var settings: DetectionSettings
    }

    struct ErrorMessage: Codable {
        var type = "error"
        var error: String
    }
}
