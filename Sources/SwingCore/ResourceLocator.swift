import Foundation

/// Finds a folder the package ships (`Models/`, `Web/`, `.deps/web/vendor`): an environment variable
/// first, else the nearest folder with that relative path that passes `accept`, walking up from the
/// executable's folder and then from the current folder. One rule for every shipped resource, so a binary
/// run from `.build/release/` and a test run from the package root find the same files.
package enum ResourceLocator {
    /// Folders walked up per start, at most.
    package static let maxDepth = 12

    /// The folder for `relativePath`, or `nil`: the first of ``folders(_:variable:environment:starts:accept:)``
    /// that `accept`s, else the first folder the variable names (so an error can name it).
    package static func folder(_ relativePath: String, variable: String? = nil,
                              environment: [String: String] = ProcessEnvironment.current,
                              accept: (URL) -> Bool = { ResourceLocator.isDirectory($0) }) -> URL? {
        let found = folders(relativePath, variable: variable, environment: environment, accept: accept)
        return found.first(where: accept) ?? found.first
    }

    /// Every candidate folder for `relativePath`.
    /// - Parameters:
    ///   - relativePath: e.g. `"Models"` or `".deps/web/vendor"`.
    ///   - variable: An environment variable that, when set and non-empty, names the folders outright: one
    ///     path, or several separated by `:` as in `PATH` (they are returned as named, accepted or not).
    ///   - starts: Where the walks up begin (default: the executable's folder, then the current folder).
    ///   - accept: Whether a folder found walking up is the right one (e.g. holds the expected files).
    /// - Returns: The variable's folders, or else the nearest accepted folder from each start, without repeats.
    package static func folders(_ relativePath: String, variable: String? = nil,
                               environment: [String: String] = ProcessEnvironment.current,
                               starts: [URL] = defaultStarts,
                               accept: (URL) -> Bool = { ResourceLocator.isDirectory($0) }) -> [URL] {
        if let variable, let list = environment[variable], !list.isEmpty {
            return list.split(separator: ":").map { URL(fileURLWithPath: String($0), isDirectory: true) }
        }
        var found: [URL] = []
        for start in starts {
            var dir = start.standardizedFileURL
            for _ in 0..<maxDepth {
                let candidate = dir.appendingPathComponent(relativePath, isDirectory: true)
                if accept(candidate) {
                    if !found.contains(candidate) { found.append(candidate) }
                    break
                }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        return found
    }

    /// The executable's folder, then the current folder.
    package static var defaultStarts: [URL] {
        (Bundle.main.executableURL.map { [$0.deletingLastPathComponent()] } ?? [])
            + [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
    }

    /// Whether `url` is an existing folder.
    package static func isDirectory(_ url: URL) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue
    }
}
