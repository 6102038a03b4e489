import Foundation
import SwingTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SwingCore
import SwingPipeline
@testable import SwingServer
import SwingBiomech
import SwingStore
import Testing

/// One server per test on a fresh `SWINGMASTER_HOME`, driven through HummingbirdTesting's router client.
struct TestServer {
    let home: URL
    var configuration = ServerConfiguration()
    /// `.router` (no socket) by default; `.live` for WebSocket tests.
    var mode: TestingSetup = .router

    static let packageRoot = TestFiles.packageRoot
    static let demoVideo = packageRoot.appendingPathComponent("Samples/demo_session.mp4")

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("swing-server-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        configuration.home = home
        configuration.webRoot = Self.packageRoot.appendingPathComponent("Web")
        configuration.port = 0
    }

    /// Runs `body` against an application with the real analysis, or `analyze` when given.
    /// - Parameter keepHome: Leave the home for a later run (a restart); the last run removes it.
    func run(analyze: JobAnalysis? = nil,
             keepHome: Bool = false,
             _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        defer { if !keepHome { try? FileManager.default.removeItem(at: home) } }
        let app = try await buildApplication(configuration: configuration, analyze: analyze)
        try await app.test(mode) { client in try await body(client) }
    }


    /// Files left under `media/` (uploads in progress end in `.part`).
    var mediaFiles: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("media").path)) ?? []
    }

    func database() throws -> AppDatabase { try AppDatabase.open(home: home) }
}

extension TestClientProtocol {
    /// POSTs `data` as a raw upload.
    func upload(_ data: Data, name: String = "session.mp4", type: String = "video/mp4", query: String = "") async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.contentType] = type
        if let field = HTTPField.Name("X-Filename") { headers.append(.init(name: field, value: name)) }
        return try await execute(uri: "/api/uploads\(query)", method: .post, headers: headers, body: ByteBuffer(bytes: data))
    }

    /// GETs `uri` and decodes its JSON body (``apiObject(_:from:)``: anything but a JSON object fails, except the
    /// empty body of a 204 No Content, which reads as `[:]`).
    func json(_ uri: String, method: HTTPRequest.Method = .get) async throws -> (HTTPResponse.Status, [String: Any]) {
        let r = try await execute(uri: uri, method: method, headers: [:], body: nil)
        if r.status == .noContent {
            guard r.body.readableBytes == 0 else { throw NotAnAPIObject(description: "\(uri) answered 204 with a body") }
            return (r.status, [:])
        }
        return (r.status, try apiObject(r.body, from: uri))
    }

    /// Polls the job until it reaches a final state (or `timeout` passes).
    func waitForJob(_ id: Int, timeout: Double = 120) async throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let (_, job) = try await json("/api/jobs/\(id)")
            if let s = job["state"] as? String, ["done", "failed", "cancelled"].contains(s) { return job }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("job \(id) did not finish within \(timeout) s")
        return [:]
    }
}

/// The JSON object an API answer carries. Every answer the API gives, its errors included (`{"error", "code"}`),
/// is one: a body that is not (an HTML page, nothing, a bare array) throws rather than reading as `[:]`, so an
/// assertion on a missing key cannot pass for the wrong reason.
func apiObject(_ body: ByteBuffer, from uri: String) throws -> [String: Any] {
    guard let object = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] else {
        throw NotAnAPIObject(description: "\(uri) answered \(body.readableBytes) bytes that are not a JSON object: \(String(decoding: Data(buffer: body).prefix(200), as: UTF8.self))")
    }
    return object
}

struct NotAnAPIObject: Error, CustomStringConvertible { var description: String }

extension Data {
    init(buffer: ByteBuffer) { self = Data(buffer.readableBytesView) }
}

extension NewSession {
    /// What a stand-in analysis of `job` stores: a session of no shots on the job's media.
    static func standIn(_ job: JobRecord) -> NewSession {
        NewSession(record: SessionRecord(filePath: job.mediaPath, fileSHA256: job.mediaSHA256, durationSeconds: 6, fps: 30,
                                         hand: .right, stats: SessionStats(shotCount: 0)), shots: [])
    }
}
