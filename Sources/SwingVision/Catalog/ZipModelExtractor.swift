import Foundation

/// Pulls the single `.onnx` model out of a `.zip` archive with the system `unzip` command.
///
/// Why a command: zip entries are usually deflated and Foundation on Linux exposes no inflate API;
/// `unzip` is installed by `scripts/setup.sh` (and present on macOS). Without it a clear error says so.
enum ZipModelExtractor {
    /// Locates `unzip` on `PATH` (then `/usr/bin`).
    static func unzipPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let dirs = (environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
        return dirs.map { $0 + "/unzip" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Extracts the archive's only `.onnx` entry to `destination`.
    /// - Throws: ``CatalogError/zipWithoutModel(_:)``, ``CatalogError/zipWithSeveralModels(_:_:)``,
    ///   ``CatalogError/unzipUnavailable`` or ``CatalogError/notAnONNXModel(_:)`` for an unreadable archive.
    static func extractModel(from archive: URL, to destination: URL) throws {
        guard let unzip = unzipPath() else { throw CatalogError.unzipUnavailable }
        let name = archive.lastPathComponent
        let (listing, listOK) = try run(unzip, ["-Z1", archive.path], stdout: nil)
        guard listOK else { throw CatalogError.notAnONNXModel(name) }
        let entries = String(decoding: listing, as: UTF8.self).split(separator: "\n").map(String.init)
            .filter { $0.lowercased().hasSuffix(".onnx") && !$0.hasPrefix("__MACOSX/") && !$0.hasSuffix("/") }
        guard let entry = entries.first else { throw CatalogError.zipWithoutModel(name) }
        guard entries.count == 1 else { throw CatalogError.zipWithSeveralModels(name, entries) }
        guard FileManager.default.createFile(atPath: destination.path, contents: nil),
              let out = try? FileHandle(forWritingTo: destination) else {
            throw CatalogError.fileSystem("cannot write \(destination.path)")
        }
        defer { try? out.close() }
        // `unzip` treats [ ] * ? in entry names as wildcards; escape them so the exact entry is read.
        let literal = entry.replacingOccurrences(of: "[", with: "[[]")
            .replacingOccurrences(of: "*", with: "[*]").replacingOccurrences(of: "?", with: "[?]")
        let (_, ok) = try run(unzip, ["-p", archive.path, literal], stdout: out)
        guard ok else { throw CatalogError.notAnONNXModel(name) }
    }

    /// Runs a command; returns captured stdout (when not redirected) and whether it exited 0.
    private static func run(_ path: String, _ args: [String], stdout: FileHandle?) throws -> (Data, Bool) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        let pipe = Pipe()
        p.standardOutput = stdout ?? pipe
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { throw CatalogError.unzipUnavailable }
        let data = stdout == nil ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
        p.waitUntilExit()
        return (data, p.terminationStatus == 0)
    }
}
