import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes received so far and the expected total (when the server said).
package struct DownloadProgress: Sendable, Equatable {
    /// Bytes in the file so far, including those kept from an earlier, interrupted attempt.
    package var bytesReceived: Int64
    /// The whole file's size when the server announced it.
    package var totalBytes: Int64?
    /// 0…1, or `nil` when the total is unknown.
    package var fraction: Double? {
        guard let t = totalBytes, t > 0 else { return nil }
        return min(1, Double(bytesReceived) / Double(t))
    }
}

/// Downloads one URL into a partial file, resuming with an HTTP `Range` request when the partial file
/// already holds bytes (a server that ignores `Range` and answers 200 makes it start over).
///
/// The body is streamed to disk through AsyncHTTPClient's back-pressured response sequence: the socket
/// is read only as fast as its pieces (64 KiB at most, a few in flight) are taken and written, so memory
/// stays flat whatever the server sends and however fast. FoundationNetworking's URLSession, used before,
/// kept what it had not yet handed over: an endless body grew the process to 1.1 GB (22.6 GB seen on a
/// busy machine) before the size limit stopped it; now about 60 MB at 0.5–0.7 GB/s (bench/download.sh).
///
/// The partial file is left in place when a transfer breaks off (network error, timeout, a body shorter
/// than announced) so the next attempt resumes; it is removed when the server is refused outright (over
/// the size limit) and when it would be empty. The caller verifies and installs it.
struct HTTPDownloader: Sendable {
    /// Seconds without data before giving up (waiting for the answer, or between two reads). Default 60.
    var idleTimeout: Double = 60
    /// Seconds to establish the connection (TCP and TLS). Default 30.
    var connectTimeout: Double = 30
    /// Largest body accepted: an ONNX model cannot exceed protobuf's 2 GiB, so a server that announces
    /// or sends more is not sending a model (an endless body filled 32 GB of disk before this limit).
    var maxBytes: Int64 = HTTPDownloader.maxModelBytes
    /// Redirects followed before giving up.
    var maxRedirects = 5

    /// 2 GiB, the protobuf message limit that bounds every `.onnx` file.
    static let maxModelBytes: Int64 = 2 << 30

    /// Result of one transfer.
    struct Outcome: Sendable { var resumedFrom: Int64; var bytes: Int64 }

