import Foundation

/// Where the tests find the package and make their files: one package root, one temporary-folder maker,
/// one way to run the `ffmpeg` CLI (installed by `make setup`) for fixtures (through ``Subprocess``).
package enum TestFiles {
    /// The folder holding `Package.swift` (this file is `Sources/SwingTestSupport/TestFiles.swift`).
    package static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A file or folder of the package, e.g. `"Samples/demo_session.mp4"`.
    package static func package(_ relativePath: String) -> URL { packageRoot.appendingPathComponent(relativePath) }

    /// ``temporaryDirectory(_:)`` for a fixture that lives as long as the test process (made once in a `static let`,
    /// or handed to an object nobody closes): removed with everything in it when the process exits.
    package static func processDirectory(_ tag: String) throws -> URL {
        let url = try temporaryDirectory(tag)
        let first = exitLock.withLock { removedAtExit.append(url); return removedAtExit.count == 1 }
        if first {
            atexit {
                for url in TestFiles.exitLock.withLock({ TestFiles.removedAtExit }) { try? FileManager.default.removeItem(at: url) }
            }
        }
        return url
    }

    /// The folders ``processDirectory(_:)`` made, guarded by `exitLock`.
    private nonisolated(unsafe) static var removedAtExit: [URL] = []
    private static let exitLock = NSLock()

    /// A new, empty, uniquely named temporary folder; the caller removes it.
    package static func temporaryDirectory(_ tag: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("swingmaster-\(tag)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A TCP port nobody listens on now (the kernel's pick for port 0).
    package static func freePort() throws -> Int {
        #if canImport(Glibc)
        let stream = Int32(SOCK_STREAM.rawValue)
        #else
        let stream = SOCK_STREAM
        #endif
        let fd = socket(AF_INET, stream, 0)
        guard fd >= 0 else { throw Subprocess.Failure(description: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw Subprocess.Failure(description: "Could not find a free port.") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The Python with numpy and scipy the tools need: `$SWINGMASTER_PYTHON` (set by `make test`), else the
    /// project's `.deps/venv`, else `python3`.
    package static var python: String {
        if let p = ProcessInfo.processInfo.environment["SWINGMASTER_PYTHON"], !p.isEmpty { return p }
        let venv = package(".deps/venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : "python3"
    }

    /// The Python the reference implementations run with (`tools/reference_*.py`): `$SWINGMASTER_PYTHON`, else
    /// the project's `.deps/venv`; `nil` when neither is there (the suites comparing with them are skipped).
    package static var referencePython: String? {
        let candidates: [String?] = [ProcessInfo.processInfo.environment["SWINGMASTER_PYTHON"], package(".deps/venv/bin/python").path]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs ``referencePython`` with `args` and returns what it printed.
    /// - Throws: ``Subprocess/Failure`` when there is no such Python or it fails.
    package static func runReference(_ args: [String]) throws -> Data {
        guard let python = referencePython else { throw Subprocess.Failure(description: "No Python found: set SWINGMASTER_PYTHON or run scripts/setup.sh.") }
        return try Subprocess.output(python, args)
    }

    /// Runs `ffmpeg -hide_banner -loglevel error -nostdin -y ARGS`.
    /// - Throws: ``Subprocess/Failure`` with ffmpeg's stderr when it fails.
    package static func ffmpeg(_ args: [String]) throws {
        _ = try Subprocess.output("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + args)
    }
}
