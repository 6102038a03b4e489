import Foundation
import Testing
@testable import SwingBiomech
import SwingCore
import SwingTestSupport

/// One swing, one hit (``BiomechParameters/minHitIntervalS``): of two shots closer than the interval only the
/// surer hit sound is counted. Checked on random sets of contacts over a wrist that swings throughout, so the
/// swing check passes every one and only this rule turns any down.
struct OneSwingOneHitTests {
    /// A wrist swinging back and forth (0.4 m either way, once a second, up to 250 cm/s) for `seconds`: every
    /// contact passes the swing check.
    static func swinging(seconds: Double, fps: Double = 60) throws -> PoseTrack {
        try makeTrack(fps: fps, count: Int(seconds * fps) + 1) { _, t in
            var sk = Skeleton()
            sk.heading = 0.4
            sk.wrist = Vec3(x: 0.4 * sin(2 * Double.pi * t), y: 0.45, z: 0.1)
            return sk.sample(at: t)
        }
    }

    @Test("Counted shots are never closer than the interval; each turned-down one sits beside a surer kept one",
          arguments: [1 as UInt64, 2, 3, 4, 5, 6, 7, 8])
    func property(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let track = try Self.swinging(seconds: 20)
        let p = BiomechParameters()
        let contacts = (0..<Int.random(in: 2...25, using: &rng)).map { _ in
            ContactEvent(time: (Double.random(in: 0.5...19.5, using: &rng) * 1000).rounded() / 1000,
                         confidence: Double.random(in: 0.3...1, using: &rng), confirmed: Double.random(in: 0...1, using: &rng) < 0.15)
        }
        let r = BiomechAnalyzer.analyze(track: track, contacts: contacts, parameters: p)
        #expect(r.shots.count + r.rejected.count == contacts.count, "every contact is a shot or turned down")
        #expect(r.shots.map(\.index) == r.shots.indices.map { $0 + 1 })
        let open = r.shots.filter { $0.confirmed != true }
        for (a, b) in zip(open, open.dropFirst()) {
            #expect(b.time - a.time >= p.minHitIntervalS, "seed \(seed): counted \(a.time) and \(b.time)")
        }
        for c in contacts where c.confirmed {
            #expect(r.shots.contains { $0.time == c.time }, "seed \(seed): the player's count at \(c.time) was overruled")
        }
        for t in r.rejected {
            #expect(t.kind == .tooSoon && t.reason.contains("Count it"), "\(t.kind): \(t.reason)")
            let beside = open.filter { abs($0.time - t.time) < p.minHitIntervalS }
            #expect(beside.contains { $0.confidence >= t.confidence }, "seed \(seed): \(t.time) (\(t.confidence)) turned down beside \(beside.map(\.time))")
        }
    }

    @Test("A squeak after the hit, or before it, is turned down; shots the interval apart are all counted",
          arguments: [0.2, 0.35, 0.5, 0.59])
    func pairs(gap: Double) throws {
        let track = try Self.swinging(seconds: 6)
        let p = BiomechParameters()
        for squeakFirst in [false, true] {
            let hit = ContactEvent(time: 3, confidence: 0.85), squeak = ContactEvent(time: squeakFirst ? 3 - gap : 3 + gap, confidence: 0.6)
            let r = BiomechAnalyzer.analyze(track: track, contacts: [hit, squeak], parameters: p)
            #expect(r.shots.map(\.time) == [3] && r.shots.first?.index == 1)
            let t = try #require(r.rejected.first)
            #expect(t.time == squeak.time && t.kind == .tooSoon && t.confidence == 0.6)
            #expect(t.reason.contains(String(format: "%.2f s %@", gap, squeakFirst ? "before" : "after")), "\(t.reason)")
            #expect(r.stats.shotCount == 1)
        }
        // Apart by the interval: both are hits.
        let apart = [ContactEvent(time: 2, confidence: 0.9), ContactEvent(time: 2 + p.minHitIntervalS, confidence: 0.5)]
        #expect(BiomechAnalyzer.analyze(track: track, contacts: apart, parameters: p).shots.count == 2)
    }

    @Test("The player's count, the rule or the swing check off, and slow motion on the real clock")
    func overrides() throws {
        let track = try Self.swinging(seconds: 6)
        let pair = [ContactEvent(time: 3, confidence: 0.9), ContactEvent(time: 3.3, confidence: 0.5)]
        // Counting the quieter one keeps both: a count is never overruled and overrules nothing.
        var counted = pair
        counted[1].confirmed = true
        #expect(BiomechAnalyzer.analyze(track: track, contacts: counted, parameters: BiomechParameters()).shots.count == 2)
        var off = BiomechParameters()
        off.minHitIntervalS = 0
        #expect(BiomechAnalyzer.analyze(track: track, contacts: pair, parameters: off).shots.count == 2)
        off = BiomechParameters()
        off.swingCheck = false
        #expect(BiomechAnalyzer.analyze(track: track, contacts: pair, parameters: off).shots.count == 2)
        // Played 4× slower than filmed: 1.6 s of video is 0.4 s of play, so one of them is turned down,
        // and it keeps its time on the video's clock.
        var slow = BiomechParameters()
        slow.slowMotion = 4
        let long = try Self.swinging(seconds: 12, fps: 240)  // 4 s of play: its swings are 4× slower on the video
        let r = BiomechAnalyzer.analyze(track: long, contacts: [ContactEvent(time: 4, confidence: 0.9), ContactEvent(time: 5.6, confidence: 0.5)],
                                        parameters: slow)
        #expect(r.shots.map(\.time) == [4] && r.rejected.map(\.time) == [5.6])
    }

    @Test("A negative or undefined interval is refused with a sentence")
    func settings() {
        for bad in [-0.1, .nan, .infinity] {
            var p = BiomechParameters()
            p.minHitIntervalS = bad
            #expect(p.problem?.contains("between two hits") == true, "\(bad)")
        }
    }
}
