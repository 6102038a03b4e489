/// A dense float32 tensor in row-major (C) order.
package struct Tensor: Sendable, Equatable {
    /// Dimensions, outermost first (e.g. `[1, 3, 640, 640]`).
    package var shape: [Int]
    /// `shape.reduce(1, *)` values in row-major order.
    package var data: [Float]

    /// - Parameters:
    ///   - shape: Dimensions, outermost first.
    ///   - data: Values in row-major order; its count should equal the product of `shape`
    ///     (checked when the tensor is passed to ``InferenceSession/run(_:outputNames:)``).
    package init(shape: [Int], data: [Float]) {
        self.shape = shape
        self.data = data
    }

    /// The number of elements the shape describes (1 for a scalar `[]`).
    package var elementCount: Int { shape.reduce(1, *) }
}

/// The element type of a model input or output (values of ONNX's `TensorProto.DataType`).
package enum TensorElementType: Int32, Sendable, Equatable {
    case undefined = 0, float = 1, uint8 = 2, int8 = 3, uint16 = 4, int16 = 5, int32 = 6, int64 = 7
    case string = 8, bool = 9, float16 = 10, double = 11, uint32 = 12, uint64 = 13
    case complex64 = 14, complex128 = 15, bfloat16 = 16
    /// Any newer type this binding does not know.
    case other = -1

    init(onnxValue: Int32) {
        self = TensorElementType(rawValue: onnxValue) ?? .other
    }
}

/// A model input or output as the model declares it.
package struct TensorInfo: Sendable, Equatable {
    /// The graph's name for this tensor (used as the key in ``InferenceSession/run(_:outputNames:)``).
    package var name: String
    /// Declared dimensions; `-1` marks a dynamic axis (symbolic or unknown).
    package var shape: [Int]
    package var elementType: TensorElementType

    package init(name: String, shape: [Int], elementType: TensorElementType) {
        self.name = name
        self.shape = shape
        self.elementType = elementType
    }
}

/// How much ONNX Runtime rewrites the graph when loading (`GraphOptimizationLevel`).
package enum GraphOptimization: Int32, Sendable {
    case disabled = 0, basic = 1, extended = 2, all = 99
}

/// Session configuration.
package struct SessionOptions: Sendable {
    /// Threads inside one operator; 0 lets ONNX Runtime choose (one per physical core).
    package var intraOpThreads: Int = 0
    /// Threads running independent operators in parallel; 1 = sequential execution.
    package var interOpThreads = 1
    /// Graph rewrites applied at load time.
    package var optimization: GraphOptimization = .all
    /// Whether idle intra-op threads spin-wait for the next operator (`session.intra_op.allow_spinning`).
    /// Spinning saves a wake-up per operator when the threads have the cores to themselves; when other
    /// work shares the cores (video decoding, a second model), the spinning threads take CPU from it.
    package var allowSpinning = true

    package init() {}
}
