#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An input tensor whose memory the caller keeps alive for the duration of one run.
struct BoundInput {
    var name: String
    var shape: [Int]
    var data: UnsafeBufferPointer<Float>
}

extension InferenceSession {
    /// Runs the model on float32 inputs.
    /// - Parameters:
    ///   - inputs: One tensor per model input, keyed by input name.
    ///   - outputNames: The outputs to compute (default: all, in graph order).
    /// - Returns: Every requested output as float32, keyed by name; integer/double/half outputs
    ///   are converted (int64 class ids stay exact up to 2^24).
    /// - Throws: ``InferenceError`` `.modelUnsupported` for an unknown/missing name, a wrong shape,
    ///   a data count that does not match the shape or a non-float input; `.inferenceFailed` when ORT fails.
    package func run(_ inputs: [String: Tensor], outputNames: [String]? = nil) throws -> [String: Tensor] {
        for (name, tensor) in inputs where tensor.data.count != tensor.elementCount {
            throw InferenceError(.modelUnsupported,
                "Input \(name) has \(tensor.data.count) values but shape \(tensor.shape) needs \(tensor.elementCount).")
        }
        let ordered = Array(inputs.sorted { $0.key < $1.key })
        return try withBound(ordered[...], []) { bound in try runBound(bound, outputNames: outputNames) }
    }

    /// Runs a single-input model without copying the input (for per-frame hot loops).
    /// - Parameters:
    ///   - inputName: The model input to feed.
    ///   - shape: Dimensions of `data` (must match the model's fixed dimensions).
    ///   - data: Row-major float32 values; only read, and only during the call.
    ///   - outputNames: The outputs to compute (default: all).
    /// - Returns: The requested outputs as float32, keyed by name.
    /// - Throws: ``InferenceError`` as ``run(_:outputNames:)``.
    package func run(inputName: String, shape: [Int], data: UnsafeBufferPointer<Float>,
                    outputNames: [String]? = nil) throws -> [String: Tensor] {
        try runBound([BoundInput(name: inputName, shape: shape, data: data)], outputNames: outputNames)
    }

    private func withBound<R>(_ rest: ArraySlice<(key: String, value: Tensor)>, _ bound: [BoundInput],
                              _ body: ([BoundInput]) throws -> R) throws -> R {
        guard let first = rest.first else { return try body(bound) }
        return try first.value.data.withUnsafeBufferPointer { buffer in
            try withBound(rest.dropFirst(), bound + [BoundInput(name: first.key, shape: first.value.shape, data: buffer)], body)
        }
    }

    /// Checks the inputs against the model so a mistake is reported clearly instead of by ORT.
    func validate(_ bound: [BoundInput]) throws {
        for input in bound {
            guard let info = inputs.first(where: { $0.name == input.name }) else {
                throw InferenceError(.modelUnsupported,
                    "The model has no input named \(input.name) (its inputs: \(inputs.map(\.name).joined(separator: ", "))).")
            }
            guard info.elementType == .float else {
                throw InferenceError(.modelUnsupported,
                    "Model input \(info.name) expects \(info.elementType) values; only float32 inputs are supported.")
            }
            let shapeMatches = info.shape.count == input.shape.count
                && zip(info.shape, input.shape).allSatisfy { declared, given in given >= 0 && (declared < 0 || declared == given) }
            guard shapeMatches else {
                let declared = info.shape.map { $0 < 0 ? "?" : String($0) }.joined(separator: ", ")
                throw InferenceError(.modelUnsupported,
                    "Input \(info.name) has shape \(input.shape) but the model expects [\(declared)].")
            }
            let needed = input.shape.reduce(1, *)
            guard input.data.count == needed else {
                throw InferenceError(.modelUnsupported,
                    "Input \(info.name) has \(input.data.count) values but shape \(input.shape) needs \(needed).")
            }
        }
        for info in inputs where !bound.contains(where: { $0.name == info.name }) {
            throw InferenceError(.modelUnsupported, "Missing model input \(info.name).")
        }
    }

