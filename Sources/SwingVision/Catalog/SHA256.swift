import Foundation

/// SHA-256 (FIPS 180-4), incremental. Our own because CryptoKit does not exist on Linux and
/// swift-crypto is not a dependency; used to verify downloads and to key the download cache.
public struct SHA256: Sendable {
    private var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    public init() { buffer.reserveCapacity(64) }

    /// Feeds bytes.
    public mutating func update<D: DataProtocol>(_ data: D) {
        length &+= UInt64(data.count)
        for region in data.regions {
            region.withUnsafeBytes { raw in
                var bytes = raw[...]
                if !buffer.isEmpty {
                    let take = min(64 - buffer.count, bytes.count)
                    buffer.append(contentsOf: bytes.prefix(take))
                    bytes = bytes.dropFirst(take)
                    if buffer.count == 64 {
                        buffer.withUnsafeBytes { compress(UnsafeRawBufferPointer(rebasing: $0[...])) }
                        buffer.removeAll(keepingCapacity: true)
                    }
                }
                while bytes.count >= 64 {
                    compress(UnsafeRawBufferPointer(rebasing: bytes.prefix(64)))
                    bytes = bytes.dropFirst(64)
                }
                buffer.append(contentsOf: bytes)
            }
        }
    }

    /// The 32-byte digest (the hasher can no longer be updated meaningfully afterwards).
    public mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var pad: [UInt8] = [0x80]
        let rem = (buffer.count + 1) % 64
        pad += [UInt8](repeating: 0, count: rem <= 56 ? 56 - rem : 120 - rem)
        pad += (0..<8).map { UInt8(truncatingIfNeeded: bitLength >> (56 - 8 * UInt64($0))) }
        let saved = length
        update(pad)
        length = saved
        let words = [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7]
        return words.flatMap { w in (0..<4).map { UInt8(truncatingIfNeeded: w >> (24 - 8 * UInt32($0))) } }
    }

    /// Lower-case hex digest of `data`.
    public static func hex<D: DataProtocol>(_ data: D) -> String {
        var s = SHA256(); s.update(data); return s.finalize().hexString
    }

    /// Lower-case hex digest of a file, read in 1 MiB chunks.
    /// - Throws: the file-reading error.
    public static func hex(fileAt url: URL) throws -> String {
        let fh = try FileHandle(forReadingFrom: url)
        defer { try? fh.close() }
        var s = SHA256()
        while let chunk = try fh.read(upToCount: 1 << 20), !chunk.isEmpty { s.update(chunk) }
        return s.finalize().hexString
    }

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        var state = h
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for i in 0..<16 {
                w[i] = UInt32(block[4 * i]) << 24 | UInt32(block[4 * i + 1]) << 16
                    | UInt32(block[4 * i + 2]) << 8 | UInt32(block[4 * i + 3])
            }
            @inline(__always) func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 - n) }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = state
            SHA256.k.withUnsafeBufferPointer { k in
                for i in 0..<64 {
                    let t1 = hh &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ k[i] &+ w[i]
                    let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                    hh = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
                }
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
                     state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ hh)
        }
        h = state
    }
}

extension Array where Element == UInt8 {
    var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8](); out.reserveCapacity(count * 2)
        for b in self { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