    /// Fetches `url` into `partial`.
    /// - Parameters:
    ///   - url: An http(s) URL.
    ///   - partial: The file to continue (or create); it holds the whole body on success.
    ///   - progress: Called after each piece of the body is written, on the calling task.
    /// - Throws: ``CatalogError/downloadFailed(url:reason:)`` on HTTP errors, timeouts, bodies over
    ///   ``maxBytes`` or shorter than announced, and network failures; ``CatalogError/fileSystem(_:)`` when the
    ///   partial file cannot be written; `CancellationError` when the task is cancelled.
    func fetch(_ url: URL, into partial: URL, progress: (@Sendable (DownloadProgress) -> Void)?) async throws -> Outcome {
        // One client per download, on NIO's process-wide event loops (no threads of its own), shut down
        // before returning whatever happened.
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)
        let outcome: Result<Outcome, any Error>
        do {
            outcome = .success(try await transfer(url, into: partial, client: client, progress: progress, mayRestart: true))
        } catch {
            outcome = .failure(error)
        }
        // A transfer broken off mid-body (the limit, a cancellation) makes the shutdown "unclean": the
        // connection is closed all the same, and there is nothing to report beyond the download's own error.
        try? await client.shutdown()
        if case .failure = outcome, PartialFile.size(of: partial) == 0 {
            try? FileManager.default.removeItem(at: partial)   // nothing to resume: leave no empty file
        }
        return try outcome.get()
    }

    private var clientConfiguration: HTTPClient.Configuration {
        var pool = HTTPClient.Configuration.ConnectionPool()
        // A refused connection fails at once (AsyncHTTPClient otherwise retries until the connect timeout).
        pool.retryConnectionEstablishment = false
        return HTTPClient.Configuration(
            redirectConfiguration: .follow(max: maxRedirects, allowCycles: false),
            timeout: .init(connect: .nanoseconds(Int64(connectTimeout * 1e9)), read: .nanoseconds(Int64(idleTimeout * 1e9))),
            connectionPool: pool,
            decompression: .disabled)   // the bytes as served: the checksum is of the file, not of its inflation
    }

    /// One request; restarts once from byte 0 when a resume cannot continue the partial file.
    private func transfer(_ url: URL, into partial: URL, client: HTTPClient,
                          progress: (@Sendable (DownloadProgress) -> Void)?, mayRestart: Bool) async throws -> Outcome {
        let file = try PartialFile(partial)
        defer { file.close() }
        let existing = file.size
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "User-Agent", value: "swingmaster")
        if existing > 0 { request.headers.add(name: "Range", value: "bytes=\(existing)-") }

        let response: HTTPClientResponse
        do {
            // The deadline covers connecting and the answer's head; the read timeout (idleTimeout) usually
            // fires first. The body has no deadline: a 2 GiB model on a slow line takes what it takes.
            let headDeadline = connectTimeout + idleTimeout + 1
            response = try await client.execute(request, timeout: .nanoseconds(Int64(headDeadline * 1e9)))
        } catch {
            throw failure(error, url: url, received: existing, expected: nil, inBody: false)
        }

        let announced = response.headers.first(name: "Content-Length").flatMap { Int64($0) }
        let base: Int64, expected: Int64?
        switch response.status.code {
        case 206 where existing > 0 && Self.contentRangeStart(response.headers) == existing:
            try file.seekToEnd()
            base = existing
            expected = announced.map { $0 + existing }
        case 206, 416:
            // The resume was refused or answered with another range: start over from byte 0, once (the
            // file is then empty, so a second refusal is an error).
            guard mayRestart, existing > 0 else {
                throw CatalogError.downloadFailed(url: url.absoluteString, reason: "the server answered a partial range to a full request")
            }
            try file.truncate()
            file.close()
            return try await transfer(url, into: partial, client: client, progress: progress, mayRestart: false)
        case 200:
            // The full body (a fresh start, or a server that ignores Range): the file starts over.
            try file.truncate()
            base = 0
            expected = announced
        default:
            throw CatalogError.downloadFailed(url: url.absoluteString, reason: "the server answered HTTP \(response.status.code)")
        }
        if let expected, expected > maxBytes {
            file.close()
            try? FileManager.default.removeItem(at: partial)
            throw tooLarge(url, announced: expected)
        }

        var written = base
        do {
            for try await buffer in response.body {
                let count = Int64(buffer.readableBytes)
                guard written + count <= maxBytes else {
                    // Not a model: nothing worth resuming. Leaving the loop closes the connection.
                    file.close()
                    try? FileManager.default.removeItem(at: partial)
                    throw tooLarge(url, announced: nil)
                }
                try file.write(buffer)
                written += count
                progress?(DownloadProgress(bytesReceived: written, totalBytes: expected))
            }
        } catch let error as CatalogError {
            throw error
        } catch {
            throw failure(error, url: url, received: written, expected: expected, inBody: true)
        }
        try Task.checkCancellation()
        if let expected, written != expected {
            // Fewer bytes than announced and a clean end: the server closed the connection early.
            throw CatalogError.downloadFailed(url: url.absoluteString,
                                              reason: "the transfer stopped after \(written) of \(expected) bytes; run the same command again to resume")
        }
        return Outcome(resumedFrom: base, bytes: written)
    }

    private func tooLarge(_ url: URL, announced: Int64?) -> CatalogError {
        let what = announced.map { "announces \($0) bytes" } ?? "sends more than \(maxBytes) bytes"
        return .downloadFailed(url: url.absoluteString,
                               reason: "the server \(what), over the \(maxBytes)-byte limit of a model; nothing was kept")
    }

    /// The one sentence for an error from the HTTP client, or `CancellationError` when the task was cancelled.
    private func failure(_ error: any Error, url: URL, received: Int64, expected: Int64?, inBody: Bool) -> any Error {
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        let resume = "; run the same command again to resume"
        let sofar = expected.map { "\(received) of \($0) bytes" } ?? "\(received) bytes"
        let reason: String
        switch error {
        case let e as HTTPClientError:
            switch e {
            case .readTimeout, .deadlineExceeded:
                reason = inBody ? "no data arrived for \(Self.seconds(idleTimeout)) after \(sofar)\(resume)"
                                : "the server did not answer within \(Self.seconds(idleTimeout))"
            case .connectTimeout, .tlsHandshakeTimeout:
                reason = "no connection to \(url.host ?? "the server") within \(Self.seconds(connectTimeout))"
            case .redirectLimitReached:
                reason = "the server redirected more than \(maxRedirects) times"
            case .redirectCycleDetected:
                reason = "the server's redirects go round in a circle"
            case .cancelled:
                return CancellationError()
            default:
                reason = inBody ? "the transfer stopped after \(sofar) (\(Self.describe(e)))\(resume)"
                                : "the request failed (\(Self.describe(e)))"
            }
        case let e as IOError where !inBody && Self.connectErrnos.contains(e.errnoCode):
            reason = "cannot connect to \(url.host ?? "the server") port \(url.port ?? (url.scheme == "https" ? 443 : 80)) (\(Self.describe(e)))"
        case let e as NIOConnectionError:
            reason = e.dnsAError != nil && e.connectionErrors.isEmpty
                ? "the host \(e.host) could not be found"
                : "cannot connect to \(e.host) port \(e.port)\(e.connectionErrors.first.map { " (\(Self.describe($0.error)))" } ?? "")"
        default:
            reason = inBody ? "the transfer stopped after \(sofar) (\(Self.describe(error)))\(resume)"
                            : "the request failed (\(Self.describe(error)))"
        }
        return CatalogError.downloadFailed(url: url.absoluteString, reason: reason)
    }

    /// The errors of a connection that could not be made.
    private static let connectErrnos: Set<Int32> = [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ETIMEDOUT, EADDRNOTAVAIL]

    /// A short phrase for a lower-level error, without the type names of the libraries underneath.
    private static func describe(_ error: any Error) -> String {
        switch error {
        case let e as IOError: return String(cString: strerror(e.errnoCode)).lowercased()
        case let e as HTTPClientError where e == .remoteConnectionClosed: return "the server closed the connection"
        case let e as HTTPParserError where e == .invalidEOFState: return "the server closed the connection"
        case let e as HTTPParserError: return "the server's HTTP was malformed: \(e)"
        default: return "\(error)"
        }
    }

    static func seconds(_ s: Double) -> String {
        let n = s == s.rounded() ? String(Int(s)) : String(s)
        return s == 1 ? "1 second" : "\(n) seconds"
    }

    static func contentRangeStart(_ headers: HTTPHeaders) -> Int64? {
        // "bytes 100-999/1000"
        guard let v = headers.first(name: "Content-Range"), v.hasPrefix("bytes ") else { return nil }
        return Int64(v.dropFirst(6).prefix { $0.isNumber })
    }
}

