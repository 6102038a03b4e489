import Foundation

/// A loaded ONNX model, ready to run. ONNX Runtime allows concurrent `Run` calls on one session,
/// and every stored property is immutable, so one session may be shared across tasks.
package final class InferenceSession: @unchecked Sendable {
    /// The model's inputs, in graph order.
    package let inputs: [TensorInfo]
    /// The model's outputs, in graph order.
    package let outputs: [TensorInfo]
    /// Custom `metadata_props` (Ultralytics stores names, task, stride, imgsz, kpt_shape here).
    package let metadata: [String: String]
    /// The exporter that wrote the model (e.g. "pytorch").
    package let producerName: String
    /// The ONNX graph's name.
    package let graphName: String

    let runtime: OrtRuntime
    let session: OpaquePointer

    /// Loads a model from a file.
    /// - Parameters:
    ///   - modelPath: Path of an `.onnx` file.
    ///   - options: Threading and optimisation settings.
    /// - Throws: ``InferenceError`` — `.runtimeUnavailable` when ONNX Runtime cannot be loaded,
    ///   `.modelUnreadable` when the file is missing or not a valid model (with ORT's message).
    package convenience init(modelPath: String, options: SessionOptions = .init()) throws {
        let runtime = try OrtRuntime.current()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: modelPath, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw InferenceError(.modelUnreadable, "Model file not found: \(modelPath).")
        }
        let session = try Self.createSession(runtime, options, description: modelPath) { ortOptions, out in
            runtime.api.createSession(runtime.env, modelPath, ortOptions, out)
        }
        try self.init(runtime: runtime, session: session)
    }

    /// Loads a model from its serialized bytes.
    /// - Parameters:
    ///   - modelData: The content of an `.onnx` file.
    ///   - options: Threading and optimisation settings.
    /// - Throws: ``InferenceError`` `.runtimeUnavailable` or `.modelUnreadable` (bytes are not a valid model).
    package convenience init(modelData: [UInt8], options: SessionOptions = .init()) throws {
        let runtime = try OrtRuntime.current()
        let session = try modelData.withUnsafeBytes { bytes in
            try Self.createSession(runtime, options, description: "in-memory model (\(modelData.count) bytes)") { ortOptions, out in
                runtime.api.createSessionFromArray(runtime.env, bytes.baseAddress, bytes.count, ortOptions, out)
            }
        }
        try self.init(runtime: runtime, session: session)
    }

    private init(runtime: OrtRuntime, session: OpaquePointer) throws {
        self.runtime = runtime
        self.session = session
        do {
            let api = runtime.api
            inputs = try Self.describe(runtime, session, count: api.sessionGetInputCount,
                                       name: api.sessionGetInputName, typeInfo: api.sessionGetInputTypeInfo)
            outputs = try Self.describe(runtime, session, count: api.sessionGetOutputCount,
                                        name: api.sessionGetOutputName, typeInfo: api.sessionGetOutputTypeInfo)
            (producerName, graphName, metadata) = try Self.readMetadata(runtime, session)
        } catch {
            runtime.api.releaseSession(session)
            throw error
        }
    }

    deinit {
        runtime.api.releaseSession(session)
    }

    private static func createSession(
        _ runtime: OrtRuntime, _ options: SessionOptions, description: String,
        _ create: (OpaquePointer?, OutHandle) -> OrtStatusPtr
    ) throws -> OpaquePointer {
        let api = runtime.api
        var ortOptions: OpaquePointer?
        try runtime.check(api.createSessionOptions(&ortOptions), .runtimeUnavailable, "could not create session options")
        defer { api.releaseSessionOptions(ortOptions) }
        try runtime.check(api.setIntraOpNumThreads(ortOptions, Int32(clamping: max(0, options.intraOpThreads))),
                          .modelUnsupported, "invalid intra-op thread count \(options.intraOpThreads)")
        try runtime.check(api.setInterOpNumThreads(ortOptions, Int32(clamping: max(0, options.interOpThreads))),
                          .modelUnsupported, "invalid inter-op thread count \(options.interOpThreads)")
        try runtime.check(api.setSessionGraphOptimizationLevel(ortOptions, options.optimization.rawValue),
                          .modelUnsupported, "invalid graph optimisation level")
        if !options.allowSpinning {
            try runtime.check(api.addSessionConfigEntry(ortOptions, "session.intra_op.allow_spinning", "0"),
                              .modelUnsupported, "could not turn off thread spinning")
        }
        var session: OpaquePointer?
        try runtime.check(create(ortOptions, &session), .modelUnreadable, "could not load ONNX model \(description)")
        guard let session else {
            throw InferenceError(.modelUnreadable, "Could not load ONNX model \(description): ONNX Runtime returned no session.")
        }
        return session
    }

    private static func describe(
        _ runtime: OrtRuntime, _ session: OpaquePointer, count: OrtAPI.GetCount,
        name: OrtAPI.GetIndexedName, typeInfo: OrtAPI.GetIndexedHandle
    ) throws -> [TensorInfo] {
        let api = runtime.api
        var total = 0
        try runtime.check(count(session, &total), .modelUnreadable, "could not read the model's inputs/outputs")
        var result: [TensorInfo] = []
        for index in 0..<total {
            var rawName: UnsafeMutablePointer<CChar>?
            try runtime.check(name(session, index, runtime.allocator, &rawName), .modelUnreadable, "could not read a tensor name")
            let tensorName = runtime.takeString(rawName)
            var info: OpaquePointer?
            try runtime.check(typeInfo(session, index, &info), .modelUnreadable, "could not read the type of \(tensorName)")
            defer { api.releaseTypeInfo(info) }
            var onnxType: Int32 = 0
            try runtime.check(api.getOnnxTypeFromTypeInfo(info, &onnxType), .modelUnreadable, "could not read the type of \(tensorName)")
            guard onnxType == OrtConstant.onnxTypeTensor else {
                // Maps/sequences (e.g. sklearn exports) are not tensors; describe them as such.
                result.append(TensorInfo(name: tensorName, shape: [], elementType: .other))
                continue
            }
            var tensorInfo: OpaquePointer?  // owned by `info`, not released separately
            try runtime.check(api.castTypeInfoToTensorInfo(info, &tensorInfo), .modelUnreadable, "could not read the shape of \(tensorName)")
            let (elementType, shape) = try shapeAndType(runtime, tensorInfo, tensorName)
            result.append(TensorInfo(name: tensorName, shape: shape, elementType: elementType))
        }
        return result
    }

    /// Element type and dimensions (negative dims normalised to -1) of an `OrtTensorTypeAndShapeInfo`.
    static func shapeAndType(_ runtime: OrtRuntime, _ info: OpaquePointer?, _ name: String) throws -> (TensorElementType, [Int]) {
        let api = runtime.api
        var elementType: Int32 = 0
        try runtime.check(api.getTensorElementType(info, &elementType), .modelUnreadable, "could not read the element type of \(name)")
        var rank = 0
        try runtime.check(api.getDimensionsCount(info, &rank), .modelUnreadable, "could not read the rank of \(name)")
        var dims = [Int64](repeating: 0, count: rank)
        try runtime.check(api.getDimensions(info, &dims, rank), .modelUnreadable, "could not read the shape of \(name)")
        return (TensorElementType(onnxValue: elementType), dims.map { $0 < 0 ? -1 : Int($0) })
    }

    private static func readMetadata(_ runtime: OrtRuntime, _ session: OpaquePointer) throws -> (String, String, [String: String]) {
        let api = runtime.api
        var meta: OpaquePointer?
        try runtime.check(api.sessionGetModelMetadata(session, &meta), .modelUnreadable, "could not read the model metadata")
        defer { api.releaseModelMetadata(meta) }
        var raw: UnsafeMutablePointer<CChar>?
        try runtime.check(api.modelMetadataGetProducerName(meta, runtime.allocator, &raw), .modelUnreadable, "could not read the producer name")
        let producer = runtime.takeString(raw)
        raw = nil
        try runtime.check(api.modelMetadataGetGraphName(meta, runtime.allocator, &raw), .modelUnreadable, "could not read the graph name")
        let graph = runtime.takeString(raw)

        var keys: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var keyCount: Int64 = 0
        try runtime.check(api.modelMetadataGetCustomMetadataMapKeys(meta, runtime.allocator, &keys, &keyCount),
                          .modelUnreadable, "could not read the custom metadata keys")
        var names: [String] = []
        if let keys {
            for index in 0..<Int(max(0, keyCount)) { names.append(runtime.takeString(keys[index])) }
            _ = api.allocatorFree(runtime.allocator, UnsafeMutableRawPointer(keys))
        }
        var metadata: [String: String] = [:]
        for key in names {
            var value: UnsafeMutablePointer<CChar>?
            try runtime.check(api.modelMetadataLookupCustomMetadataMap(meta, runtime.allocator, key, &value),
                              .modelUnreadable, "could not read metadata entry \(key)")
            if value != nil { metadata[key] = runtime.takeString(value) }
        }
        return (producer, graph, metadata)
    }
}
