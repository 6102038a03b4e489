import SwingCore
import Dispatch
import Foundation
import Testing
@testable import SwingAudio
import SwingTestSupport

/// Contacts as a phone records them (issue #26): every recorded and synthetic track, clean and through one
/// chain of each class phones apply (`tools/phone_chain.py`: AAC and Opus at 64 kbit/s, a 6:1 compressor with
/// a 5 ms attack, automatic gain control, a limiter, hard clipping, and two whole phone chains), made at test
/// time and scored at ±50 ms. The bench (`bench/phone_contacts.sh`) runs all fifteen chains; its table is in
/// docs/contacts.md, "Phone recordings".
///
/// Before #26 the phone-like chain left 2 of 41 hits in a match. What these tests hold: codecs cost
/// (almost) nothing; the floor that follows the gain and the rise exception recover hits on every
/// dynamics chain without costing the clean tracks anything; a recording is called compressed where it is,
/// and never when it is not. The goal (F1 ≥ 0.90 everywhere) is not met on compressed tracks with a crowd:
/// docs/contacts.md says where and why.
struct PhoneChainTests {
    static let chains = ["clean", "aac-64k", "opus-64k", "comp-6-5", "agc", "limiter", "clip", "phone-aac", "phone-worst"]
    static let codecs: Set = ["aac-64k", "opus-64k"]
    /// The detector before #26: a 5 s floor at its 75th percentile, no rise exception, 40 ms width.
    static var before: ContactDetectorParameters {
        var p = narrow
        p.noiseFloorWindowSeconds = 5; p.noiseFloorHopSeconds = 0.5; p.noiseFloorPercentile = 75; p.maxImpactRiseMs = 0
        return p
    }
    /// The defaults with the original recipe's 40 ms width gate.
    static var narrow: ContactDetectorParameters {
        var p = ContactDetectorParameters()
        p.maxImpactFWHMMs = 40
        return p
    }

    struct Cell: Sendable {
        var track: String, chain: String
        var now: ContactScore, before: ContactScore, narrow: ContactScore
        var compressed: Bool
    }

    static var available: Bool { RecordedSoundTests.available && RecordedSoundTests.tennixAvailable }

    /// The sweep, made once for every test here.
    static let sweep: Result<[Cell], any Error> = Result { try makeSweep() }

    static func makeSweep() throws -> [Cell] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("phone-chain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Sources: (name, WAV path, truth).
        var sources: [(String, URL, [Double])] = []
        for (corpus, conditions) in corpora {
            for condition in conditions {
                let (wav, truth) = try source(corpus, condition, seed: 1, in: dir)
                sources.append(("\(corpus)-\(condition)", wav, truth))
            }
        }
        let results = Locked<[Cell]>([])
        let failure = Locked<String?>(nil)
        let inputs = sources
        DispatchQueue.concurrentPerform(iterations: inputs.count) { k in
            let (name, wav, truth) = inputs[k]
            do {
                let out = dir.appendingPathComponent("\(name).chains")
                try process(wav, into: out, chains: chains)
                for chain in chains {
                    let (samples, rate) = try WAVFile.readFloat32(out.appendingPathComponent("\(chain).wav"))
                    let now = try ContactDetector().run(samples: samples, sampleRate: rate)
                    let old = try ContactDetector(parameters: before).detect(samples: samples, sampleRate: rate)
                    let narrowRun = try ContactDetector(parameters: narrow).detect(samples: samples, sampleRate: rate)
                    let cell = Cell(track: name, chain: chain,
                                    now: ContactScore(detected: now.contacts.map(\.time), truth: truth, tolerance: 0.050),
                                    before: ContactScore(detected: old.map(\.time), truth: truth, tolerance: 0.050),
                                    narrow: ContactScore(detected: narrowRun.map(\.time), truth: truth, tolerance: 0.050),
                                    compressed: now.notes.contains { $0.hasPrefix("The recording looks compressed") })
                    results.withLock { $0.append(cell) }
                }
            } catch {
                failure.withLock { $0 = $0 ?? "\(name): \(error)" }
            }
        }
        if let error = failure.withLock({ $0 }) { throw SweepError(description: error) }
        let cells = results.withLock { $0 }.sorted { ($0.track, $0.chain) < ($1.track, $1.chain) }
        for c in cells {
            print(String(format: "phone chain %-22@ %-12@ F1 %.3f (before %.3f)%@", c.track, c.chain, c.now.f1,
                         c.before.f1, c.compressed ? "  called compressed" : ""))
        }
        return cells
    }

    /// Every track of the sweep: each corpus and its conditions.
    static let corpora = [("freetennis", ["practice", "match", "netcords", "wind", "everything"]),
                          ("tennix", ["practice", "match", "wind", "everything"]),
                          ("synthetic", SyntheticSessionAudio.Condition.all.map(\.name))]

