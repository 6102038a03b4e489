import Foundation

/// Where the tests find the package and make their files: one package root, one temporary-folder maker,
/// one way to run the `ffmpeg` CLI (installed by `make setup`) for fixtures (through ``Subprocess``).
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

    /// Runs `ffmpeg -hide_banner -loglevel error -nostdin -y ARGS`.
    /// - Throws: ``Subprocess/Failure`` with ffmpeg's stderr when it fails.
    public static func ffmpeg(_ args: [String]) throws {
        _ = try Subprocess.output("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + args)
    }
}
