import Foundation
import ServiceLifecycle
import Hummingbird

/// The one Server-Sent Events loop of the web app: every kind of job a page follows (session analyses,
/// studio video jobs, model downloads) is sent as `event: NAME` with the job's JSON, once per change, until
/// the job is final, gone, or the server stops.
///
/// A quiet stream gets a comment line every ``keepAlive`` so proxies do not close it. A stream ended by the
/// server stopping leaves the job where it is; the browser's `EventSource` reconnects (to the next server).
enum EventStream {
    /// The longest a stream stays silent: a `: still working` comment after this long without an event.
    static let keepAlive: Duration = .seconds(5)

    /// A `text/event-stream` response.
    /// - Parameters:
    ///   - event: The event's name (`job`, `download`).
    ///   - read: The job as it is now; `nil` ends the stream (it is gone).
    ///   - isFinal: Whether the job will not change any more (its event is the last).
    ///   - waitForChange: Returns when the job may have changed (a notification, or a short sleep).
    static func response<Value: Encodable & Equatable & Sendable>(
        event: String,
        read: @escaping @Sendable () async throws -> Value?,
        isFinal: @escaping @Sendable (Value) -> Bool,
        waitForChange: @escaping @Sendable () async throws -> Void
    ) -> Response {
        Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                 body: .init { writer in
            var last: Value?
            var quiet = ContinuousClock.now
            while let value = try await read() {
                if value != last {
                    let json = String(decoding: try JSONResponse.encoder.encode(value), as: UTF8.self)
                    try await writer.write(ByteBuffer(string: "event: \(event)\ndata: \(json)\n\n"))
                    last = value
                    quiet = .now
                } else if quiet.duration(to: .now) >= keepAlive {
                    try await writer.write(ByteBuffer(string: ": still working\n\n"))
                    quiet = .now
                }
                if isFinal(value) || Task.isShuttingDownGracefully || Task.isCancelled { break }
                try await waitForChange()
                try Task.checkCancellation()
            }
            try await writer.finish(nil)
        })
    }

    /// A short sleep, for jobs kept in memory (they change many times a second while they run).
    @Sendable static func poll() async throws { try await Task.sleep(for: .milliseconds(100)) }
}
