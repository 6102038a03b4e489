/// Converts ORT's output buffers of any numeric element type into `[Float]`.
enum TensorConversion {
    /// - Returns: `nil` for non-numeric types (string, complex, unknown).
    static func floats(from raw: UnsafeRawPointer, count: Int, type: TensorElementType) -> [Float]? {
        switch type {
        case .float: return Array(UnsafeBufferPointer(start: raw.assumingMemoryBound(to: Float.self), count: count))
        case .double: return convert(raw, count, Double.self) { Float($0) }
        case .int64: return convert(raw, count, Int64.self) { Float($0) }
        case .int32: return convert(raw, count, Int32.self) { Float($0) }
        case .int16: return convert(raw, count, Int16.self) { Float($0) }
        case .int8: return convert(raw, count, Int8.self) { Float($0) }
        case .uint64: return convert(raw, count, UInt64.self) { Float($0) }
        case .uint32: return convert(raw, count, UInt32.self) { Float($0) }
        case .uint16: return convert(raw, count, UInt16.self) { Float($0) }
        case .uint8, .bool: return convert(raw, count, UInt8.self) { Float($0) }
        case .float16: return convert(raw, count, UInt16.self) { halfToFloat($0) }
        case .bfloat16: return convert(raw, count, UInt16.self) { Float(bitPattern: UInt32($0) << 16) }
        case .string, .complex64, .complex128, .undefined, .other: return nil
        }
    }

    private static func convert<T>(_ raw: UnsafeRawPointer, _ count: Int, _: T.Type, _ map: (T) -> Float) -> [Float] {
        let source = UnsafeBufferPointer(start: raw.assumingMemoryBound(to: T.self), count: count)
        return source.map(map)
    }

    /// IEEE 754 binary16 → binary32 (portable: `Float16` is unavailable on Intel macOS).
    static func halfToFloat(_ bits: UInt16) -> Float {
        let sign = UInt32(bits & 0x8000) << 16
        let exponent = Int((bits >> 10) & 0x1F)
        let mantissa = UInt32(bits & 0x03FF)
        switch exponent {
        case 0:
            // Zero or subnormal: value = mantissa × 2^-24.
            let magnitude = Float(mantissa) * Float(sign: .plus, exponent: -24, significand: 1)
            return sign != 0 ? -magnitude : magnitude
        case 0x1F:
            return Float(bitPattern: sign | 0x7F80_0000 | (mantissa << 13))
        default:
            return Float(bitPattern: sign | (UInt32(exponent + 112) << 23) | (mantissa << 13))
        }
    }
}
