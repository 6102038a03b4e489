import Foundation
import SwingCore

/// Where the catalog looks for and installs models.
package struct CatalogLocations: Sendable, Equatable {
    /// Read-only directories of bundled `.onnx` models.
    package var bundledDirectories: [URL]
    /// `$SWINGMASTER_HOME` (default `~/.swingmaster`): models go to `models/`, partial downloads to `cache/`.
    package var home: URL

    package init(bundledDirectories: [URL], home: URL) {
        self.bundledDirectories = bundledDirectories; self.home = home
    }

    /// Installed (local and downloaded) models.
    package var modelsDirectory: URL { home.appendingPathComponent("models", isDirectory: true) }
    /// Partial downloads, keyed by the SHA-256 of their URL.
    package var cacheDirectory: URL { home.appendingPathComponent("cache", isDirectory: true) }

    /// The usual locations: `SWINGMASTER_MODELS` (one folder, or several separated by `:`) or the first
    /// `Models/` folder found walking up from the executable and from the working directory (``ResourceLocator``); `SWINGMASTER_HOME` or `~/.swingmaster`.
    /// - Parameters:
    ///   - environment: process environment.
    ///   - executable: path of the running executable (walk starts at its directory).
    ///   - workingDirectory: the current directory.
    package static func standard(environment: [String: String] = ProcessEnvironment.current,
                                executable: URL? = Bundle.main.executableURL,
                                workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        -> CatalogLocations {
        let home = SwingmasterHome.url(environment: environment)
        let found = ResourceLocator.folders("Models", variable: "SWINGMASTER_MODELS", environment: environment,
                                            starts: [executable?.deletingLastPathComponent(), workingDirectory].compactMap { $0 })
        return CatalogLocations(bundledDirectories: found, home: home)
    }
}