    /// Writes a track of `corpus` ("freetennis" and "tennix": `tools/make_recorded_tracks.py`, 60 s;
    /// "synthetic": the generator, 60 s) in `condition` with `seed` into `dir`.
    /// - Returns: its WAV file and its contact times.
    static func source(_ corpus: String, _ condition: String, seed: Int, in dir: URL) throws -> (URL, [Double]) {
        let prefix = dir.appendingPathComponent("\(corpus)-\(condition)-\(seed)").path
        if corpus == "synthetic" {
            let kind = try #require(SyntheticSessionAudio.Condition.all.first { $0.name == condition })
            let track = SyntheticSessionAudio(duration: 60, seed: UInt64(seed), condition: kind).render()
            try track.float32WAV().write(to: URL(fileURLWithPath: prefix + ".wav"))
            return (URL(fileURLWithPath: prefix + ".wav"), track.contactTimes)
        }
        _ = try TestFiles.runReference([TestFiles.packageRoot.appendingPathComponent("tools/make_recorded_tracks.py").path,
                                    (corpus == "tennix" ? RecordedSoundTests.tennixSounds : RecordedSoundTests.sounds).path,
                                    prefix, "--corpus", corpus, "--condition", condition, "--seed", String(seed)])
        let truth = try JSONDecoder().decode(RecordedSoundTests.Truth.self, from: Data(contentsOf: URL(fileURLWithPath: prefix + ".json")))
        return (URL(fileURLWithPath: prefix + ".wav"), truth.contacts)
    }

    /// Writes `wav` through each of `chains` (`tools/phone_chain.py`) as `out/CHAIN.wav`.
    static func process(_ wav: URL, into out: URL, chains: [String]) throws {
        _ = try TestFiles.runReference([TestFiles.packageRoot.appendingPathComponent("tools/phone_chain.py").path,
                                    wav.path, out.path, "--chain", chains.joined(separator: ",")])
    }

    static func pooled(_ cells: [Cell], _ score: (Cell) -> ContactScore) -> Double {
        cells.map(score).reduce(.zero, +).f1
    }

    @Test("A codec alone (AAC, Opus at 64 kbit/s) costs at most 0.08 of any track's F1",
          .enabled(if: available, "needs make setup (recorded sounds and the Python venv)"))
    func codecsAreTransparent() throws {
        let cells = try Self.sweep.get()
        for cell in cells where Self.codecs.contains(cell.chain) {
            let clean = try #require(cells.first { $0.track == cell.track && $0.chain == "clean" })
            #expect(cell.now.f1 >= clean.now.f1 - 0.08, "\(cell.track) through \(cell.chain): F1 \(cell.now.f1) against \(clean.now.f1) clean")
        }
    }

    @Test("The floor that follows the gain and the rise exception help every dynamics chain and cost clean sound nothing",
          .enabled(if: available, "needs make setup (recorded sounds and the Python venv)"))
    func changesHelpCompressedSound() throws {
        let cells = try Self.sweep.get()
        for chain in ["comp-6-5", "agc", "limiter", "phone-aac"] {
            let these = cells.filter { $0.chain == chain }
            let now = Self.pooled(these, \.now), before = Self.pooled(these, \.before)
            #expect(now >= before + 0.03, "\(chain): F1 \(now) now against \(before) before")
        }
        for chain in ["clean"] + Self.codecs {
            let these = cells.filter { $0.chain == chain }
            let now = Self.pooled(these, \.now), before = Self.pooled(these, \.before)
            #expect(now >= before - 0.005, "\(chain): F1 \(now) now against \(before) before")
            #expect(now >= 0.94, "\(chain): F1 \(now) over every track")
        }
    }

    @Test("A hit whose peak a compressor flattened (45 ms wide) is kept, and no track clean or through a codec loses by it",
          .enabled(if: available, "needs make setup (recorded sounds and the Python venv)"))
    func flattenedPeaksAreHits() throws {
        let cells = try Self.sweep.get()
        // Tennix's racket2 builds over 25 ms; after a 6:1 compressor it measures 40–45 ms at half prominence.
        // Measured on these 60-s tracks: +0.02 and more pooled per chain (docs/contacts.md).
        for chain in ["comp-6-5", "phone-aac"] {
            let these = cells.filter { $0.chain == chain && $0.track.hasPrefix("tennix") }
            let now = Self.pooled(these, \.now), narrow = Self.pooled(these, \.narrow)
            #expect(now >= narrow + 0.01, "Tennix through \(chain): F1 \(now) against \(narrow) with a 40 ms width")
        }
        for cell in cells where cell.chain == "clean" || Self.codecs.contains(cell.chain) {
            #expect(cell.now.f1 >= cell.narrow.f1, "\(cell.track) through \(cell.chain): F1 \(cell.now.f1) against \(cell.narrow.f1) with a 40 ms width")
        }
    }
    @Test("A recording is called compressed where a phone squeezed it, never when clean, and the note's cost is real",
          .enabled(if: available, "needs make setup (recorded sounds and the Python venv)"))
    func compressionIsReported() throws {
        let cells = try Self.sweep.get()
        for cell in cells where cell.chain == "clean" || Self.codecs.contains(cell.chain) {
            #expect(!cell.compressed, "\(cell.track) through \(cell.chain) was called compressed")
        }
        let worst = cells.filter { $0.chain == "phone-worst" }
        #expect(worst.filter(\.compressed).count * 4 >= worst.count * 3, "phone-worst: \(worst.filter(\.compressed).count) of \(worst.count) called compressed")
        let called = cells.filter(\.compressed), rest = cells.filter { !$0.compressed }
        #expect(called.count >= 10)
        #expect(Self.pooled(called, \.now) < Self.pooled(rest, \.now) - 0.2)
    }
}

struct SweepError: Error, CustomStringConvertible { var description: String }

/// A value shared by `concurrentPerform`'s iterations.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R { lock.lock(); defer { lock.unlock() }; return body(&value) }
}
