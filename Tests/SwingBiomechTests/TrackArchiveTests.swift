import Foundation
import SwingTestSupport
import Testing
@testable import SwingBiomech
import SwingCore

/// A stored session's pose track (``TrackArchive``): an edit re-measures on it, so it must come back bit for
/// bit, and damaged bytes in the database must be a sentence, never a crash or a huge allocation.
struct TrackArchiveTests {
    static func randomTrack(_ rng: inout SplitMix64, frames: Int) throws -> PoseTrack {
        var t = 0.0
        return try PoseTrack(samples: (0..<frames).map { _ in
            t += 0.001 + Double(rng.next() % 100) / 1000
            let kind = rng.next() % 5
            let world = kind == 0 ? [] : (0..<BodyLandmark.count).map { _ in
                Vec3(x: Double(Int64(bitPattern: rng.next() % 4000) - 2000) / 997, y: Double(rng.next() % 1000) / 333, z: -0.123456789)
            }
            let image = kind >= 2 ? (0..<BodyLandmark.count).map { i in Point2(x: Double(i) * 1.5, y: Double(rng.next() % 1080)) } : nil
            let visibility = kind >= 3 ? (0..<BodyLandmark.count).map { _ in Double(rng.next() % 1000) / 999 } : nil
            return PoseSample(time: t, world: world, image: image, visibility: visibility, score: kind == 4 ? 0.5 : nil)
        })
    }

    @Test("Any track comes back bit for bit", arguments: [0, 1, 2, 17, 300])
    func roundTrip(frames: Int) throws {
        var rng = SplitMix64(seed: UInt64(frames) + 11)
        let track = try Self.randomTrack(&rng, frames: frames)
        #expect(try TrackArchive.decode(TrackArchive.encode(track)) == track)
    }

    @Test("Every cut, a wrong header, trailing bytes and random bytes are refused with a sentence")
    func damage() throws {
        var rng = SplitMix64(seed: 5)
        let bytes = TrackArchive.encode(try Self.randomTrack(&rng, frames: 6))
        for cut in stride(from: 0, to: bytes.count, by: 7) {
            #expect(throws: BiomechError.self) { try TrackArchive.decode(bytes.prefix(cut)) }
        }
        #expect(throws: BiomechError.self) { try TrackArchive.decode(Data("XXXX".utf8) + bytes.dropFirst(4)) }
        #expect(throws: BiomechError.self) { try TrackArchive.decode(bytes + Data([0])) }
        // A header claiming four billion frames is refused before anything is allocated.
        #expect(throws: BiomechError.self) { try TrackArchive.decode(Data("SMT1".utf8) + Data([0xff, 0xff, 0xff, 0xff, 1])) }
        for n in 0..<300 {
            var junk = Data("SMT1".utf8)
            junk.append(contentsOf: (0..<(n % 60)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
            do { _ = try TrackArchive.decode(junk) } catch let error as BiomechError {
                #expect(error.kind == .invalidTrack && !error.message.isEmpty)
            }
        }
    }
}
