import Foundation
import Testing
import SwingCore
import SwingTestSupport
@testable import SwingBiomech

@Suite struct MeasureIOTests {
    /// Extra keys, nulls, nested unknown values, escaped strings, integers and exponents: the fast
    /// scanner must read exactly what `JSONDecoder` reads.
    static let tricky: String = {
        func world(_ k: Int) -> String { "{\"x\":\(k).5e-1,\"y\":-\(k),\"z\":0.1234567890123456789,\"visibility\":0.5,\"presence\":1}" }
        let w = (0..<33).map(world).joined(separator: ",")
        let lm = (0..<33).map { "{\"x\":\($0 * 10),\"y\":2E2,\"z\":null,\"visibility\":0.\($0 + 1)}" }.joined(separator: ",")
        return """
        {"source": "a \\"quoted\\" \\u00e9 name", "width": 1280, "meta": {"nested": [1, [2, {"a": null}], true, false]},
         "frames": [
          {"index": 0, "time": 0.0, "score": 0.98, "landmarks": [\(lm)], "worldLandmarks": [\(w)],
           "joints": {"root": {"x": 1, "y": 2, "z": 3}}},
          {"index": 1, "time": 1e-2, "score": null, "landmarks": [], "worldLandmarks": []},
          {"index": 2, "time": 2, "landmarks": null, "worldLandmarks": null},
          {"time": 0.03, "worldLandmarks": [\(w)]}
         ]}
        """
    }()

    @Test func fastScannerReadsWhatJSONDecoderReads() throws {
        let data = Data(Self.tricky.utf8)
        let scanned = TrackScanner.samples([UInt8](data))
        #expect(scanned != nil, "the fast path must accept the tricky document")
        let fast = scanned ?? []
        let slow = try MeasureIO.decodeTrackWithFoundation(data)
        #expect(try PoseTrack(samples: fast) == slow)
        #expect(slow.samples.count == 4)
        #expect(slow.samples[0].visibility?[3] == 0.4)             // from landmarks
        #expect(slow.samples[0].image?[2] == Point2(x: 20, y: 200))
        #expect(slow.samples[1].hasPose == false && slow.samples[1].score == nil)
        // Sorted by time: 0, 0.01, 0.03, 2.
        #expect(slow.samples[3].visibility == nil && slow.samples[3].image == nil && slow.samples[3].time == 2)
        #expect(slow.samples[2].visibility?.first == 0.5)          // from worldLandmarks
        #expect(slow.samples[0].world[7].x == 0.75)
    }

    @Test("A track written by encodeTrack (analyze --save-track) reads back as the same track, image landmarks scaled")
    func writtenTracksReadBack() throws {
        var rng = SplitMix64(seed: 38)
        for _ in 0..<12 {
            let data = try JSONEncoder().encode(RandomCase(rng: &rng).track)
            let track = try MeasureIO.decodeTrack(data)
            #expect(try MeasureIO.decodeTrack(MeasureIO.encodeTrack(track)) == track)
            let scale = (x: rng.uniform(0.25, 4), y: rng.uniform(0.25, 4))
            let scaled = try MeasureIO.decodeTrack(MeasureIO.encodeTrack(track, imageScale: scale))
            #expect(scaled.samples.map(\.world) == track.samples.map(\.world))
            #expect(scaled.samples.map(\.visibility) == track.samples.map(\.visibility))
            #expect(scaled.samples.map(\.time) == track.samples.map(\.time) && scaled.samples.map(\.score) == track.samples.map(\.score))
            for (a, b) in zip(scaled.samples, track.samples) {
                #expect(a.image?.count == b.image?.count)
                for (p, q) in zip(a.image ?? [], b.image ?? []) {
                    #expect(abs(p.x - q.x * scale.x) <= 1e-9 * max(1, abs(p.x)) && abs(p.y - q.y * scale.y) <= 1e-9 * max(1, abs(p.y)))
                }
            }
        }
    }

    @Test func malformedInputGetsThePreciseFoundationError() {
        let cases: [(String, String)] = [
            ("{\"frames\": [", "not valid pose JSON"),
            ("{\"frames\": [{\"worldLandmarks\": []}]}", "missing \"time\" at .frames[0]"),
            ("{\"frames\": [{\"time\": \"soon\"}]}", "wrong or missing value at .frames[0].time"),
            ("[1, 2]", "not valid pose JSON"),
        ]
        for (text, message) in cases {
            let scanned = TrackScanner.samples(Array(text.utf8))
            #expect(scanned == nil, "\(text)")
            let error = #expect(throws: BiomechError.self) { try MeasureIO.decodeTrack(Data(text.utf8)) }
            #expect(error?.description.contains(message) == true, "\(text): \(error?.description ?? "")")
            #expect(error?.statusCode == 32)
        }
    }

    @Test func contactsDefaultConfidenceAndRejectBadShapes() throws {
        let c = try MeasureIO.decodeContacts(Data(#"{"contacts":[{"time":1.5,"fwhmMs":6.1},{"time":0.5,"confidence":0.25}]}"#.utf8))
        #expect(c == [ContactEvent(time: 1.5, confidence: 1), ContactEvent(time: 0.5, confidence: 0.25)])
        #expect(throws: BiomechError.self) { try MeasureIO.decodeContacts(Data(#"{"shots":[]}"#.utf8)) }
    }

    @Test("contacts --json's amplitudes give each contact its loudness against the loudest hits")
    func contactsCarryTheirLoudness() throws {
        let c = try MeasureIO.decodeContacts(Data(#"{"contacts":[{"time":1,"amplitude":0.2},{"time":2,"amplitude":0.02},{"time":3}]}"#.utf8))
        #expect(c.map(\.loudnessDb) == [0, -20, nil])
        // Measured, the quiet one without a swing is the opponent's; the loud one is an ordinary no-swing contact.
        let still = try makeTrack(fps: 30, count: 120) { _, t in Skeleton().sample(at: t) }
        let r = BiomechAnalyzer.analyze(track: still, contacts: Array(c.prefix(2)), parameters: BiomechParameters())
        #expect(r.rejected.map(\.kind) == [.noSwing, .opponent])
    }

    @Test func duplicateFrameTimesAreRejected() {
        let text = #"{"frames":[{"time":1,"worldLandmarks":[]},{"time":1,"worldLandmarks":[]}]}"#
        let error = #expect(throws: BiomechError.self) { try MeasureIO.decodeTrack(Data(text.utf8)) }
        #expect(error?.description.contains("share the time") == true)
    }
}
