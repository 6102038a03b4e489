import Foundation

/// Mono WAV files written by the tests and the benchmarks (read by FFmpeg, scipy and our own decoder).
package enum WAVFile {
    /// IEEE float32 (format 3): the samples exactly.
    package static func float32(_ samples: [Float], sampleRate: Int) -> Data {
        var d = header(format: 3, bitsPerSample: 32, sampleRate: sampleRate, dataBytes: samples.count * 4)
        samples.withUnsafeBufferPointer { b in for v in b { append(v.bitPattern, to: &d) } }
        return d
    }

    /// 16-bit PCM (format 1), clipped to ±1.
    package static func pcm16(_ samples: [Float], sampleRate: Int) -> Data {
        var d = header(format: 1, bitsPerSample: 16, sampleRate: sampleRate, dataBytes: samples.count * 2)
        for s in samples { append(UInt16(bitPattern: Int16(max(-1, min(1, s)) * 32767)), to: &d) }
        return d
    }

    /// Reads a mono or multi-channel IEEE-float32 WAV (format 3, or extensible with a float sub-format,
    /// as scipy and FFmpeg write them), channels averaged.
    /// - Returns: the samples and the sample rate.
    /// - Throws: `CocoaError(.fileReadCorruptFile)` for anything else.
    package static func readFloat32(_ url: URL) throws -> (samples: [Float], sampleRate: Double) {
        let d = try Data(contentsOf: url)
        func u16(_ i: Int) -> Int { Int(d[i]) | Int(d[i + 1]) << 8 }
        func u32(_ i: Int) -> Int { u16(i) | u16(i + 2) << 16 }
        guard d.count >= 12, String(decoding: d[0..<4], as: UTF8.self) == "RIFF" else { throw CocoaError(.fileReadCorruptFile) }
        var i = 12, channels = 0, rate = 0, bits = 0
        while i + 8 <= d.count {
            let id = String(decoding: d[i..<i + 4], as: UTF8.self), size = u32(i + 4)
            if id == "fmt ", i + 24 <= d.count {
                let format = u16(i + 8)
                channels = u16(i + 10); rate = u32(i + 12); bits = u16(i + 22)
                let float = format == 3 || (format == 0xFFFE && i + 34 <= d.count && u16(i + 32) == 3)
                guard float, bits == 32, channels > 0 else { throw CocoaError(.fileReadCorruptFile) }
            } else if id == "data", channels > 0 {
                let body = d[(i + 8)..<min(d.count, i + 8 + size)]
                let all = body.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
                guard channels > 1 else { return (all, Double(rate)) }
                let frames = all.count / channels
                let mono = (0..<frames).map { f in (0..<channels).reduce(Float(0)) { $0 + all[f * channels + $1] } / Float(channels) }
                return (mono, Double(rate))
            }
            i += 8 + size + (size & 1)
        }
        throw CocoaError(.fileReadCorruptFile)
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
