import SwingCore

/// The loaded library plus the process-wide ORT objects every session shares: one `OrtEnv`
/// (ORT wants exactly one per process), the CPU memory description for input tensors and the
/// default allocator used for the strings ORT hands back. Immutable after creation.
final class OrtRuntime: @unchecked Sendable {
    let api: OrtAPI
    let env: OpaquePointer
    let cpuMemoryInfo: OpaquePointer
    let allocator: OpaquePointer
    /// The loaded library's version, e.g. "1.23.2".
    let version: String
    /// The file that was opened.
    let libraryPath: String

    /// The process-wide runtime, loaded on first use. Swift initialises a `static let` exactly once
    /// and thread-safely, so concurrent first sessions do not race.
    static let shared: Result<OrtRuntime, InferenceError> = load(candidates: OrtLibraryLoader.candidates())

    /// Returns the shared runtime or throws why it is unavailable.
    static func current() throws(InferenceError) -> OrtRuntime {
        try shared.get()
    }

    /// Loads from an explicit candidate list (used by ``shared`` and by tests with bogus paths).
    static func load(candidates: [String]) -> Result<OrtRuntime, InferenceError> {
        do {
            let (base, path) = try OrtLibraryLoader.openApiBase(candidates: candidates)
            let table = try OrtLibraryLoader.apiTable(base: base, path: path)
            let runtime = try OrtRuntime(
                api: OrtAPI(table: table), version: OrtLibraryLoader.versionString(base: base), path: path)
            return .success(runtime)
        } catch let error as InferenceError {
            return .failure(error)
        } catch {
            return .failure(InferenceError(.runtimeUnavailable, "\(error)."))
        }
    }

    private init(api: OrtAPI, version: String, path: String) throws {
        self.api = api
        self.version = version
        self.libraryPath = path
        var env: OpaquePointer?
        try Self.check(api, api.createEnv(OrtConstant.loggingLevelError, "swingmaster", &env), .runtimeUnavailable,
                       "could not create the ONNX Runtime environment")
        var memoryInfo: OpaquePointer?
        try Self.check(api, api.createCpuMemoryInfo(OrtConstant.arenaAllocator, OrtConstant.memTypeDefault, &memoryInfo),
                       .runtimeUnavailable, "could not describe CPU memory to ONNX Runtime")
        var allocator: OpaquePointer?
        try Self.check(api, api.getAllocatorWithDefaultOptions(&allocator), .runtimeUnavailable,
                       "could not get the ONNX Runtime default allocator")
        guard let env, let memoryInfo, let allocator else {
            throw InferenceError(.runtimeUnavailable, "ONNX Runtime \(version) returned no environment.")
        }
        self.env = env
        self.cpuMemoryInfo = memoryInfo
        self.allocator = allocator
    }

    /// Converts an `OrtStatus*` into our error (releasing the status) — ORT's message is kept.
    static func check(_ api: OrtAPI, _ status: OrtStatusPtr, _ kind: InferenceError.Kind, _ context: String) throws(InferenceError) {
        guard let status else { return }
        let message = api.getErrorMessage(status).map { String(cString: $0) } ?? "unknown error"
        api.releaseStatus(status)
        throw InferenceError(kind, "\(context.prefix(1).uppercased() + context.dropFirst()): \(endingWithPeriod(message))")
    }

    func check(_ status: OrtStatusPtr, _ kind: InferenceError.Kind, _ context: @autoclosure () -> String) throws(InferenceError) {
        guard status != nil else { return }
        try Self.check(api, status, kind, context())
    }

    /// Copies and frees a string ORT allocated with the default allocator.
    func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        let string = String(cString: pointer)
        _ = api.allocatorFree(allocator, UnsafeMutableRawPointer(pointer))
        return string
    }
}
