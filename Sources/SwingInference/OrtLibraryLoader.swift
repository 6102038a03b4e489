#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SwingCore
import Foundation

/// Finds and opens `libonnxruntime` at run time, so the binary links no ORT symbol and a user can
/// point at another build of the same C API without recompiling (only the CPU execution provider is used).
enum OrtLibraryLoader {
    /// Environment variable naming the library file; when set, it is the only candidate tried.
    static let environmentVariable = "SWINGMASTER_ONNXRUNTIME"
    /// Where `make setup` installs the library, relative to the package root.
    static let bundledRelativePath = ".deps/onnxruntime/lib/" + sharedLibraryFileName

    #if canImport(Darwin)
    static let sharedLibraryFileName = "libonnxruntime.dylib"
    #else
    static let sharedLibraryFileName = "libonnxruntime.so"
    #endif

    static let missingMessage =
        "ONNX Runtime not found: run `make setup` or set \(environmentVariable) to the path of \(sharedLibraryFileName)"

    /// The paths tried, in order: `$SWINGMASTER_ONNXRUNTIME` alone if set; otherwise
    /// `.deps/onnxruntime/lib/…` in the executable's directory or any parent, then in the current
    /// directory or any parent, then the plain soname (the system loader's search path).
    static func candidates(environment: [String: String] = ProcessEnvironment.current) -> [String] {
        if let explicit = environment[environmentVariable], !explicit.isEmpty {
            return [explicit]
        }
        var paths: [String] = []
        var starts: [URL] = []
        if let executable = Bundle.main.executableURL {
            starts.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        starts.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        for start in starts {
            var directory = start.standardizedFileURL
            while true {
                let candidate = directory.appendingPathComponent(bundledRelativePath).path
                if FileManager.default.fileExists(atPath: candidate), !paths.contains(candidate) {
                    paths.append(candidate)
                }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        paths.append(sharedLibraryFileName)
        return paths
    }

    /// Opens the first loadable candidate and returns its `OrtApiBase*` and the path used.
    /// - Throws: ``InferenceError`` `.runtimeUnavailable` when no candidate loads or exports `OrtGetApiBase`.
    static func openApiBase(candidates: [String]) throws -> (base: UnsafeRawPointer, path: String) {
        var reasons: [String] = []
        for path in candidates {
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
                reasons.append(dlerror().map { String(cString: $0) } ?? path)
                continue
            }
            guard let symbol = dlsym(handle, "OrtGetApiBase") else {
                reasons.append("\(path) does not export OrtGetApiBase")
                dlclose(handle)
                continue
            }
            typealias GetApiBase = @convention(c) () -> UnsafeRawPointer?
            let getApiBase = unsafeBitCast(symbol, to: GetApiBase.self)
            guard let base = getApiBase() else {
                reasons.append("\(path): OrtGetApiBase returned NULL")
                continue
            }
            // The handle stays open for the life of the process: ORT owns global state.
            return (base, path)
        }
        throw InferenceError(.runtimeUnavailable, "\(missingMessage) (tried: \(reasons.joined(separator: "; "))).")
    }

    /// Resolves the `OrtApi` table for ``OrtConstant/requestedApiVersion`` from an `OrtApiBase*`.
    /// - Throws: `.runtimeUnavailable` naming the library's version when it is too old.
    static func apiTable(base: UnsafeRawPointer, path: String) throws -> UnsafeRawPointer {
        typealias GetApi = @convention(c) (UInt32) -> UnsafeRawPointer?
        typealias GetVersionString = @convention(c) () -> UnsafePointer<CChar>?
        let getApi = base.load(fromByteOffset: 0, as: GetApi.self)
        let getVersion = base.load(fromByteOffset: MemoryLayout<UnsafeRawPointer>.stride, as: GetVersionString.self)
        guard let table = getApi(OrtConstant.requestedApiVersion) else {
            let version = getVersion().map { String(cString: $0) } ?? "unknown"
            throw InferenceError(
                .runtimeUnavailable,
                "ONNX Runtime \(version) at \(path) is too old: Swingmaster needs 1.17 or newer (C API version \(OrtConstant.requestedApiVersion))."
            )
        }
        return table
    }

    /// The library's own version string (`OrtApiBase::GetVersionString`).
    static func versionString(base: UnsafeRawPointer) -> String {
        typealias GetVersionString = @convention(c) () -> UnsafePointer<CChar>?
        let getVersion = base.load(fromByteOffset: MemoryLayout<UnsafeRawPointer>.stride, as: GetVersionString.self)
        return getVersion().map { String(cString: $0) } ?? "unknown"
    }
}
