import Foundation
import SwingCore

/// A pose track as bytes, exactly (every `Double` bit for bit), so a stored session can be measured
/// again after the player edits its contacts and give the numbers the analysis gave.
///
/// Layout, little-endian: `SMT1`, the sample count (UInt32), then per sample its time (Float64), a flags
/// byte (1 world, 2 image, 4 visibility, 8 score), and the present arrays: 33 × (x, y, z), 33 × (x, y),
/// 33 visibilities, the score, all Float64.
package enum TrackArchive {
    static let magic = Array("SMT1".utf8)

    /// The bytes of `track`.
    package static func encode(_ track: PoseTrack) -> Data {
        var out = Data()
        out.reserveCapacity(8 + track.samples.count * (9 + BodyLandmark.count * 48 + 8))
        out.append(contentsOf: magic)
        append(UInt32(truncatingIfNeeded: track.samples.count), to: &out)
        for s in track.samples {
            append(s.time.bitPattern, to: &out)
            let image = s.image.flatMap { $0.count == BodyLandmark.count ? $0 : nil }
            let visibility = s.visibility.flatMap { $0.count == BodyLandmark.count ? $0 : nil }
            var flags: UInt8 = s.world.count == BodyLandmark.count ? 1 : 0
            if image != nil { flags |= 2 }
            if visibility != nil { flags |= 4 }
            if s.score != nil { flags |= 8 }
            out.append(flags)
            if flags & 1 != 0 { for p in s.world { for v in [p.x, p.y, p.z] { append(v.bitPattern, to: &out) } } }
            if let image { for p in image { append(p.x.bitPattern, to: &out); append(p.y.bitPattern, to: &out) } }
            if let visibility { for v in visibility { append(v.bitPattern, to: &out) } }
            if let score = s.score { append(score.bitPattern, to: &out) }
        }
        return out
    }

    /// The track in `data`.
    /// - Throws: ``BiomechError/invalidTrack(_:)`` when the bytes are not such a track (cut short, wrong
    ///   header, or frames a ``PoseTrack`` refuses).
    package static func decode(_ data: Data) throws -> PoseTrack {
        let bytes = [UInt8](data)
        var at = 0
        func take(_ n: Int) throws -> ArraySlice<UInt8> {
            guard n >= 0, bytes.count - at >= n else { throw BiomechError.invalidTrack("The stored pose track is cut short.") }
            defer { at += n }
            return bytes[at..<(at + n)]
        }
        func u64() throws -> UInt64 { try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) } }
        func double() throws -> Double { Double(bitPattern: try u64()) }
        guard Array(try take(4)) == magic else { throw BiomechError.invalidTrack("The stored pose track has an unknown format.") }
        let count = Int(try take(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        // Each sample needs at least 9 bytes: a count beyond that is damage, not a reason to allocate.
        guard count <= (bytes.count - at) / 9 else { throw BiomechError.invalidTrack("The stored pose track is cut short.") }
        var samples: [PoseSample] = []
        samples.reserveCapacity(count)
        let n = BodyLandmark.count
        for _ in 0..<count {
            let time = try double()
            let flags = try take(1).first ?? 0
            var world: [Vec3] = []
            if flags & 1 != 0 { world = try (0..<n).map { _ in Vec3(x: try double(), y: try double(), z: try double()) } }
            let image = flags & 2 != 0 ? try (0..<n).map { _ in Point2(x: try double(), y: try double()) } : nil
            let visibility = flags & 4 != 0 ? try (0..<n).map { _ in try double() } : nil
            let score = flags & 8 != 0 ? try double() : nil
            samples.append(PoseSample(time: time, world: world, image: image, visibility: visibility, score: score))
        }
        guard at == bytes.count else { throw BiomechError.invalidTrack("The stored pose track has bytes after its last frame.") }
        return try PoseTrack(samples: samples)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
}
