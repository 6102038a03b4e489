import Foundation
import Hummingbird

/// Files sent to the browser: whole, or the one byte range a `<video>` asks for (206 with
/// `Content-Range`; 416 with `bytes */SIZE` when the range starts past the end).
enum FileResponses {
    /// The type a browser needs to play or use a file, by extension.
    static func contentType(forPath path: String) -> String {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "mp4", "m4v": return "video/mp4"
        case "mov": return "video/quicktime"
        case "webm": return "video/webm"
        case "mkv": return "video/x-matroska"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "html": return "text/html; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "json": return "application/json"
        case let ext: return MediaType.getMediaType(forExtension: ext)?.description ?? "application/octet-stream"
        }
    }

    /// `path` with Range support.
    /// - Throws: ``APIError`` 404 when the file is gone, 416 when the range cannot be served.
    static func send(_ path: String, request: Request, context: some RequestContext, headers extra: HTTPFields = [:],
                     contentType: String? = nil) async throws -> Response {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = (attributes[.size] as? NSNumber)?.intValue else {
            throw APIError(.notFound, "The file is no longer on the server.")
        }
        var headers: HTTPFields = [.contentType: contentType ?? Self.contentType(forPath: path), .acceptRanges: "bytes"]
        headers.append(contentsOf: extra)
        let io = FileIO(threadPool: .singleton)
        if let header = request.headers[.range] {
            guard let range = byteRange(header, size: size) else {
                headers[.contentRange] = "bytes */\(size)"
                throw RangeNotSatisfiable(headers: headers)
            }
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
            return Response(status: .partialContent, headers: headers,
                            body: try await io.loadFile(path: path, range: range, context: context))
        }
        guard size > 0 else { return Response(status: .ok, headers: headers, body: .init()) }
        return Response(status: .ok, headers: headers, body: try await io.loadFile(path: path, context: context))
    }

    /// The first range of a `Range: bytes=…` header within a file of `size` bytes (`a-b`, `a-`, `-n`), or
    /// `nil` when it is malformed or starts at or past the end.
    static func byteRange(_ header: String, size: Int) -> ClosedRange<Int>? {
        guard header.hasPrefix("bytes="), size > 0 else { return nil }
        let first = header.dropFirst(6).split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let parts = first.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty {
            guard let n = Int(parts[1]), n > 0 else { return nil }
            return max(0, size - n)...(size - 1)
        }
        guard let start = Int(parts[0]), start >= 0, start < size else { return nil }
        let end = parts[1].isEmpty ? size - 1 : min(Int(parts[1]) ?? -1, size - 1)
        return end >= start ? start...end : nil
    }
}

/// 416 with the `Content-Range: bytes */SIZE` a client needs to ask again.
struct RangeNotSatisfiable: Error, HTTPResponseError {
    var headers: HTTPFields
    var status: HTTPResponse.Status { .rangeNotSatisfiable }
    func response(from request: Request, context: some RequestContext) throws -> Response {
        var h = headers
        h[.contentType] = "application/json; charset=utf-8"
        let body = #"{"code":416,"error":"The requested range starts past the end of the file."}"#
        return Response(status: status, headers: h, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

/// Our JS/CSS (`/static/…`) and the vendor libraries (`/vendor/…`). A request path reaches the file
/// system only as checked components below one of these two folders: no `..`, no hidden files, no
/// encoded slashes, nothing outside the folder after resolving links.
struct StaticFiles: Sendable {
    let state: ServerState

    func add(to router: Router<BasicRequestContext>) {
        router.get("static/**") { request, context in
            try await serve(request, context, root: state.web.staticFiles, cache: "no-cache")
        }
        router.get("vendor/**") { request, context in
            guard let vendor = state.web.vendor else {
                throw APIError(.notFound, "The browser libraries are not installed; run `make setup`.")
            }
            return try await serve(request, context, root: vendor, cache: "public, max-age=86400")
        }
    }

    private func serve(_ request: Request, _ context: BasicRequestContext, root: URL, cache: String) async throws -> Response {
        let parts = context.parameters.getCatchAll().map(String.init)
        guard let file = Self.resolve(parts, under: root) else { throw APIError(.notFound, "There is no such file.") }
        return try await FileResponses.send(file.path, request: request, context: context, headers: [.cacheControl: cache])
    }

    /// The file `parts` names under `root`, or `nil` when any part could leave it or is hidden.
    static func resolve(_ parts: [String], under root: URL) -> URL? {
        guard !parts.isEmpty, parts.allSatisfy({ p in
            let decoded = p.removingPercentEncoding ?? p
            return !decoded.isEmpty && !decoded.hasPrefix(".") && !decoded.contains("/") && !decoded.contains("\\")
                && !decoded.contains("\0") && decoded == p
        }) else { return nil }
        let base = root.standardizedFileURL.resolvingSymlinksInPath()
        let file = parts.reduce(base) { $0.appendingPathComponent($1) }.standardizedFileURL.resolvingSymlinksInPath()
        guard file.path.hasPrefix(base.path + "/"), FileManager.default.isReadableFile(atPath: file.path),
              !ResourceLocatorShim.isDirectory(file) else { return nil }
        return file
    }
}

/// `ResourceLocator.isDirectory` without importing the name twice into this file's scope.
enum ResourceLocatorShim {
    static func isDirectory(_ url: URL) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue
    }
}
