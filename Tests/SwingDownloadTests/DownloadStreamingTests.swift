import Foundation
import SwingCore
import SwingTestSupport
import Testing
@testable import SwingVision

/// Model downloads streamed to disk, against `Fixtures/download_server.py` on 127.0.0.1 (a child process
/// started by each test): the right bytes with progress, an endless body refused at the size limit with
/// nothing left behind, Content-Lengths that lie, a server that stalls or never answers, redirects, a
/// refused connection, cancellation, and resumes. Every refusal is one sentence and installs nothing.
@Suite struct DownloadStreamingTests {
    let model: Data
    let modelFile: URL
    init() throws {
        modelFile = TestFiles.package("Tests/SwingVisionTests/Fixtures/catalog_tiny.onnx")
        model = try Data(contentsOf: modelFile)
    }

    struct Fixture {
        var server: DownloadServer
        var catalog: ModelCatalog
        var home: URL
        func tearDown() { server.stop(); try? FileManager.default.removeItem(at: home) }
        /// Regular files left under the catalog's folders (installed models, partial downloads).
        var filesLeft: [String] {
            let e = FileManager.default.enumerator(at: home, includingPropertiesForKeys: [.isRegularFileKey])
            return (e?.allObjects as? [URL] ?? []).filter {
                (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
            }.map { $0.path.replacingOccurrences(of: home.path + "/", with: "") }.sorted()
        }
        var partials: [URL] {
            let dir = catalog.locations.cacheDirectory
            return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
                .filter { $0.hasSuffix(".part") }.map { dir.appendingPathComponent($0) }
        }
    }

    func setUp(maxBytes: Int64 = HTTPDownloader.maxModelBytes, idleTimeout: Double = 60) throws -> Fixture {
        let home = try TestFiles.temporaryDirectory("dl-stream")
        var catalog = ModelCatalog(locations: CatalogLocations(bundledDirectories: [], home: home))
        catalog.downloader.maxBytes = maxBytes
        catalog.downloader.idleTimeout = idleTimeout
        return Fixture(server: try DownloadServer(serving: modelFile), catalog: catalog, home: home)
    }

