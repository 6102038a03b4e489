import Foundation
import SwingTestSupport
@testable import SwingVision

/// `Fixtures/download_server.py`, a misbehaving HTTP server on 127.0.0.1, run as a child process for one
/// test (its behaviours are listed in the script). Being another process, the bytes it pushes cost the
/// test process nothing but what the downloader itself keeps; it exits when our end of its stdin closes
/// (``stop()``, or this process dying), or after `lifetime` seconds.
final class DownloadServer: @unchecked Sendable {
    /// One request the server saw.
    struct Request: Sendable, Equatable { var path: String; var range: String? }

    let port: Int
    private let child: Child
    private let log: URL

    /// Starts the server, serving `file` as the body of its routes.
    /// - Throws: When python3 cannot start or does not print its port within 30 s.
    init(serving file: URL, lifetime: Double = 600) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("swingmaster-dlserver-\(UUID().uuidString).log")
        child = try Child("python3", [TestFiles.package("Tests/SwingDownloadTests/Fixtures/download_server.py").path,
                                      "--file", file.path, "--log", log.path, "--lifetime", "\(lifetime)", "--exit-on-stdin-eof"],
                          input: .pipe, output: .pipe)
        let text = child.lineBlocking(seconds: 30) ?? ""
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5).prefix { $0.isNumber }) else {
            child.closeInputAndEnd()
            throw DownloadServerError(message: "download_server.py did not start: \(text)")
        }
        self.port = port
    }

    deinit { stop() }

    /// The URL of `path` (which may carry a query) on this server.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path.hasPrefix("/") ? path : "/" + path)") ?? URL(fileURLWithPath: "/")
    }

    /// Requests seen so far, in order.
    var requests: [Request] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            let range = f.count > 1 && f[1] != "-" ? String(f[1]) : nil
            return Request(path: String(f[0]), range: range)
        }
    }

    /// Ends the server (our child) and removes its log: closing its stdin ends it at once; SIGKILL to its PID
    /// if it is still there after 5 s.
    func stop() {
        child.closeInputAndEnd()
        try? FileManager.default.removeItem(at: log)
    }
}

struct DownloadServerError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// The bytes `download_server.py` serves for `?bytes=n`: (i * 7 + 3) mod 256.
func generatedBody(_ n: Int) -> Data {
    Data((0..<n).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
}
