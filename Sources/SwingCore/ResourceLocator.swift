import Foundation

/// Finds a folder the package ships (`Models/`, `Web/`, `.deps/web/vendor`): an environment variable
/// first, else the nearest folder with that relative path that passes `accept`, walking up from the
/// executable's folder and then from the current folder. One rule for every shipped resource, so a binary
/// run from `.build/release/` and a test run from the package root find the same files.
public enum ResourceLocator {
    /// Folders walked up per start, at most.
    public static let maxDepth = 12

    /// The folder for `relativePath`, or `nil`.
    /// - Parameters:
    ///   - relativePath: e.g. `"Models"` or `".deps/web/vendor"`.
    ///   - variable: An environment variable that, when set and non-empty, names the folder outright.
    ///   - accept: Whether a candidate folder is the right one (e.g. holds the expected files).
    public static func folder(_ relativePath: String, variable: String? = nil,
                              environment: [String: String] = ProcessInfo.processInfo.environment,
                              accept: (URL) -> Bool = { ResourceLocator.isDirectory($0) }) -> URL? {
        if let variable, let dir = environment[variable], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        var starts: [URL] = []
        if let exe = Bundle.main.executableURL { starts.append(exe.deletingLastPathComponent()) }
        starts.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        for start in starts {
            var dir = start.standardizedFileURL
            for _ in 0..<maxDepth {
                let candidate = dir.appendingPathComponent(relativePath)
                if accept(candidate) { return candidate }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        return nil
    }

    /// Whether `url` is an existing folder.
    public static func isDirectory(_ url: URL) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue
    }
}
