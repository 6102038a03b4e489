import Foundation
import SwingCore

/// Where the catalog looks for and installs models.
public struct CatalogLocations: Sendable, Equatable {
    /// Read-only directories of bundled `.onnx` models.
    public var bundledDirectories: [URL]
    /// `$SWINGMASTER_HOME` (default `~/.swingmaster`): models go to `models/`, partial downloads to `cache/`.
    public var home: URL

    public init(bundledDirectories: [URL], home: URL) {
        self.bundledDirectories = bundledDirectories; self.home = home
    }

    /// Installed (local and downloaded) models.
    public var modelsDirectory: URL { home.appendingPathComponent("models", isDirectory: true) }
    /// Partial downloads, keyed by the SHA-256 of their URL.
    public var cacheDirectory: URL { home.appendingPathComponent("cache", isDirectory: true) }

    /// The usual locations: `SWINGMASTER_MODELS` (colon-separated) or the first `Models/` directory found
    /// walking up from the executable and from the working directory; `SWINGMASTER_HOME` or `~/.swingmaster`.
    /// - Parameters:
    ///   - environment: process environment.
    ///   - executable: path of the running executable (walk starts at its directory).
    ///   - workingDirectory: the current directory.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment,
                                executable: URL? = Bundle.main.executableURL,
                                workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        -> CatalogLocations {
        let home = SwingmasterHome.url(environment: environment)
        if let m = environment["SWINGMASTER_MODELS"] {
            let dirs = m.split(separator: ":").map { URL(fileURLWithPath: String($0), isDirectory: true) }
            return CatalogLocations(bundledDirectories: dirs, home: home)
        }
        var found: [URL] = []
        for start in [executable?.deletingLastPathComponent(), workingDirectory].compactMap({ $0 }) {
            var dir = start.standardizedFileURL
            for _ in 0..<8 {
                let candidate = dir.appendingPathComponent("Models", isDirectory: true)
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDir), isDir.boolValue {
                    if !found.contains(candidate) { found.append(candidate) }
                    break
                }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        return CatalogLocations(bundledDirectories: found, home: home)
    }
}