// The class below has `write` and `close` methods of its own.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, bytes, count)
    #else
    Darwin.write(fd, bytes, count)
    #endif
}

private func systemClose(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(fd)
    #else
    Darwin.close(fd)
    #endif
}

/// The partial download on disk, written with `write(2)` straight from the network's buffers.
private final class PartialFile {
    private var fd: Int32
    private let path: String

    /// Opens (creating) `url` for writing.
    init(_ url: URL) throws {
        path = url.path
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CatalogError.fileSystem("cannot write \(path): \(String(cString: strerror(errno)))") }
    }

    deinit { close() }

    /// Its current size in bytes.
    var size: Int64 {
        var st = stat()
        return fstat(fd, &st) == 0 ? Int64(st.st_size) : 0
    }

    /// The size of the file at `url`, 0 when it is missing.
    static func size(of url: URL) -> Int64 {
        var st = stat()
        return stat(url.path, &st) == 0 ? Int64(st.st_size) : 0
    }

    func seekToEnd() throws {
        guard lseek(fd, 0, SEEK_END) >= 0 else { throw CatalogError.fileSystem("cannot append to the partial download \(path)") }
    }

    func truncate() throws {
        guard ftruncate(fd, 0) == 0, lseek(fd, 0, SEEK_SET) == 0 else {
            throw CatalogError.fileSystem("cannot restart the partial download \(path)")
        }
    }

    func write(_ buffer: ByteBuffer) throws {
        try buffer.withUnsafeReadableBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let n = systemWrite(fd, base + offset, raw.count - offset)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else {
                    throw CatalogError.fileSystem("cannot write the download to \(path): \(String(cString: strerror(errno)))")
                }
                offset += n
            }
        }
    }

    /// Closes the file (again: nothing).
    func close() {
        guard fd >= 0 else { return }
        _ = systemClose(fd)
        fd = -1
    }
}
