import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for the catalog tests: real sockets, one connection at a time,
/// `Connection: close`. Routes can serve a body (honouring `Range` or not), fail with a status, or
/// promise a full `Content-Length` and hang up early (a truncated transfer). It stops itself after
/// `lifetime` seconds even if a test forgets to call ``stop()``: a safety net only, so it is long —
/// with the whole suite running on two cores an async test can wait minutes for a thread between two
/// requests (a 60 s lifetime closed the server under CI's load and failed four download tests).
final class LoopbackHTTPServer: @unchecked Sendable {
    enum Route: Sendable {
        /// Serve `body`; with `ranges`, answer `Range: bytes=N-` with 206.
        case body(Data, ranges: Bool = true)
        /// Answer with this status and a short text body.
        case status(Int)
        /// Send headers for all of `body` but only its first `sentBytes` bytes, then close.
        case truncated(Data, sentBytes: Int)
        /// A body with no `Content-Length` that never ends (the server stops after `limit` bytes or
        /// when the client hangs up, so a test stays bounded).
        case endless(limit: Int)
        /// Announces `announced` bytes in `Content-Length` and sends a few.
        case announces(Int)
        /// Answers every `Range` request with 206 but a `Content-Range` that starts at 0, then the whole body.
        case wrongRange(Data)
    }

    struct Request: Sendable, Equatable { var path: String; var range: String? }

    private let lock = NSLock()
    private var routes: [String: Route] = [:]
    private var log: [Request] = []
    private var listener: Int32 = -1
    private var running = true
    private(set) var port: UInt16 = 0

    /// Starts listening on an ephemeral loopback port.
    init(lifetime: Double = 1800) throws {
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else { close(listener); throw POSIXError(.EADDRINUSE) }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &len) }
        }
        port = UInt16(bigEndian: addr.sin_port)
        let deadline = Date().addingTimeInterval(lifetime)
        let thread = Thread { [self] in serve(until: deadline) }
        thread.start()
    }

    deinit { stop() }

    /// The URL of `path` on this server.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path.hasPrefix("/") ? path : "/" + path)")!
    }

    func setRoute(_ path: String, _ route: Route) { lock.lock(); routes[path] = route; lock.unlock() }

    /// Requests seen so far.
    var requests: [Request] { lock.lock(); defer { lock.unlock() }; return log }

    func stop() {
        lock.lock(); defer { lock.unlock() }
        guard running else { return }
        running = false
    }

    private var isRunning: Bool { lock.lock(); defer { lock.unlock() }; return running }

    private func serve(until deadline: Date) {
        defer { close(listener) }
        while isRunning, Date() < deadline {
            var pfd = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            handle(client)
            close(client)
        }
        stop()
    }

    private func handle(_ fd: Int32) {
        var tv = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var request = [UInt8]()
        var buf = [UInt8](repeating: 0, count: 4096)
        while request.count < 65536 {
            let n = recv(fd, &buf, buf.count, 0)
            guard n > 0 else { break }
            request += buf[0..<n]
            if request.count >= 4, Array(request.suffix(4)) == [13, 10, 13, 10] { break }
        }
        let text = String(decoding: request, as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        let parts = (lines.first ?? "").split(separator: " ")
        let path = parts.count > 1 ? String(parts[1]) : "/"
        let range = lines.first { $0.lowercased().hasPrefix("range:") }
            .map { $0.dropFirst(6).trimmingCharacters(in: .whitespaces) }
        lock.lock()
        log.append(Request(path: path, range: range))
        let route = routes[path]
        lock.unlock()

        switch route {
        case nil: respond(fd, 404, body: Data("not found".utf8))
        case .status(let code)?: respond(fd, code, body: Data("error \(code)".utf8))
        case .truncated(let body, let sent)?:
            send(fd, header(200, length: body.count))
            send(fd, body.prefix(sent))
        case .endless(let limit)?:
            send(fd, Data("HTTP/1.1 200 X\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n".utf8))
            let chunk = Data(count: 1 << 16)
            var sent = 0
            while sent < limit, sendAll(fd, chunk) { sent += chunk.count }
        case .announces(let n)?:
            send(fd, header(200, length: n))
            send(fd, Data(count: 1024))
        case .wrongRange(let body)?:
            if range != nil {
                send(fd, header(206, length: body.count, extra: "Content-Range: bytes 0-\(body.count - 1)/\(body.count)\r\n"))
                send(fd, body)
            } else {
                respond(fd, 200, body: body)
            }
        case .body(let body, let ranges)?:
            if ranges, let range, range.hasPrefix("bytes="),
               let start = Int(range.dropFirst(6).prefix { $0.isNumber }) {
                guard start < body.count else {
                    respond(fd, 416, body: Data(), extra: "Content-Range: bytes */\(body.count)\r\n"); return
                }
                send(fd, header(206, length: body.count - start,
                                extra: "Content-Range: bytes \(start)-\(body.count - 1)/\(body.count)\r\n"))
                send(fd, body.suffix(from: body.startIndex + start))
            } else {
                respond(fd, 200, body: body)
            }
        }
    }

    private func header(_ code: Int, length: Int, extra: String = "") -> Data {
        Data("HTTP/1.1 \(code) X\r\nContent-Length: \(length)\r\nContent-Type: application/octet-stream\r\n\(extra)Connection: close\r\n\r\n".utf8)
    }

    private func respond(_ fd: Int32, _ code: Int, body: Data, extra: String = "") {
        send(fd, header(code, length: body.count, extra: extra))
        send(fd, body)
    }

    private func send(_ fd: Int32, _ data: Data) { _ = sendAll(fd, data) }

    /// Sends all of `data`; false when the peer has gone.
    private func sendAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + off, raw.count - off, Int32(MSG_NOSIGNAL))
                if n <= 0 { return false }
                off += n
            }
            return true
        }
    }
}
