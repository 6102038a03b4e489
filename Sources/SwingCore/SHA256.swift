import Crypto
import Foundation

/// SHA-256, streaming: fingerprints uploads and session videos and verifies downloaded models.
/// Backed by swift-crypto (BoringSSL with the CPU's SHA instructions on Linux, CryptoKit on macOS),
/// so hashing keeps up with a disk or a network upload.
package struct SHA256: Sendable {
    private var hasher = Crypto.SHA256()

    package init() {}

    /// Feeds more bytes.
    package mutating func update<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        update(Data(bytes))
    }

    /// Feeds a `Data` chunk.
    package mutating func update(_ data: Data) {
        hasher.update(data: data)
    }

    /// Feeds contiguous bytes without copying them.
    package mutating func update(_ raw: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: raw)
    }

    /// The digest of everything fed so far (more may be fed afterwards).
    package func finalize() -> [UInt8] { Array(hasher.finalize()) }

    /// Lower-case hex of ``finalize()``.
    package func hexDigest() -> String { finalize().map { String(format: "%02x", $0) }.joined() }

    /// Hex SHA-256 of `data`.
    package static func hex(_ data: Data) -> String { var s = SHA256(); s.update(data); return s.hexDigest() }

    /// Hex SHA-256 of a file, read in 1 MiB chunks.
    /// - Throws: the file system's error when the file cannot be read.
    package static func hex(ofFile path: String) throws -> String {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var s = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { s.update(chunk) }
        return s.hexDigest()
    }
}
