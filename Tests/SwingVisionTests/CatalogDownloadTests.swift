import Foundation
import SwingTestSupport
import SwingCore
import Testing
@testable import SwingVision

/// Downloads against a real HTTP server on 127.0.0.1 started by each test.
@Suite struct CatalogDownloadTests {
    let model: Data
    init() throws {
        model = try Data(contentsOf: TestSupport.fixtures.appendingPathComponent("catalog_tiny.onnx"))
    }

    func setUp() throws -> (LoopbackHTTPServer, ModelCatalog, URL) {
        let home = try TestFiles.temporaryDirectory("dl")
        return (try LoopbackHTTPServer(), ModelCatalog(locations: CatalogLocations(bundledDirectories: [], home: home)), home)
    }

    func installedFiles(_ home: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("models").path)) ?? []).sorted()
    }

    func partialFiles(_ home: URL) -> [URL] {
        let dir = home.appendingPathComponent("cache")
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
            .filter { $0.hasSuffix(".part") }.map { dir.appendingPathComponent($0) }
    }

    @Test func downloadsVerifiesAndCachesByURL() async throws {
        let (server, cat, home) = try setUp()
        defer { server.stop(); try? FileManager.default.removeItem(at: home) }
        server.setRoute("/m/yolo-tiny.onnx", .body(model))
        let progressSeen = CallbackLog<DownloadProgress>()
        let m = try await cat.download(server.url("/m/yolo-tiny.onnx"), sha256: SHA256.hex(model).uppercased(),
                                       progress: { progressSeen.add($0) })
        #expect(m.id == "yolo-tiny")
        #expect(m.source == .remote)
        #expect(m.url == server.url("/m/yolo-tiny.onnx").absoluteString)
        #expect(m.sha256 == SHA256.hex(model))
        #expect(m.labels.first == "tennis racket")
        #expect(try Data(contentsOf: URL(fileURLWithPath: m.path)) == model)
        #expect(progressSeen.last == DownloadProgress(bytesReceived: Int64(model.count), totalBytes: Int64(model.count)))
        #expect(installedFiles(home) == ["yolo-tiny.json", "yolo-tiny.onnx"])
        // Same URL again: served from the catalog, no request reaches the server.
        let again = try await cat.download(server.url("/m/yolo-tiny.onnx"))
        #expect(again.id == m.id)
        #expect(server.requests.count == 1)
    }

    @Test func checksumMismatchInstallsNothing() async throws {
        let (server, cat, home) = try setUp()
        defer { server.stop(); try? FileManager.default.removeItem(at: home) }
        server.setRoute("/a.onnx", .body(model))
        let wrong = String(repeating: "0", count: 64)
        await #expect(throws: CatalogError.checksumMismatch(expected: wrong, actual: SHA256.hex(model))) {
            try await cat.download(server.url("/a.onnx"), sha256: wrong)
        }
        #expect(installedFiles(home).isEmpty)
        #expect(partialFiles(home).isEmpty)
        #expect(cat.models().isEmpty)
        await #expect(throws: CatalogError.invalidChecksum("abc")) { try await cat.download(server.url("/a.onnx"), sha256: "abc") }
    }

    @Test func serverErrorIsReportedAndInstallsNothing() async throws {
        let (server, cat, home) = try setUp()
        defer { server.stop(); try? FileManager.default.removeItem(at: home) }
        server.setRoute("/e.onnx", .status(500))
        do {
            try await cat.download(server.url("/e.onnx"))
            Issue.record("a 500 must fail")
        } catch let e as CatalogError {
            #expect(e.description.contains("HTTP 500"))
            #expect(e.statusCode == StatusCode.downloadFailed)
        }
        #expect(installedFiles(home).isEmpty)
        await #expect(throws: CatalogError.self) { try await cat.download(server.url("/missing.onnx")) }
    }

    @Test func truncatedTransferFailsThenResumesWithRange() async throws {
        let (server, cat, home) = try setUp()
        defer { server.stop(); try? FileManager.default.removeItem(at: home) }
        server.setRoute("/t.onnx", .truncated(model, sentBytes: 100))
        await #expect(throws: CatalogError.self) { try await cat.download(server.url("/t.onnx"), sha256: SHA256.hex(model)) }
        #expect(installedFiles(home).isEmpty)
        let part = try #require(partialFiles(home).first)
        #expect(try Data(contentsOf: part) == model.prefix(100))
        // The server recovers; the next attempt asks only for the missing bytes.
        server.setRoute("/t.onnx", .body(model, ranges: true))
        let m = try await cat.download(server.url("/t.onnx"), sha256: SHA256.hex(model))
        #expect(server.requests.last?.range == "bytes=100-")
        #expect(try Data(contentsOf: URL(fileURLWithPath: m.path)) == model)
        #expect(partialFiles(home).isEmpty)
    }

    @Test func restartsFromScratchWhenTheServerIgnoresRange() async throws {
        let (server, cat, home) = try setUp()
        defer { server.stop(); try? FileManager.default.removeItem(at: home) }
        server.setRoute("/r.onnx", .truncated(model, sentBytes: 50))
        await #expect(throws: CatalogError.self) { try await cat.download(server.url("/r.onnx")) }
        server.setRoute("/r.onnx", .body(model, ranges: false))
        let m = try await cat.download(server.url("/r.onnx"), sha256: SHA256.hex(model))
        #expect(server.requests.last?.range == "bytes=50-")
        #expect(try Data(contentsOf: URL(fileURLWithPath: m.path)) == model)
    }

    @Test func zipHoldingOneModelIsUnpacked() async throws {
        let (server, cat, home) = try setUp()
        defer { server.stop(); try? FileManager.default.removeItem(at: home) }
        server.setRoute("/cards.zip", .body(StoredZipWriter.archive([("README.txt", Data("hi".utf8)),
                                                                     ("weights/best.onnx", model)])))
        let m = try await cat.download(server.url("/cards.zip"))
        #expect(m.id == "cards")
        #expect(try Data(contentsOf: URL(fileURLWithPath: m.path)) == model)
        #expect(installedFiles(home) == ["cards.json", "cards.onnx"])
    }

    @Test func zipWithoutAModelOrWithTwoIsRejected() async throws {
        let (server, cat, home) = try setUp()
        defer { server.stop(); try? FileManager.default.removeItem(at: home) }
        server.setRoute("/empty.zip", .body(StoredZipWriter.archive([("README.txt", Data("no model".utf8))])))
        do {
            try await cat.download(server.url("/empty.zip"))
            Issue.record("a zip without a model must fail")
        } catch let e as CatalogError {
            #expect(e.kind == .zipWithoutModel, "wrong error \(e)")
        }
        server.setRoute("/two.zip", .body(StoredZipWriter.archive([("a.onnx", model), ("b.onnx", model)])))
        do {
            try await cat.download(server.url("/two.zip"))
            Issue.record("a zip with two models must fail")
        } catch let e as CatalogError {
            #expect(e.kind == .zipWithSeveralModels, "wrong error \(e)")
            #expect(e.archiveEntries == ["a.onnx", "b.onnx"])
        }
        // A zip entry that is not a real model is caught too.
        server.setRoute("/bad.zip", .body(StoredZipWriter.archive([("m.onnx", Data("garbage".utf8))])))
        await #expect(throws: CatalogError.self) { try await cat.download(server.url("/bad.zip")) }
        #expect(installedFiles(home).isEmpty)
    }

    @Test func downloadRefusesAnIdAlreadyInTheCatalog() async throws {
        let (server, cat, home) = try setUp()
        defer { server.stop(); try? FileManager.default.removeItem(at: home) }
        server.setRoute("/x/catalog_tiny.onnx", .body(model))
        try cat.add(fileAt: TestSupport.fixtures.appendingPathComponent("catalog_tiny.onnx"))
        await #expect(throws: CatalogError.duplicateId("catalog_tiny")) {
            try await cat.download(server.url("/x/catalog_tiny.onnx"))
        }
        #expect(server.requests.isEmpty)
        let other = try await cat.download(server.url("/x/catalog_tiny.onnx"), id: "tiny-copy")
        #expect(other.id == "tiny-copy")
    }

    @Test func nonHTTPURLsAreRejected() async throws {
        let (server, cat, home) = try setUp()
        defer { server.stop(); try? FileManager.default.removeItem(at: home) }
        await #expect(throws: CatalogError.unsupportedURL("ftp://example.com/m.onnx")) {
            try await cat.download(URL(string: "ftp://example.com/m.onnx")!)
        }
    }
}
