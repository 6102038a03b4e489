import Foundation
import SwingCore
import Testing
@testable import SwingAudio
import SwingTestSupport

/// Recordings whose sound stops below the broadband-click band (old cameras, low sample rates, strong AAC
/// low-pass, voice-band microphones): the gate once rejected every hit there and said
/// nothing. The detector must measure the recording, switch the gate off and say so, and still find
/// the hits; full-band recordings keep the gate.
struct BandLimitedTests {
    /// `track` low-passed at `cutoff` Hz by an order-16 Butterworth run forwards and backwards (zero
    /// phase, so hits stay where they were; > 45 dB down from 1.18 × cutoff): no sound above the cutoff,
    /// as an 11 kHz recording, a strong AAC low-pass or a voice-band microphone gives.
    static func bandLimited(_ track: SyntheticSessionAudio.Track, cutoff: Double) -> [Float] {
        ZeroPhaseFilter(sections: Butterworth.lowPass(order: 16, cutoffHz: cutoff, sampleRate: track.sampleRate))
            .apply(track.samples)
    }

    static let conditions: [SyntheticSessionAudio.Condition] = SyntheticSessionAudio.Condition.all

    @Test("Band-limited at 5.5 kHz: the click gate is switched off with a sentence, F1 ≥ 0.9 in every condition",
          arguments: conditions)
    func bandLimitedFindsTheHits(condition: SyntheticSessionAudio.Condition) throws {
        var total: ContactScore?
        for seed: UInt64 in [21, 22, 23] {
            let track = SyntheticSessionAudio(duration: 60, seed: seed, condition: condition).render()
            let samples = Self.bandLimited(track, cutoff: 5500)
            let detection = try ContactDetector().run(samples: samples, sampleRate: track.sampleRate)
            #expect(detection.notes.count == 1 && detection.notes.first?.contains("broadband") == true,
                    "\(condition): \(detection.notes), content \(String(describing: detection.clickBandContent))")
            let s = ContactScore(detected: detection.contacts.map(\.time), truth: track.contactTimes, tolerance: 0.020)
            total = total.map { $0 + s } ?? s
        }
        let score = try #require(total)
        #expect(score.f1 >= 0.9, "\(condition): TP \(score.truePositives) FP \(score.falsePositives) FN \(score.falseNegatives)")
    }

    @Test("Full-band recordings keep the click gate and get no note", arguments: conditions)
    func fullBandKeepsTheGate(condition: SyntheticSessionAudio.Condition) throws {
        let track = SyntheticSessionAudio(duration: 20, seed: 31, condition: condition).render()
        let detection = try ContactDetector().run(samples: track.samples, sampleRate: track.sampleRate)
        #expect(detection.notes.isEmpty, "\(condition): \(detection.notes)")
        #expect((detection.clickBandContent ?? 0) >= BandContent.emptyBelow * 3,
                "\(condition): click-band content \(String(describing: detection.clickBandContent)) is near the threshold")
    }

    @Test("The Python reference makes the same call on a band-limited track, and finds the same hits",
          .enabled(if: TestFiles.referencePython != nil, "no Python found: set SWINGMASTER_PYTHON or run scripts/setup.sh"))
    func pythonAgrees() throws {
        var track = SyntheticSessionAudio(duration: 20, seed: 41, condition: .mixed).render()
        track.samples = Self.bandLimited(track, cutoff: 5500)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swingaudio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("band-limited.wav")
        try track.float32WAV().write(to: wav)
        let py = try JSONDecoder().decode(AgreementTests.Output.self, from: TestFiles.runReference(
            [TestFiles.packageRoot.appendingPathComponent("tools/reference_contacts.py").path, wav.path, "--json"]))
        let swift = try ContactDetector().run(samples: track.samples, sampleRate: track.sampleRate)
        #expect(!swift.notes.isEmpty)
        let score = ContactScore(detected: swift.contacts.map(\.time), truth: py.contacts.map(\.time), tolerance: 0.050)
        #expect(score.falsePositives == 0 && score.falseNegatives == 0 && !py.contacts.isEmpty,
                "Swift \(swift.contacts.count) vs Python \(py.contacts.count), matched \(score.truePositives)")
    }
}
