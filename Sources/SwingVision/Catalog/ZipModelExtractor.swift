import Foundation
import SwingCore

/// Pulls the single `.onnx` model out of a `.zip` archive with the system `unzip` command.
///
/// Why a command: zip entries are usually deflated and Foundation on Linux exposes no inflate API;
/// `unzip` is installed by `scripts/setup.sh` (and present on macOS). Without it a clear error says so.
enum ZipModelExtractor {
    /// Locates `unzip` on `PATH` (then `/usr/bin`).
    static func unzipPath(environment: [String: String] = ProcessEnvironment.current) -> String? {
        let dirs = (environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
        return dirs.map { $0 + "/unzip" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Extracts the archive's only `.onnx` entry to `destination`.
    /// - Throws: ``CatalogError/zipWithoutModel(_:)``, ``CatalogError/zipWithSeveralModels(_:_:)``,
    ///   ``CatalogError/unzipUnavailable`` or ``CatalogError/notAnONNXModel(_:)`` for an unreadable archive.
    static func extractModel(from archive: URL, to destination: URL) throws {
        guard let unzip = unzipPath() else { throw CatalogError.unzipUnavailable }
        let name = archive.lastPathComponent
        let (listing, listOK) = try run(unzip, ["-l", archive.path], stdout: nil)
        guard listOK else { throw CatalogError.notAnONNXModel(name) }
        let all = Self.entries(String(decoding: listing, as: UTF8.self))
        // Sizes come from the archive's directory, so a zip bomb is refused before a byte is inflated.
        guard all.count <= maxEntries else {
            throw CatalogError.invalidMetadata(name, "the archive has \(all.count) entries; at most \(maxEntries) are read")
        }
        let models = all.filter { $0.name.lowercased().hasSuffix(".onnx") && !$0.name.hasPrefix("__MACOSX/") && !$0.name.hasSuffix("/") }
        let entries = models.map(\.name)
        guard let model = models.first else { throw CatalogError.zipWithoutModel(name) }
        guard entries.count == 1 else { throw CatalogError.zipWithSeveralModels(name, entries) }
        guard model.size <= HTTPDownloader.maxModelBytes else {
            throw CatalogError.invalidMetadata(name, "its model inflates to \(model.size) bytes, over the \(HTTPDownloader.maxModelBytes)-byte limit of a model")
        }
        let entry = model.name
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

    /// Most entries an archive may list.
    static let maxEntries = 10_000

    /// `(name, uncompressed size)` of each row of `unzip -l` (`  Length  Date  Time  Name`).
    static func entries(_ listing: String) -> [(name: String, size: Int64)] {
        listing.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
            guard parts.count == 4, let size = Int64(parts[0]), parts[1].contains("-"), parts[2].contains(":") else { return nil }
            return (String(parts[3].drop { $0 == " " }), size)
        }
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
