import SwingCore

/// Why loading a model or running it failed. ONNX Runtime's own message is kept in ``message``.
package struct InferenceError: CategorizedError {
    /// The kind of failure; each maps to a distinct exit status.
    package enum Kind: Sendable, Equatable {
        /// `libonnxruntime` is missing, unloadable or older than 1.17.
        case runtimeUnavailable
        /// The model file is missing or is not a valid ONNX model.
        case modelUnreadable
        /// The model or the caller's tensors do not fit (wrong shape, non-float input, unknown name).
        case modelUnsupported
        /// ONNX Runtime failed while running a valid model.
        case inferenceFailed
    }

    package var kind: Kind
    /// One sentence a user can act on.
    package var message: String

    /// - Parameters:
    ///   - kind: The failure category.
    ///   - message: One clear sentence (ORT's message appended where there is one).
    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var statusCode: Int32 {
        switch kind {
        case .runtimeUnavailable: StatusCode.runtimeUnavailable
        case .modelUnreadable: StatusCode.modelUnreadable
        case .modelUnsupported: StatusCode.modelUnsupported
        case .inferenceFailed: StatusCode.inferenceFailed
        }
    }
}
