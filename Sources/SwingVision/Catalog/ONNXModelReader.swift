import Foundation

/// What the catalog needs from an `.onnx` file, read straight from its protobuf bytes (no ONNX
/// Runtime session, so `models list` stays fast and works without the runtime installed).
package struct ONNXModelSummary: Sendable, Equatable {
    /// `metadata_props` key → value (Ultralytics stores `task`, `names`, `imgsz`, `stride`, …).
    package var metadata: [String: String]
    /// The first graph input's name and dimensions (`-1` for symbolic dimensions).
    package var inputName: String?
    package var inputShape: [Int]
    /// `producer_name` (e.g. "pytorch").
    package var producer: String?
}

/// A minimal reader of the ONNX `ModelProto` protobuf: metadata, first input, producer.
package enum ONNXModelReader {
    /// Reads a model file (memory-mapped).
    /// - Throws: ``CatalogError/notAnONNXModel(_:)`` when the bytes are not a `ModelProto` with a graph.
    package static func summary(of url: URL) throws -> ONNXModelSummary {
        let data: Data
        do { data = try Data(contentsOf: url, options: .alwaysMapped) } catch {
            throw CatalogError.notAnONNXModel(url.lastPathComponent)
        }
        guard let s = data.withUnsafeBytes({ summary(of: $0) }) else {
            throw CatalogError.notAnONNXModel(url.lastPathComponent)
        }
        return s
    }

    /// Parses `ModelProto` bytes; `nil` when they are not one.
    static func summary(of bytes: UnsafeRawBufferPointer) -> ONNXModelSummary? {
        var out = ONNXModelSummary(metadata: [:], inputName: nil, inputShape: [], producer: nil)
        var sawGraph = false
        var sawIR = false
        let ok = ProtoReader.fields(bytes) { field, value in
            switch (field, value) {
            case (1, .varint): sawIR = true
            case (2, .bytes(let b)): out.producer = String(decoding: b, as: UTF8.self)
            case (7, .bytes(let graph)):
                sawGraph = true
                return ProtoReader.fields(graph) { f, v in
                    guard f == 11, case .bytes(let input) = v, out.inputName == nil else { return true }
                    return readValueInfo(input, into: &out)
                }
            case (14, .bytes(let entry)):
                var key: String?, val = ""
                let ok = ProtoReader.fields(entry) { f, v in
                    if case .bytes(let b) = v {
                        if f == 1 { key = String(decoding: b, as: UTF8.self) }
                        if f == 2 { val = String(decoding: b, as: UTF8.self) }
                    }
                    return true
                }
                if ok, let key { out.metadata[key] = val }
                return ok
            default: break
            }
            return true
        }
        return ok && sawGraph && sawIR ? out : nil
    }

    private static func readValueInfo(_ b: UnsafeRawBufferPointer, into out: inout ONNXModelSummary) -> Bool {
        var name: String?
        var dims: [Int] = []
        let ok = ProtoReader.fields(b) { f, v in
            guard case .bytes(let inner) = v else { return true }
            if f == 1 { name = String(decoding: inner, as: UTF8.self) }
            if f == 2 {   // TypeProto.tensor_type(1).shape(2).dim(1).dim_value(1)
                return ProtoReader.fields(inner) { f2, v2 in
                    guard f2 == 1, case .bytes(let tensor) = v2 else { return true }
                    return ProtoReader.fields(tensor) { f3, v3 in
                        guard f3 == 2, case .bytes(let shape) = v3 else { return true }
                        return ProtoReader.fields(shape) { f4, v4 in
                            guard f4 == 1, case .bytes(let dim) = v4 else { return true }
                            var value = -1
                            let ok = ProtoReader.fields(dim) { f5, v5 in
                                if f5 == 1, case .varint(let n) = v5 { value = Int(truncatingIfNeeded: n) }
                                return true
                            }
                            dims.append(value)
                            return ok
                        }
                    }
                }
            }
            return true
        }
        out.inputName = name
        out.inputShape = dims
        return ok
    }
}

/// Protobuf wire-format walker (just enough for ONNX headers).
enum ProtoReader {
    enum Value { case varint(UInt64), fixed64, fixed32, bytes(UnsafeRawBufferPointer) }

    /// Calls `body` for each field; stops and returns `false` on malformed input or when `body` does.
    static func fields(_ b: UnsafeRawBufferPointer, _ body: (Int, Value) -> Bool) -> Bool {
        var i = 0
        func varint() -> UInt64? {
            var result: UInt64 = 0, shift: UInt64 = 0
            while i < b.count, shift < 64 {
                let byte = b[i]; i += 1
                result |= UInt64(byte & 0x7f) << shift
                if byte & 0x80 == 0 { return result }
                shift += 7
            }
            return nil
        }
        while i < b.count {
            guard let tag = varint(), tag >> 3 > 0 else { return false }
            let field = Int(truncatingIfNeeded: tag >> 3)
            switch tag & 7 {
            case 0:
                guard let v = varint(), body(field, .varint(v)) else { return false }
            case 1:
                guard i + 8 <= b.count, body(field, .fixed64) else { return false }
                i += 8
            case 2:
                guard let n = varint(), n <= UInt64(b.count - i) else { return false }
                let sub = UnsafeRawBufferPointer(rebasing: b[i..<(i + Int(n))])
                i += Int(n)
                guard body(field, .bytes(sub)) else { return false }
            case 5:
                guard i + 4 <= b.count, body(field, .fixed32) else { return false }
                i += 4
            default:
                return false
            }
        }
        return true
    }
}
