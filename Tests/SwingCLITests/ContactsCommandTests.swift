import Foundation
import SwingTestSupport
import Testing

/// `swingmaster contacts` end to end through real files: synthesised impacts → WAV → FFmpeg-encoded
/// containers → the CLI → the same times back.
@Suite(.serialized) struct ContactsCommandTests {
    static let truth = [1.0, 2.73, 4.5, 6.25]

    /// A racket impact: a 3 ms broadband click plus string (≈ 600 Hz… 2.4 kHz) and ball resonances
    /// decaying over ~20 ms, on quiet court noise. Deterministic.
    static func sessionAudio(seconds: Double, impacts: [Double], sampleRate: Int = 44_100) -> [Float] {
        var rng = SplitMix64(seed: 7)
        let n = Int(seconds * Double(sampleRate))
        var x = (0..<n).map { _ in Float(rng.gaussian() * 0.003) }
        for t in impacts {
            let start = Int(t * Double(sampleRate))
            for k in 0..<Int(0.04 * Double(sampleRate)) where start + k < n {
                let s = Double(k) / Double(sampleRate)
                let click = s < 0.003 ? rng.gaussian() * 0.5 * (1 - s / 0.003) : 0
                let strings = 0.25 * exp(-s / 0.008) * (sin(2 * .pi * 1800 * s) + 0.6 * sin(2 * .pi * 2900 * s))
                let ball = 0.15 * exp(-s / 0.012) * sin(2 * .pi * 1200 * s)
                x[start + k] += Float(click + strings + ball)
            }
        }
        return x
    }

    static func writeWAV(_ samples: [Float], sampleRate: Int = 44_100, to url: URL) throws {
        try WAVFile.pcm16(samples, sampleRate: sampleRate).write(to: url)
    }


    struct ContactsJSON: Decodable {
        struct Contact: Decodable { var time: Double; var confidence: Double; var fwhmMs: Double; var symmetry: Double; var amplitude: Double }
        var file: String; var duration: Double; var sampleRate: Int; var contacts: [Contact]
    }

    static func contacts(_ file: URL, _ extra: [String] = []) async throws -> ContactsJSON {
        let out = try await InProcess.run(["contacts", file.path, "--json"] + extra)
        #expect(out.status == 0, "stderr: \(out.stderr)")
        return try JSONDecoder().decode(ContactsJSON.self, from: out.data)
    }

