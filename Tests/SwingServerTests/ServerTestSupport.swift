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

    /// Sends `uri` (no body) and decodes its answer as the API's `T` (``decoded(_:_:_:)``): a body that is not a
    /// `T` (an HTML page, nothing, another shape) fails the test with a sentence naming `uri`. Ask for
    /// ``APIErrorBody`` where the answer should be a refusal.
    func json<T: Decodable>(_ type: T.Type, _ uri: String, method: HTTPRequest.Method = .get) async throws -> (HTTPResponse.Status, T) {
        let r = try await execute(uri: uri, method: method, headers: [:], body: nil)
        return (r.status, try decoded(T.self, r, "\(method) \(uri)"))
    }

    /// Sends `uri` (no body) for an answer without one, 204 No Content, and returns its status. A 204 with a
    /// body fails, and so does any other status whose body is not an API error (``APIErrorBody``).
    func bodiless(_ uri: String, method: HTTPRequest.Method) async throws -> HTTPResponse.Status {
        let r = try await execute(uri: uri, method: method, headers: [:], body: nil)
        if r.status == .noContent {
            guard r.body.readableBytes == 0 else { throw UnexpectedAnswer(description: "\(method) \(uri) answered 204 with a body") }
            return r.status
        }
        _ = try decoded(APIErrorBody.self, r, "\(method) \(uri)")
        return r.status
    }

    /// Polls the job until it reaches a final state (or `timeout` passes: then an issue is recorded and the
    /// job is returned as last seen).
    func waitForJob(_ id: Int64, timeout: Double = 120) async throws -> JobView {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let (_, job) = try await json(JobView.self, "/api/jobs/\(id)")
            if job.state.isFinal { return job }
            guard Date() < deadline else {
                Issue.record("job \(id) did not finish within \(timeout) s: \(job)")
                return job
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}

// MARK: Answers decoded into the API's types

/// The API's JSON decoder: dates in ISO 8601, as ``JSONResponse/encoder`` and the session document write them.
let apiDecoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
}()

/// `response`'s body as the API's `T`. Every answer the API gives is one of its types, its errors included
/// (``APIErrorBody``): a body that is not a `T` (an HTML page, nothing, a bare array, a key missing or of the
/// wrong type) throws a sentence saying what answered what, rather than reading as empty, so an assertion on
/// a missing value cannot pass for the wrong reason.
/// - Parameter what: The request, as the sentence names it ("the upload", "GET /api/sessions").
func decoded<T: Decodable>(_ type: T.Type, _ response: TestResponse, _ what: String) throws -> T {
    try decoded(T.self, Data(buffer: response.body), "\(what) answered \(response.status.code)")
}

/// `data` as the API's `T` (a socket message, a line of an event stream); see ``decoded(_:_:_:)``.
/// - Parameter what: What `data` is, as the sentence names it.
func decoded<T: Decodable>(_ type: T.Type, _ data: Data, _ what: String) throws -> T {
    do { return try apiDecoder.decode(T.self, from: data) } catch {
        throw UnexpectedAnswer(description: "\(what): \(data.count) bytes that do not decode as \(T.self) (\(decodingProblem(error))): \(String(decoding: data.prefix(300), as: UTF8.self))")
    }
}

/// What a `DecodingError` found wrong, in a few words: the key missing or the value that does not fit, by its path.
func decodingProblem(_ error: any Error) -> String {
    func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
    switch error as? DecodingError {
    case .keyNotFound(let key, let context)?: return "no \(path(context.codingPath + [key]))"
    case .valueNotFound(_, let context)?: return "\(path(context.codingPath)) is null"
    case .typeMismatch(let type, let context)?: return "\(path(context.codingPath)) is not a \(type)"
    case .dataCorrupted(let context)?: return "\(path(context.codingPath)): \(context.debugDescription)"
    default: return "\(error)"
    }
}

/// Raw JSON, for the few checks of an answer's shape that decoding would hide: whether a field is left out or
/// sent as `null` (both decode as `nil`). Decode the body as ``JSONValue`` (``decoded(_:_:_:)``) and look in:
/// an absent key or index is `nil`, a `null` is ``JSONValue/null``.
extension JSONValue {
    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { object[key] } else { nil }
    }

    subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) { array[index] } else { nil }
    }

    /// The elements, when this is an array.
    var elements: [JSONValue]? {
        if case .array(let array) = self { array } else { nil }
    }
}

/// An answer that is not what the API promises.
struct UnexpectedAnswer: Error, CustomStringConvertible { var description: String }

/// `{"job": JOB}`: the 202 of an upload (``JobView``), of a model download by URL (``ModelDownloads/Job``) and
/// of a studio video (``StudioVideoJobs/Job``).
struct Queued<Job: Decodable>: Decodable { var job: Job }

/// `GET /api/sessions`.
struct SessionList: Decodable { var sessions: [SessionSummary] }

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
