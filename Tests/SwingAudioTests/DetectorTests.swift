import Foundation
import SwingCore
import Testing
@testable import SwingAudio
import SwingTestSupport

/// Behaviour a user sees: every contact found where it happened, nothing else, knobs that work.
struct DetectorTests {
    static let trackSeconds = 30.0
    static let seeds: [UInt64] = [11, 12, 13]

    func render(_ c: SyntheticSessionAudio.Condition, seed: UInt64, seconds: Double = trackSeconds) -> SyntheticSessionAudio.Track {
        SyntheticSessionAudio(duration: seconds, seed: seed, condition: c).render()
    }

    @Test("Clean impacts: every contact found, each within ±5 ms of the true impact", arguments: [1 as UInt64, 2, 3])
    func cleanTiming(seed: UInt64) throws {
        let track = render(.clean, seed: seed)
        let found = try ContactDetector().detect(samples: track.samples, sampleRate: track.sampleRate)
        let score = ContactScore(detected: found.map(\.time), truth: track.contactTimes, tolerance: 0.005)
        #expect(track.contactTimes.count >= 6)
        #expect(score.falseNegatives == 0 && score.falsePositives == 0,
                "seed \(seed): \(score.falseNegatives) missed, \(score.falsePositives) extra, max err \(score.maxError * 1000) ms")
        for c in found {
            #expect((0...1).contains(c.confidence))
            #expect(c.fwhmMs > 0 && c.fwhmMs <= 40)
        }
    }

    @Test("Noisy suite: F1 ≥ 0.95 at ±20 ms in every condition", arguments: SyntheticSessionAudio.Condition.all)
    func noisySuite(condition: SyntheticSessionAudio.Condition) throws {
        var total: ContactScore?
        for seed in Self.seeds {
            let track = render(condition, seed: seed)
            let found = try ContactDetector().detect(samples: track.samples, sampleRate: track.sampleRate)
            let s = ContactScore(detected: found.map(\.time), truth: track.contactTimes, tolerance: 0.020)
            total = total.map { $0 + s } ?? s
        }
        let score = try #require(total)
        #expect(score.f1 >= 0.95, "\(condition): TP \(score.truePositives) FP \(score.falsePositives) FN \(score.falseNegatives)")
    }

    @Test("Reported onset sits on the impact; the spec's peak time lags it")
    func onsetVersusPeak() throws {
        let track = render(.ambience, seed: 5)
        var p = ContactDetectorParameters()
        let onsets = try ContactDetector(parameters: p).detect(samples: track.samples, sampleRate: track.sampleRate)
        p.timeReference = .peak
        let peaks = try ContactDetector(parameters: p).detect(samples: track.samples, sampleRate: track.sampleRate)
        #expect(onsets.count == peaks.count)
        for (o, k) in zip(onsets, peaks) {
            #expect(k.time > o.time + 0.001, "peak \(k.time) should follow onset \(o.time)")
            #expect(abs(o.peakTime - k.time) < 1e-9)
        }
    }

    @Test("Parameter overrides change what is found")
    func overrides() throws {
        let track = render(.clean, seed: 3)
        let base = try ContactDetector().detect(samples: track.samples, sampleRate: track.sampleRate)
        #expect(base.count == track.contactTimes.count)

        var deaf = ContactDetectorParameters()
        deaf.peakThresholdFactor = 1e9  // nothing can clear a billion times the floor
        #expect(try ContactDetector(parameters: deaf).detect(samples: track.samples, sampleRate: track.sampleRate).isEmpty)

        var sparse = ContactDetectorParameters()
        sparse.minGapMs = 5000  // at most one contact per 5 s
        let few = try ContactDetector(parameters: sparse).detect(samples: track.samples, sampleRate: track.sampleRate)
        #expect(few.count < base.count && few.count <= Int(Self.trackSeconds / 5) + 1)
        for (a, b) in zip(few, few.dropFirst()) { #expect(b.time - a.time >= 5) }

        var narrow = ContactDetectorParameters()
        narrow.maxImpactFWHMMs = 3  // synthetic impacts are ≥ 6 ms wide after 5 ms smoothing
        narrow.maxImpactRiseMs = 0
        #expect(try ContactDetector(parameters: narrow).detect(samples: track.samples, sampleRate: track.sampleRate).isEmpty)
    }

    @Test("Each robustness switch matters on the condition it was built for")
    func switchesAreMeasurable() throws {
        func f1(_ p: ContactDetectorParameters, _ c: SyntheticSessionAudio.Condition) throws -> Double {
            let t = render(c, seed: 21)
            let found = try ContactDetector(parameters: p).detect(samples: t.samples, sampleRate: t.sampleRate)
            return ContactScore(detected: found.map(\.time), truth: t.contactTimes, tolerance: 0.02).f1
        }
        // Bounce leaks are also quieter than most impacts, so isolate the thud gate from the loudness gate.
        var thudOnly = ContactDetectorParameters(); thudOnly.minRelativeAmplitude = 0
        var neither = thudOnly; neither.rejectThuds = false
        #expect(try f1(neither, .bounces) < f1(thudOnly, .bounces))
        #expect(try f1(.specLiteral, .bounces) < f1(.default, .bounces))
    }

    @Test("Invalid parameters give one clear sentence and status 60")
    func invalidParameters() {
        let x = [Float](repeating: 0, count: 44_100)
        var p = ContactDetectorParameters()
        p.lowHz = 5000
        #expect(throws: AudioError.self) { try ContactDetector(parameters: p).detect(samples: x, sampleRate: 44_100) }
        do {
            _ = try ContactDetector(parameters: p).detect(samples: x, sampleRate: 44_100)
        } catch let e as AudioError {
            #expect(e.statusCode == StatusCode.invalidParameter)
            #expect(e.description.contains("--high-hz"))
        } catch { Issue.record("unexpected \(error)") }

        p = ContactDetectorParameters()
        p.highHz = 30_000  // above Nyquist for 44.1 kHz
        #expect(throws: AudioError.invalidParameter(name: "high-hz", reason: "must be below the Nyquist frequency 22050.0 Hz (got 30000.0)")) {
            try ContactDetector(parameters: p).detect(samples: x, sampleRate: 44_100)
        }
        p = ContactDetectorParameters()
        p.minGapMs = -1
        #expect(throws: AudioError.self) { try ContactDetector(parameters: p).detect(samples: x, sampleRate: 44_100) }
        #expect(throws: AudioError.self) { try ContactDetector().detect(samples: x, sampleRate: 0) }
    }

    @Test("Degenerate audio: empty, tiny, silent and NaN input never crash")
    func degenerateInput() throws {
        #expect(try ContactDetector().detect(samples: [], sampleRate: 44_100).isEmpty)
        #expect(try ContactDetector().detect(samples: [0.5, -0.5, 0.1], sampleRate: 44_100).isEmpty)
        #expect(try ContactDetector().detect(samples: [Float](repeating: 0, count: 44_100), sampleRate: 44_100).isEmpty)
        var x = [Float](repeating: 0, count: 1000)
        x[10] = .nan
        #expect(throws: AudioError.self) { try ContactDetector().detect(samples: x, sampleRate: 44_100) }
    }

    @Test("Progress reaches 1 and never goes backwards")
    func progressIsMonotonic() throws {
        let track = render(.clean, seed: 4, seconds: 3)
        final class Box: @unchecked Sendable { var values: [Double] = []; let lock = NSLock() }
        let box = Box()
        _ = try ContactDetector().detect(samples: track.samples, sampleRate: track.sampleRate) { _, f in
            box.lock.lock(); box.values.append(f); box.lock.unlock()
        }
        #expect(box.values.last == 1)
        #expect(zip(box.values, box.values.dropFirst()).allSatisfy { $0 <= $1 })
    }
}

extension SyntheticSessionAudio.Condition: CustomTestStringConvertible {
    public var testDescription: String { name }
}