    /// The `CatalogError` `body` throws (recording an issue when it throws something else or nothing).
    func catalogError(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async -> CatalogError? {
        do {
            try await body()
            Issue.record("expected a CatalogError, got success", sourceLocation: sourceLocation)
        } catch let e as CatalogError {
            #expect(ErrorSentence.isWellFormed(e.message) && !e.message.hasSuffix(".."), "not one sentence: \(e.message)",
                    sourceLocation: sourceLocation)
            for libraryWord in ["HTTPClientError", "NIO", "Optional("] {
                #expect(!e.message.contains(libraryWord), "library internals in: \(e.message)", sourceLocation: sourceLocation)
            }
            return e
        } catch {
            Issue.record("expected a CatalogError, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    @Test func aLargeBodyStreamsToDiskInPiecesWithProgress() async throws {
        let f = try setUp()
        defer { f.tearDown() }
        let size = 3_000_000
        let partial = f.home.appendingPathComponent("blob.part")
        let log = CallbackLog<DownloadProgress>()
        let outcome = try await HTTPDownloader().fetch(f.server.url("/file/blob.bin?bytes=\(size)"), into: partial) { log.add($0) }
        #expect(outcome.bytes == Int64(size))
        #expect(outcome.resumedFrom == 0)
        #expect(SHA256.hex(try Data(contentsOf: partial)) == SHA256.hex(generatedBody(size)))
        let seen = log.all
        #expect(seen.count > 1, "streamed in pieces, not in one")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.bytesReceived < $1.bytesReceived })
        #expect(seen.allSatisfy { $0.totalBytes == Int64(size) })
        #expect(seen.last?.bytesReceived == Int64(size))
    }

    @Test func anEndlessBodyIsRefusedAtTheLimitAndLeavesNothing() async throws {
        let limit: Int64 = 1 << 20
        let f = try setUp(maxBytes: limit)
        defer { f.tearDown() }
        let started = Date()
        let e = await catalogError { try await f.catalog.download(f.server.url("/endless/endless.onnx")) }
        #expect(e?.kind == .downloadFailed)
        #expect(e?.message.contains("sends more than \(limit) bytes, over the \(limit)-byte limit of a model") == true, "\(String(describing: e))")
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(f.filesLeft.isEmpty, "left behind: \(f.filesLeft)")
        #expect(f.catalog.models().isEmpty)
    }

    @Test func anAnnouncedSizeOverTheLimitIsRefusedBeforeTheBodyAndLeavesNothing() async throws {
        let f = try setUp(maxBytes: 1 << 20)
        defer { f.tearDown() }
        let e = await catalogError { try await f.catalog.download(f.server.url("/announce/5000000/big.onnx")) }
        #expect(e?.message.contains("announces 5000000 bytes, over the 1048576-byte limit") == true, "\(String(describing: e))")
        #expect(f.filesLeft.isEmpty, "left behind: \(f.filesLeft)")
    }

    @Test func aContentLengthThatPromisesMoreFailsAndKeepsOnlyWhatArrivedForAResume() async throws {
        let f = try setUp()
        defer { f.tearDown() }
        let e = await catalogError { try await f.catalog.download(f.server.url("/long/tiny.onnx"), sha256: SHA256.hex(model)) }
        #expect(e?.kind == .downloadFailed)
        #expect(e?.message.contains("after \(model.count) of \(model.count + 64) bytes (the server closed the connection)") == true,
                "\(String(describing: e))")
        #expect(e?.message.contains("run the same command again to resume") == true)
        #expect(f.catalog.models().isEmpty)
        let part = try #require(f.partials.first)
        #expect(try Data(contentsOf: part) == model, "the partial file holds exactly the bytes that arrived")
    }

    @Test func aContentLengthThatPromisesLessInstallsNothingAndLeavesNothing() async throws {
        let f = try setUp()
        defer { f.tearDown() }
        // The client reads what was announced; the checksum tells it is not the model.
        let e = await catalogError { try await f.catalog.download(f.server.url("/short/tiny.onnx"), sha256: SHA256.hex(model)) }
        #expect(e == CatalogError.checksumMismatch(expected: SHA256.hex(model), actual: SHA256.hex(model.prefix(model.count - 64))))
        #expect(f.filesLeft.isEmpty, "left behind: \(f.filesLeft)")
        // Without a checksum, the cut model does not parse: still nothing installed, nothing left.
        let unchecked = await catalogError { try await f.catalog.download(f.server.url("/short/tiny.onnx")) }
        #expect(unchecked != nil)
        #expect(f.catalog.models().isEmpty)
        #expect(f.filesLeft.isEmpty, "left behind: \(f.filesLeft)")
    }

    @Test func aStalledServerTimesOutAndTheNextAttemptResumes() async throws {
        let f = try setUp(idleTimeout: 1)
        defer { f.tearDown() }
        let url = f.server.url("/stall-once/100/tiny.onnx")
        let started = Date()
        let e = await catalogError { try await f.catalog.download(url, sha256: SHA256.hex(model)) }
        #expect(e?.message.contains("no data arrived for 1 second after 100 of \(model.count) bytes; run the same command again to resume") == true,
                "\(String(describing: e))")
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(f.catalog.models().isEmpty)
        let part = try #require(f.partials.first)
        #expect(try Data(contentsOf: part) == model.prefix(100), "nothing half-written: the partial file is the first 100 bytes")
        let m = try await f.catalog.download(url, sha256: SHA256.hex(model))
        #expect(f.server.requests.last == .init(path: "/stall-once/100/tiny.onnx", range: "bytes=100-"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: m.path)) == model)
        #expect(f.partials.isEmpty)
    }

