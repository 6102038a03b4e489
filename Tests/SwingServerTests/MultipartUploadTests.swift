import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SwingPipeline
@testable import SwingServer
import Testing

/// `multipart/form-data` uploads (issue #12): the `file` field is streamed out of the form however
/// the body is cut into network reads, other fields are dropped, and bad forms get one sentence.
@Suite struct MultipartUploadTests {
    /// A body cut into the given chunk sizes, as the network delivers it.
    struct Chunks: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let parts: [[UInt8]]
        struct Iterator: AsyncIteratorProtocol {
            var rest: [[UInt8]]
            mutating func next() async -> ByteBuffer? { rest.isEmpty ? nil : ByteBuffer(bytes: rest.removeFirst()) }
        }
        func makeAsyncIterator() -> Iterator { Iterator(rest: parts) }

        init(_ body: [UInt8], sizes: inout SystemRandomNumberGenerator, maxChunk: Int) {
            var parts: [[UInt8]] = [], i = 0
            while i < body.count {
                let n = Int.random(in: 1...maxChunk, using: &sizes)
                parts.append(Array(body[i..<Swift.min(body.count, i + n)]))
                i += n
            }
            self.parts = parts
        }
    }

    static func form(boundary: String, file: [UInt8], filename: String = "clip.mov", before: [(String, String)] = [],
                     after: [(String, String)] = []) -> [UInt8] {
        var body: [UInt8] = []
        func field(_ name: String, _ value: String) {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        before.forEach(field)
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(filename)\"\r\nContent-Type: video/quicktime\r\n\r\n".utf8)
        body += file
        body += Array("\r\n".utf8)
        after.forEach(field)
        body += Array("--\(boundary)--\r\n".utf8)
        return body
    }

    /// The first index of `needle` in `hay`.
    static func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        return (0...(hay.count - needle.count)).first { hay[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    static func collect(_ body: [UInt8], boundary: String, maxChunk: Int) async throws -> ([UInt8], String?) {
        var rng = SystemRandomNumberGenerator()
        let names = FileNameBox()
        var out: [UInt8] = []
        for try await b in MultipartFile(base: Chunks(body, sizes: &rng, maxChunk: maxChunk), boundary: boundary, names: names) {
            out += b.readableBytesView
        }
        return (out, names.value)
    }

    /// Property: for random files (with bytes that look like the start of a boundary), boundaries,
    /// surrounding fields and chunkings, the stream is exactly the file.
    @Test func theFileComesOutWholeHoweverTheBodyIsCut() async throws {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<120 {
            let boundary = "----swing" + String(UInt64.random(in: 0...UInt64.max, using: &rng), radix: 36)
            var file = (0..<Int.random(in: 0...3000, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            // Near-misses of the delimiter inside the data. A random byte after one can complete it (1 in
            // 256 when one character is dropped): the form would then be invalid (RFC 2046: the data must
            // not contain the delimiter), so such a byte is changed.
            let delimiter = Array("\r\n--\(boundary)".utf8)
            for _ in 0..<3 where !file.isEmpty {
                let near = delimiter.dropLast(Int.random(in: 1...4, using: &rng))
                file.insert(contentsOf: near, at: Int.random(in: 0...file.count, using: &rng))
            }
            while let at = Self.find(delimiter, in: file) { file[at + delimiter.count - 1] ^= 0x80 }
            let body = Self.form(boundary: boundary, file: file, before: round % 2 == 0 ? [("hand", "left")] : [],
                                 after: [("note", "forehand day")])
            let (got, name) = try await Self.collect(body, boundary: boundary, maxChunk: [1, 7, 100, 70_000][round % 4])
            #expect(got == file, "round \(round): \(got.count) bytes out, \(file.count) in")
            #expect(name == "clip.mov")
        }
    }

    @Test func badFormsAreRefusedWithASentence() async throws {
        let b = "xyz"
        let noFile = Array("--\(b)\r\nContent-Disposition: form-data; name=\"hand\"\r\n\r\nleft\r\n--\(b)--\r\n".utf8)
        let cut = Array(Self.form(boundary: b, file: Array(repeating: 7, count: 1000)).prefix(300))
        let hugeHeaders = Array("--\(b)\r\n".utf8) + Array(repeating: UInt8(ascii: "a"), count: 40_000)
        let fatField = Self.form(boundary: b, file: [1, 2, 3], before: [("junk", String(repeating: "j", count: 2 << 20))])
        for (body, words) in [(noFile, "no field named file"), (cut, "ends inside"), (hugeHeaders, "too long"), (fatField, "MB")] {
            await #expect {
                _ = try await Self.collect(body, boundary: b, maxChunk: 4096)
            } throws: { error in
                let sentence = (error as? MultipartFile<Chunks>.FormError)?.description ?? ""
                return sentence.contains(words) && sentence.hasSuffix(".")
            }
        }
        #expect(MultipartFile<Chunks>.boundary(of: "multipart/form-data; boundary=\"a b\"") == "a b")
        #expect(MultipartFile<Chunks>.boundary(of: "multipart/form-data") == nil)
        #expect(MultipartFile<Chunks>.boundary(of: "video/mp4") == nil)
    }

    /// Through the server: a form upload is the same stored file as a raw one, named as the form said.
    @Test func aFormUploadIsStoredLikeARawOne() async throws {
        let server = try TestServer()
        let video = try [UInt8](Data(contentsOf: TestServer.demoVideo))
        try await server.run(analyze: { job, _ in try await Task.sleep(for: .seconds(30)); return .standIn(job) }) { client in
            let boundary = "----swingform"
            var headers = HTTPFields()
            headers[.contentType] = "multipart/form-data; boundary=\(boundary)"
            let body = Self.form(boundary: boundary, file: video, filename: "Forehands 3.mp4")
            let r = try await client.execute(uri: "/api/uploads?hand=left", method: .post, headers: headers, body: ByteBuffer(bytes: body))
            #expect(r.status == .accepted, "\(String(buffer: r.body))")
            let job = try decoded(Queued<JobView>.self, r, "the form upload").job
            #expect(job.file == "Forehands 3.mp4")
            let stored = server.mediaFiles.filter { $0.hasSuffix(".mp4") }
            #expect(stored.count == 1)
            if let name = stored.first {
                let bytes = try [UInt8](Data(contentsOf: server.home.appendingPathComponent("media/\(name)")))
                #expect(bytes == video, "the stored file is not the uploaded one")
            }
            // A form without the file, and a multipart type without a boundary: 400, nothing kept.
            let empty = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"hand\"\r\n\r\nleft\r\n--\(boundary)--\r\n".utf8)
            let bad = try await client.execute(uri: "/api/uploads", method: .post, headers: headers, body: ByteBuffer(bytes: empty))
            let refusal = try decoded(APIErrorBody.self, bad, "the form without a file")
            #expect(bad.status == .badRequest && refusal.error.contains("field named file"))
            headers[.contentType] = "multipart/form-data"
            let noBoundary = try await client.execute(uri: "/api/uploads", method: .post, headers: headers, body: ByteBuffer(bytes: empty))
            #expect(noBoundary.status == .badRequest)
            #expect(server.mediaFiles.filter { $0.hasSuffix(".part") }.isEmpty)
        }
    }
}
