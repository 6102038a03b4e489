import Foundation
import NIOCore

/// The bytes of the `file` field of a streamed `multipart/form-data` body (RFC 7578), passed on as
/// they arrive: nothing is held in memory beyond one delimiter's length, and other fields are read
/// and dropped. The field's `filename` is available once its headers have been read.
///
/// Limits: part headers at most ``maxHeaderBytes``, at most ``maxParts`` parts, and everything that is
/// not the file at most ``maxOtherBytes`` (a form cannot hide a large upload in another field).
struct MultipartFile<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer

    let base: Base
    let boundary: String
    /// Receives the file field's `filename` when its headers arrive.
    let names: FileNameBox

    static var maxHeaderBytes: Int { 16 << 10 }
    static var maxParts: Int { 32 }
    static var maxOtherBytes: Int { 1 << 20 }

    /// Why a form body was refused: one sentence each.
    enum FormError: Error, Sendable, CustomStringConvertible {
        case malformed(String)
        case noFileField
        var description: String {
            switch self {
            case .malformed(let why): "The form upload is malformed: \(why)."
            case .noFileField: "The form has no field named file; send the video in a field called file."
            }
        }
    }

    /// The boundary of a `multipart/form-data` content type, if it is one.
    static func boundary(of contentType: String) -> String? {
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.first?.lowercased() == "multipart/form-data" else { return nil }
        for p in parts.dropFirst() where p.lowercased().hasPrefix("boundary=") {
            var b = String(p.dropFirst("boundary=".count))
            if b.hasPrefix("\""), b.hasSuffix("\""), b.count >= 2 { b = String(b.dropFirst().dropLast()) }
            // RFC 2046: 1–70 characters.
            return (1...70).contains(b.utf8.count) ? b : nil
        }
        return nil
    }

    func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), boundary: boundary, names: names) }

    struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let names: FileNameBox
        /// `\r\n--boundary`: what ends a part's data. The body starts with `--boundary` (no CRLF), so
        /// the parser starts as if a CRLF had been seen.
        let delimiter: [UInt8]
        var pending: [UInt8] = [0x0D, 0x0A]
        var state: State = .preamble
        var parts = 0
        var otherBytes = 0
        var sawFile = false
        var baseDone = false

        enum State { case preamble, afterDelimiter, headers, fileData, otherData, done }

        init(base: Base.AsyncIterator, boundary: String, names: FileNameBox) {
            self.base = base
            self.names = names
            delimiter = Array("\r\n--\(boundary)".utf8)
        }

        mutating func next() async throws -> ByteBuffer? {
            while true {
                switch state {
                case .done:
                    return nil
                case .preamble, .otherData, .fileData:
                    if let i = find(delimiter, in: pending) {
                        let data = Array(pending[..<i])
                        pending.removeFirst(i + delimiter.count)
                        let wasFile = state == .fileData
                        if state == .otherData || state == .preamble { try countOther(data.count) }
                        state = .afterDelimiter
                        if wasFile, !data.isEmpty { return ByteBuffer(bytes: data) }
                        continue
                    }
                    // Keep what could be the start of a delimiter; pass on (or drop) the rest.
                    let keep = Swift.min(pending.count, delimiter.count - 1)
                    let ready = pending.count - keep
                    if state == .fileData, ready >= 64 << 10 || (ready > 0 && baseDone) {
                        let out = ByteBuffer(bytes: pending[..<ready])
                        pending.removeFirst(ready)
                        return out
                    }
                    if state != .fileData, ready > 0 { try countOther(ready); pending.removeFirst(ready) }
                    guard try await fill() else { throw FormError.malformed("the body ends inside a part") }
                case .afterDelimiter:
                    if pending.count < 2 {
                        guard try await fill() else { throw FormError.malformed("the body ends after a boundary") }
                        continue
                    }
                    if pending[0] == 0x2D, pending[1] == 0x2D {           // "--": the last boundary
                        state = .done
                        if !sawFile { throw FormError.noFileField }
                        return nil
                    }
                    // Transport padding, then CRLF.
                    guard let eol = find([0x0D, 0x0A], in: pending) else {
                        guard pending.count < 256 else { throw FormError.malformed("a boundary line is not ended") }
                        guard try await fill() else { throw FormError.malformed("a boundary line is not ended") }
                        continue
                    }
                    pending.removeFirst(eol + 2)
                    parts += 1
                    guard parts <= MultipartFile.maxParts else { throw FormError.malformed("more than \(MultipartFile.maxParts) parts") }
                    state = .headers
                case .headers:
                    guard let end = find([0x0D, 0x0A, 0x0D, 0x0A], in: pending) else {
                        guard pending.count <= MultipartFile.maxHeaderBytes else { throw FormError.malformed("a part's headers are too long") }
                        guard try await fill() else { throw FormError.malformed("the body ends inside a part's headers") }
                        continue
                    }
                    let headers = String(decoding: pending[..<end], as: UTF8.self)
                    pending.removeFirst(end + 4)
                    let disposition = Self.disposition(headers)
                    if disposition.name == "file", !sawFile {
                        sawFile = true
                        names.set(disposition.filename)
                        state = .fileData
                    } else {
                        state = .otherData
                    }
                }
            }
        }

        /// Reads more of the body into `pending`; `false` at its end.
        private mutating func fill() async throws -> Bool {
            if baseDone { return false }
            guard var buffer = try await base.next() else { baseDone = true; return false }
            if let bytes = buffer.readBytes(length: buffer.readableBytes) { pending += bytes }
            return true
        }

        private mutating func countOther(_ n: Int) throws {
            otherBytes += n
            if otherBytes > MultipartFile.maxOtherBytes {
                throw FormError.malformed("the fields other than file hold more than \(MultipartFile.maxOtherBytes >> 20) MB")
            }
        }

        private func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
            guard hay.count >= needle.count, let first = needle.first else { return nil }
            var i = 0
            let last = hay.count - needle.count
            while i <= last {
                guard let j = hay[i...last].firstIndex(of: first) else { return nil }
                if hay[j..<j + needle.count].elementsEqual(needle) { return j }
                i = j + 1
            }
            return nil
        }

        /// `name` and `filename` of a part's `Content-Disposition` header.
        static func disposition(_ headers: String) -> (name: String?, filename: String?) {
            for line in headers.split(separator: "\r\n") {
                let pair = line.split(separator: ":", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition" else { continue }
                var name: String?, filename: String?
                for param in pair[1].split(separator: ";").dropFirst() {
                    let kv = param.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    guard kv.count == 2 else { continue }
                    var value = kv[1]
                    if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
                    switch kv[0].lowercased() {
                    case "name": name = value
                    case "filename": filename = value
                    default: break
                    }
                }
                return (name, filename)
            }
            return (nil, nil)
        }
    }
}

/// The file name a form carried, set while the body streams.
final class FileNameBox: @unchecked Sendable {   // guarded by `lock`
    private let lock = NSLock()
    private var name: String?
    func set(_ value: String?) { lock.lock(); name = value; lock.unlock() }
    var value: String? { lock.lock(); defer { lock.unlock() }; return name }
}