    @Test func aServerThatNeverAnswersTimesOutAndLeavesNothing() async throws {
        let f = try setUp(idleTimeout: 1)
        defer { f.tearDown() }
        let e = await catalogError { try await f.catalog.download(f.server.url("/silent/tiny.onnx")) }
        #expect(e?.message.contains("did not answer within 1 second") == true, "\(String(describing: e))")
        #expect(f.filesLeft.isEmpty, "left behind: \(f.filesLeft)")
    }

    @Test func redirectsAreFollowed() async throws {
        let f = try setUp()
        defer { f.tearDown() }
        let m = try await f.catalog.download(f.server.url("/redirect/3/file/tiny.onnx"), sha256: SHA256.hex(model))
        #expect(m.id == "tiny")
        #expect(m.url == f.server.url("/redirect/3/file/tiny.onnx").absoluteString, "the catalog keeps the URL asked for")
        #expect(try Data(contentsOf: URL(fileURLWithPath: m.path)) == model)
        #expect(f.server.requests.map(\.path) == ["/redirect/3/file/tiny.onnx", "/redirect/2/file/tiny.onnx",
                                                  "/redirect/1/file/tiny.onnx", "/redirect/0/file/tiny.onnx", "/file/tiny.onnx"])
    }

    @Test func aResumeGoesThroughTheRedirects() async throws {
        let f = try setUp()
        defer { f.tearDown() }
        let url = f.server.url("/redirect/1/cut-once/120/tiny.onnx")
        let e = await catalogError { try await f.catalog.download(url) }
        #expect(e?.message.contains("after 120 of \(model.count) bytes") == true, "\(String(describing: e))")
        let m = try await f.catalog.download(url, sha256: SHA256.hex(model))
        #expect(f.server.requests.last == .init(path: "/cut-once/120/tiny.onnx", range: "bytes=120-"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: m.path)) == model)
    }

    @Test func aRedirectLoopFailsWithOneSentence() async throws {
        let f = try setUp()
        defer { f.tearDown() }
        let e = await catalogError { try await f.catalog.download(f.server.url("/loop/tiny.onnx")) }
        #expect(e?.message.contains("redirects go round in a circle") == true, "\(String(describing: e))")
        #expect(f.server.requests.count <= 6)
        #expect(f.filesLeft.isEmpty, "left behind: \(f.filesLeft)")
    }

    @Test func aRefusedConnectionFailsAtOnce() async throws {
        let f = try setUp()
        defer { f.tearDown() }
        let url = f.server.url("/file/tiny.onnx")
        f.server.stop()   // the port is now closed
        let started = Date()
        let e = await catalogError { try await f.catalog.download(url) }
        #expect(e?.message.contains("cannot connect to 127.0.0.1 port \(f.server.port) (connection refused)") == true,
                "\(String(describing: e))")
        #expect(Date().timeIntervalSince(started) < 5, "no retrying until a timeout")
        #expect(f.filesLeft.isEmpty, "left behind: \(f.filesLeft)")
    }

    @Test func cancellingStopsTheTransferAndKeepsThePartialFileForAResume() async throws {
        let f = try setUp()
        defer { f.tearDown() }
        let partial = f.home.appendingPathComponent("endless.part")
        let arrived = AsyncStream<Void>.makeStream()
        let task = Task {
            try await HTTPDownloader().fetch(f.server.url("/endless/endless.onnx"), into: partial) { p in
                if p.bytesReceived >= 1 << 20 { arrived.continuation.yield() }
            }
        }
        for await _ in arrived.stream { break }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        let kept = PartialSize.of(partial)
        #expect(kept >= 1 << 20)
        try await Task.sleep(for: .milliseconds(300))
        #expect(PartialSize.of(partial) == kept, "nothing is written after the cancellation")
    }
}

enum PartialSize {
    static func of(_ url: URL) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? NSNumber)?.int64Value ?? -1
    }
}