    func runBound(_ bound: [BoundInput], outputNames: [String]?) throws -> [String: Tensor] {
        try validate(bound)
        let names = outputNames ?? outputs.map(\.name)
        for name in names where !outputs.contains(where: { $0.name == name }) {
            throw InferenceError(.modelUnsupported,
                "The model has no output named \(name) (its outputs: \(outputs.map(\.name).joined(separator: ", "))).")
        }
        let api = runtime.api
        // ORT rejects a NULL data pointer even for zero elements; give empty tensors a dummy address.
        let placeholder = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        defer { placeholder.deallocate() }
        var inputValues: [OpaquePointer?] = []
        defer { inputValues.forEach { api.releaseValue($0) } }
        for input in bound {
            var value: OpaquePointer?
            let dims = input.shape.map { Int64($0) }
            let address = input.data.baseAddress.map { UnsafeMutableRawPointer(mutating: $0) } ?? UnsafeMutableRawPointer(placeholder)
            try runtime.check(
                api.createTensorWithDataAsOrtValue(runtime.cpuMemoryInfo, address, input.data.count * MemoryLayout<Float>.stride,
                                                   dims, dims.count, TensorElementType.float.rawValue, &value),
                .modelUnsupported, "could not create input tensor \(input.name)")
            inputValues.append(value)
        }
        let inputNames = CStringArray(bound.map(\.name))
        defer { inputNames.deallocate() }
        let outputCNames = CStringArray(names)
        defer { outputCNames.deallocate() }
        var outputValues = [OpaquePointer?](repeating: nil, count: names.count)
        defer { outputValues.forEach { api.releaseValue($0) } }
        try runtime.check(
            api.run(session, nil, inputNames.pointers, inputValues, bound.count, outputCNames.pointers, names.count, &outputValues),
            .inferenceFailed, "inference failed")
        var result: [String: Tensor] = [:]
        for (name, value) in zip(names, outputValues) {
            result[name] = try tensor(from: value, name: name)
        }
        return result
    }

    /// Copies an output `OrtValue` into a float32 ``Tensor``.
    private func tensor(from value: OpaquePointer?, name: String) throws -> Tensor {
        let api = runtime.api
        guard let value else { throw InferenceError(.inferenceFailed, "ONNX Runtime returned no value for output \(name).") }
        var valueType: Int32 = 0
        try runtime.check(api.getValueType(value, &valueType), .inferenceFailed, "could not inspect output \(name)")
        guard valueType == OrtConstant.onnxTypeTensor else {
            throw InferenceError(.modelUnsupported, "Output \(name) is not a tensor (maps and sequences are not supported).")
        }
        var info: OpaquePointer?
        try runtime.check(api.getTensorTypeAndShape(value, &info), .inferenceFailed, "could not read the shape of output \(name)")
        defer { api.releaseTensorTypeAndShapeInfo(info) }
        let (elementType, shape) = try Self.shapeAndType(runtime, info, name)
        var count = 0
        try runtime.check(api.getTensorShapeElementCount(info, &count), .inferenceFailed, "could not size output \(name)")
        var raw: UnsafeMutableRawPointer?
        try runtime.check(api.getTensorMutableData(value, &raw), .inferenceFailed, "could not read output \(name)")
        guard let raw, count > 0 else { return Tensor(shape: shape, data: []) }
        guard let data = TensorConversion.floats(from: UnsafeRawPointer(raw), count: count, type: elementType) else {
            throw InferenceError(.modelUnsupported, "Output \(name) has element type \(elementType); only numeric outputs are supported.")
        }
        return Tensor(shape: shape, data: data)
    }
}

/// NUL-terminated copies of Swift strings for `const char* const*` parameters.
struct CStringArray {
    let pointers: [UnsafePointer<CChar>?]

    init(_ strings: [String]) {
        pointers = strings.map { UnsafePointer(strdup($0)) }
    }

    func deallocate() {
        pointers.forEach { free(UnsafeMutableRawPointer(mutating: $0)) }
    }
}
