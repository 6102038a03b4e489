import ArgumentParser
import Foundation
import SwingCore
import SwingPose

/// The files a command writes (`--json`, `--csv`, `--save`, `--save-video`): refused when they would
/// overwrite an input, checked before any work starts, and written through a temporary file in the same
/// folder that is renamed into place, so a failure leaves neither a half-written file nor a damaged one.
enum OutputFile {
    /// A requested output: its flag (for messages) and path (`nil` when not requested, `-` for stdout).
    typealias Request = (flag: String, path: String?)

    /// Throws when an output names the same file as an input or a model (also through a symlink or a
    /// hard link): `swingmaster analyze X.mp4 --save-video X.mp4` must not destroy the video.
    static func refuseInputs(_ outputs: [Request], inputs: [String]) throws {
        for (flag, path) in outputs {
            guard let path, path != "-", let out = identity(path) else { continue }   // a new file is no input
            if let input = inputs.first(where: { identity($0) == out }) {
                throw ValidationError("\(flag) \(path) is the input \(input); choose another output file.")
            }
        }
    }

    /// Throws the output-error code (17) unless every output's folder exists and is writable and the
    /// output itself, if it exists, is a regular file — checked before the work, not after it.
    static func checkWritable(_ outputs: [Request]) throws {
        for (flag, path) in outputs {
            guard let path, path != "-" else { continue }
            let url = URL(fileURLWithPath: path)
            let folder = url.deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CLIError.cannotWrite(path, flag: flag, "the folder \(folder) does not exist")
            }
            guard access(folder, W_OK) == 0 else {
                throw CLIError.cannotWrite(path, flag: flag, "the folder \(folder) is not writable")
            }
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw CLIError.cannotWrite(path, flag: flag, "it is a folder")
            }
            // A device, pipe or socket (/dev/full, /dev/stdout, a FIFO) would be replaced by the rename that
            // puts the finished file in place, not written to: refused.
            var s = stat()
            if stat(path, &s) == 0, (s.st_mode & S_IFMT) != S_IFREG {
                throw CLIError.cannotWrite(path, flag: flag, "it is not a regular file (a device, pipe or socket); choose a file")
            }
        }
    }

    /// Runs `body` with a temporary path beside `path` (same folder and extension, so encoders pick the
    /// same format) and renames it to `path` when `body` returns; removes it when `body` throws.
    /// - Throws: what `body` throws, or the output-error code when the rename fails.
    static func write<T>(_ path: String, _ body: (String) async throws -> T) async throws -> T {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".swingmaster-\(UUID().uuidString.prefix(8))-\(url.lastPathComponent)").path
        do {
            let value = try await body(temporary)
            guard rename(temporary, path) == 0 else {
                let reason = String(cString: strerror(errno))
                throw CLIError.cannotWrite(path, reason)
            }
            return value
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// ``write(_:_:)`` when `path` is given, else `body(nil)`.
    static func write<T>(optional path: String?, _ body: (String?) async throws -> T) async throws -> T {
        guard let path else { return try await body(nil) }
        return try await write(path) { try await body($0) }
    }

    /// The BlazePose model files (an output must not replace them either).
    static func poseModelFiles(_ folder: String?) -> [String] {
        guard let dir = try? PoseModels.directory(folder.map { URL(fileURLWithPath: $0) }) else { return [] }
        return [PoseModels.detectorFile, PoseModels.landmarkFile].map { dir.appendingPathComponent($0).path }
    }

    /// Device and inode of an existing file (following symlinks), `nil` when there is none.
    private static func identity(_ path: String) -> [UInt64]? {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        return [UInt64(s.st_dev), UInt64(s.st_ino)]
    }
}
