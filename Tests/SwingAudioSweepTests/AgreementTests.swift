import SwingCore
import Foundation
import Testing
@testable import SwingAudio
import SwingTestSupport

/// Swift vs the Python reference (`tools/reference_contacts.py`) on generated WAV files.
/// Needs `$SWINGMASTER_PYTHON` (set by `make test`) or `.deps/venv/bin/python`; skipped with a message otherwise.
struct AgreementTests {
    struct Output: Decodable {
        struct C: Decodable { var time: Double; var confidence: Double; var fwhmMs: Double; var symmetry: Double; var amplitude: Double }
        var file: String; var duration: Double; var sampleRate: Int; var contacts: [C]
    }

    @Test("Swift and Python agree within ±50 ms, one-to-one",
          .enabled(if: TestFiles.referencePython != nil, "no Python found: set SWINGMASTER_PYTHON or run scripts/setup.sh"),
          arguments: [SyntheticSessionAudio.Condition.mixed, .bounces, .voices])
    func agreement(condition: SyntheticSessionAudio.Condition) throws {
        let track = SyntheticSessionAudio(duration: 20, seed: 31, condition: condition).render()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swingaudio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("\(condition.name).wav")
        try track.float32WAV().write(to: wav)
        let py = try JSONDecoder().decode(Output.self, from: TestFiles.runReference([TestFiles.packageRoot.appendingPathComponent("tools/reference_contacts.py").path, wav.path, "--json"]))
        let swift = try ContactDetector().detect(samples: track.samples, sampleRate: track.sampleRate)
        #expect(py.sampleRate == 44_100)
        #expect(abs(py.duration - Double(track.samples.count) / 44_100) < 1e-9)
        let score = ContactScore(detected: swift.map(\.time), truth: py.contacts.map(\.time), tolerance: 0.050)
        #expect(score.falsePositives == 0 && score.falseNegatives == 0,
                "\(condition): Swift \(swift.count) vs Python \(py.contacts.count), matched \(score.truePositives)")
        // Same recipe, same numbers: the matched times agree far better than the ±50 ms the spec asks.
        #expect(score.maxError < 0.001, "max |Δt| \(score.maxError * 1000) ms")
    }

    @Test("ZeroPhaseFilter equals scipy.signal.sosfiltfilt(butter(…, output='sos'))",
          .enabled(if: TestFiles.referencePython != nil, "no Python found"))
    func sosfiltfiltCompatibility() throws {
        var rng = SplitMix64(seed: 3)
        let x = (0..<2000).map { _ in Float(rng.gaussian()) }
        let script = """
        import sys, json, numpy as np
        from scipy.signal import butter, sosfiltfilt
        x = np.array(json.loads(sys.stdin.read()), dtype=np.float64)
        sos = butter(4, [1000, 4000], btype='band', fs=44100, output='sos')
        print(json.dumps(sosfiltfilt(sos, x).tolist()))
        """
        let data = try Subprocess.output(try #require(TestFiles.referencePython), ["-c", script],
                                         input: try JSONEncoder().encode(x.map(Double.init)))
        let want = try JSONDecoder().decode([Double].self, from: data)
        let got = ZeroPhaseFilter(sections: Butterworth.bandPass(order: 4, lowHz: 1000, highHz: 4000, sampleRate: 44_100)).apply(x)
        #expect(want.count == got.count)
        // Float32 storage between passes: agreement to ~1e-6 of the signal scale, edges included.
        let worst = zip(got, want).map { abs(Double($0) - $1) }.max() ?? 1
        #expect(worst < 1e-5, "max difference \(worst)")
    }
}
