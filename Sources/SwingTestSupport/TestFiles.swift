import Foundation

/// Where the tests find the package and make their files: one package root, one temporary-folder maker,
/// one way to run the `ffmpeg` CLI (installed by `make setup`) for fixtures.
public enum TestFiles {
    /// The folder holding `Package.swift` (this file is `Sources/SwingTestSupport/TestFiles.swift`).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A file or folder of the package, e.g. `"Samples/demo_session.mp4"`.
    public static func package(_ relativePath: String) -> URL { packageRoot.appendingPathComponent(relativePath) }

    /// A new, empty, uniquely named temporary folder; the caller removes it.
    public static func temporaryDirectory(_ tag: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("swingmaster-\(tag)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Why the `ffmpeg` CLI failed: its arguments and what it wrote to stderr.
    public struct FFmpegFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `ffmpeg -hide_banner -loglevel error -nostdin -y ARGS`; throws with its stderr when it fails.
    public static func ffmpeg(_ args: [String]) throws {
        let proc = Process()
        proc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        proc.arguments = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + args
        let err = Pipe()
        proc.standardError = err
        proc.standardOutput = FileHandle.nullDevice
        try proc.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        proc.waitUntilExit()
        guard proc.terminationStatus == 0 else {
            throw FFmpegFailure(description: "ffmpeg \(args.joined(separator: " ")) failed: \(String(decoding: data, as: UTF8.self))")
        }
    }
}
