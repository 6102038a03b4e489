import Foundation

/// Mono WAV files written by the tests and the benchmarks (read by FFmpeg, scipy and our own decoder).
public enum WAVFile {
    /// IEEE float32 (format 3): the samples exactly.
    public static func float32(_ samples: [Float], sampleRate: Int) -> Data {
        var d = header(format: 3, bitsPerSample: 32, sampleRate: sampleRate, dataBytes: samples.count * 4)
        samples.withUnsafeBufferPointer { b in for v in b { append(v.bitPattern, to: &d) } }
        return d
    }

    /// 16-bit PCM (format 1), clipped to ±1.
    public static func pcm16(_ samples: [Float], sampleRate: Int) -> Data {
        var d = header(format: 1, bitsPerSample: 16, sampleRate: sampleRate, dataBytes: samples.count * 2)
        for s in samples { append(UInt16(bitPattern: Int16(max(-1, min(1, s)) * 32767)), to: &d) }
        return d
    }

    private static func header(format: UInt16, bitsPerSample: UInt16, sampleRate: Int, dataBytes: Int) -> Data {
        var d = Data()
        let blockAlign = bitsPerSample / 8
        d.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + dataBytes), to: &d); d.append(contentsOf: Array("WAVE".utf8))
        d.append(contentsOf: Array("fmt ".utf8)); append(UInt32(16), to: &d); append(format, to: &d); append(UInt16(1), to: &d)
        append(UInt32(sampleRate), to: &d); append(UInt32(sampleRate) * UInt32(blockAlign), to: &d)
        append(blockAlign, to: &d); append(bitsPerSample, to: &d)
        d.append(contentsOf: Array("data".utf8)); append(UInt32(dataBytes), to: &d)
        return d
    }

    private static func append<T: FixedWidthInteger>(_ v: T, to d: inout Data) {
        withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) }
    }
}