    @Test func truthTimesComeBackThroughWavMp4MkvWithin5ms() async throws {
        let dir = try TestFiles.temporaryDirectory("contacts")
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("session.wav")
        try Self.writeWAV(Self.sessionAudio(seconds: 8, impacts: Self.truth), to: wav)
        let mp4 = dir.appendingPathComponent("session.mp4")
        try TestFiles.ffmpeg(["-f", "lavfi", "-i", "color=c=green:s=1280x720:r=30:d=8", "-i", wav.path,
                         "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest", mp4.path])
        let mkv = dir.appendingPathComponent("session.mkv")
        try TestFiles.ffmpeg(["-i", wav.path, "-c:a", "libopus", "-b:a", "96k", mkv.path])
        for file in [wav, mp4, mkv] {
            let json = try await Self.contacts(file)
            let times = json.contacts.map(\.time)
            #expect(times.count == Self.truth.count, "\(file.lastPathComponent): \(times)")
            for (t, truth) in zip(times, Self.truth) {
                #expect(abs(t - truth) <= 0.005, "\(file.lastPathComponent): \(t) vs \(truth)")
            }
            // The detector runs at the track's own rate (Opus decodes at 48 kHz): no resampling.
            #expect(json.sampleRate == (file == mkv ? 48_000 : 44_100), "\(file.lastPathComponent)")
            #expect(abs(json.duration - 8) < 0.05)
            for c in json.contacts { #expect(c.confidence > 0 && c.confidence <= 1 && c.fwhmMs > 0 && c.fwhmMs <= 40) }
        }
    }

    @Test func trimmingKeepsMediaTime() async throws {
        let dir = try TestFiles.temporaryDirectory("contacts-trim")
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("session.wav")
        try Self.writeWAV(Self.sessionAudio(seconds: 8, impacts: Self.truth), to: wav)
        let json = try await Self.contacts(wav, ["--start", "2", "--duration", "5"])
        let times = json.contacts.map(\.time)
        #expect(times.count == 3, "\(times)")       // 2.73, 4.5 and 6.25 lie in [2, 7)
        for t in times { #expect(Self.truth.contains { abs($0 - t) <= 0.005 }, "\(t) is not a truth time in media time") }
    }

    @Test func detectorFlagsChangeTheResult() async throws {
        let dir = try TestFiles.temporaryDirectory("contacts-flags")
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("session.wav")
        try Self.writeWAV(Self.sessionAudio(seconds: 8, impacts: Self.truth), to: wav)
        // A threshold far above any impact finds nothing; a gap longer than the session keeps one.
        await #expect(try Self.contacts(wav, ["--threshold-factor", "100000"]).contacts.isEmpty)
        await #expect(try Self.contacts(wav, ["--min-gap-ms", "9000"]).contacts.count == 1)
        let bad = try await InProcess.run(["contacts", wav.path, "--low-hz", "5000", "--high-hz", "4000"])
        #expect(bad.status != 0)
        #expect(bad.stderr.lowercased().contains("hz"))
    }

    @Test(arguments: BadInput.allCases) func badInputGivesOneClearSentenceAndItsOwnExitCode(_ input: BadInput) async throws {
        let dir = try TestFiles.temporaryDirectory("contacts-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, extra) = try input.make(in: dir)
        let out = try await InProcess.run(["contacts", path] + extra)
        #expect(out.status == input.expectedStatus, "\(input): status \(out.status), stderr \(out.stderr)")
        #expect(out.stderr.hasPrefix("error: "), "\(input): \(out.stderr)")
        #expect(out.stderr.lowercased().contains(input.messageFragment), "\(input): \(out.stderr)")
        #expect(!out.stderr.contains("Fatal error") && out.stdout.isEmpty)
    }

    enum BadInput: String, CaseIterable, CustomStringConvertible {
        case missing, zeroByte, notMedia, truncated, noAudio, tooShort, tooLong
        var description: String { rawValue }

        var expectedStatus: Int32 {
            switch self {
            case .missing: 10
            case .zeroByte, .notMedia, .truncated: 11
            case .noAudio: 12
            case .tooShort: 13
            case .tooLong: 14
            }
        }

        var messageFragment: String {
            switch self {
            case .missing: "no file"
            case .zeroByte: "empty"
            case .notMedia, .truncated: "not"
            case .noAudio: "audio"
            case .tooShort: "at least"
            case .tooLong: "--start"
            }
        }

        func make(in dir: URL) throws -> (String, [String]) {
            let wav = dir.appendingPathComponent("ok.wav")
            switch self {
            case .missing:
                return (dir.appendingPathComponent("nope.mp4").path, [])
            case .zeroByte:
                let f = dir.appendingPathComponent("empty.mp4"); try Data().write(to: f); return (f.path, [])
            case .notMedia:
                let f = dir.appendingPathComponent("notes.mp4"); try Data("just some text, not a video\n".utf8).write(to: f); return (f.path, [])
            case .truncated:
                try writeWAV(sessionAudio(seconds: 8, impacts: [2]), to: wav)
                let full = dir.appendingPathComponent("full.mp4")
                try TestFiles.ffmpeg(["-f", "lavfi", "-i", "color=c=blue:s=640x360:r=30:d=8", "-i", wav.path,
                            "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest", full.path])
                let data = try Data(contentsOf: full)
                let cut = dir.appendingPathComponent("cut.mp4")
                try data.prefix(data.count * 3 / 10).write(to: cut)   // moov at the end: unreadable
                return (cut.path, [])
            case .noAudio:
                let f = dir.appendingPathComponent("silent.mp4")
                try TestFiles.ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=640x360:r=30:d=6", "-c:v", "libx264", "-preset", "ultrafast", f.path])
                return (f.path, [])
            case .tooShort:
                try writeWAV(sessionAudio(seconds: 3, impacts: [1]), to: wav); return (wav.path, [])
            case .tooLong:
                try writeWAV(sessionAudio(seconds: 8, impacts: [1]), to: wav); return (wav.path, ["--max-duration", "6"])
            }
        }
    }
}

