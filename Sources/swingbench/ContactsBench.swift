import ArgumentParser
import Foundation
import SwingAudio
import SwingCore
import SwingTestSupport

/// `swingbench contacts` — times the audio contact detector on a WAV file, writes synthetic tracks,
/// and scores the synthetic suite per condition (the numbers in docs/contacts.md).
struct ContactsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contacts",
        abstract: "Time the contact detector on a WAV (--wav), write a synthetic track (--synthesize), or score the suite (--suite)."
    )

    @Option(help: "44.1 kHz mono WAV (PCM 16/24/32-bit or float32) to time detect() on (median of --repeats).")
    var wav: String?
    @Option(help: "Number of timed runs; the median is reported.")
    var repeats = 3
    @Option(help: "Write a synthetic track to this WAV path (+ truth in PATH.truth.json).")
    var synthesize: String?
    @Option(help: "Synthetic track length, s.")
    var seconds = 600.0
    @Option(help: "Synthetic seed.")
    var seed: UInt64 = 1
    @Option(help: "Synthetic condition: clean, ambience, wind, bounces, squeaks, voices, distant, mixed.")
    var condition = "mixed"
    @Flag(help: "Score every condition over --seeds seeds of --track-seconds each; prints per-condition F1.")
    var suite = false
    @Option(help: "Seeds per condition for --suite.")
    var seeds = 5
    @Option(help: "Track length for --suite, s.")
    var trackSeconds = 60.0
    @Option(help: "Parameter variant: default, spec-literal, rms, one-pass, local-maxima, peak-time, no-thud, no-broadband, no-loudness-gate.")
    var variant = "default"
    @Option(help: "Matching tolerance for --suite, ms.")
    var toleranceMs = 20.0

    func run() throws {
        let params = try Self.parameters(variant)
        if let path = synthesize {
            guard let cond = SyntheticSessionAudio.Condition.all.first(where: { $0.name == condition }) else {
                throw ValidationError("unknown condition \(condition)")
            }
            let track = SyntheticSessionAudio(duration: seconds, seed: seed, condition: cond).render()
            try track.float32WAV().write(to: URL(fileURLWithPath: path))
            let truth: [String: Any] = ["contacts": track.contactTimes, "sampleRate": track.sampleRate,
                                        "distractors": track.distractors.map { ["kind": $0.kind, "time": $0.time] }]
            try JSONSerialization.data(withJSONObject: truth, options: [.sortedKeys])
                .write(to: URL(fileURLWithPath: path + ".truth.json"))
        }
        if let wav {
            let (samples, rate) = try WAVReader.read(path: wav)
            let detector = ContactDetector(parameters: params)
            var times: [Double] = [], cpu: [Double] = []
            var count = 0
            for _ in 0..<max(1, repeats) {
                let start = DispatchTime.now().uptimeNanoseconds, c0 = CPUTime.seconds()
                count = try detector.detect(samples: samples, sampleRate: rate).count
                cpu.append(CPUTime.seconds() - c0)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            let median = times.sorted()[times.count / 2], cpuMedian = cpu.sorted()[cpu.count / 2]
            let audio = Double(samples.count) / rate
            print(String(format: "{\"seconds\": %.6f, \"cpuSeconds\": %.6f, \"audioSeconds\": %.3f, \"realtimeFactor\": %.1f, \"contacts\": %d}",
                         median, cpuMedian, audio, audio / median, count))
        }
        if suite { try runSuite(params) }
    }

    private func runSuite(_ params: ContactDetectorParameters) throws {
        let detector = ContactDetector(parameters: params)
        var total: ContactScore?
        print("variant \(variant), \(seeds) seeds × \(trackSeconds) s, tolerance ±\(toleranceMs) ms")
        print("condition   contacts  TP   FP   FN   precision recall F1     max|err| ms  median|err| ms")
        for cond in SyntheticSessionAudio.Condition.all {
            var score: ContactScore?
            for s in 0..<seeds {
                let track = SyntheticSessionAudio(duration: trackSeconds, seed: UInt64(s + 1), condition: cond).render()
                let found = try detector.detect(samples: track.samples, sampleRate: track.sampleRate).map(\.time)
                let sc = ContactScore(detected: found, truth: track.contactTimes, tolerance: toleranceMs / 1000)
                score = score.map { $0 + sc } ?? sc
            }
            guard let score else { continue }
            total = total.map { $0 + score } ?? score
            let med = score.errors.sorted().dropFirst(score.errors.count / 2).first ?? 0
            print(String(format: "%-10@ %8d %4d %4d %4d   %.3f    %.3f  %.3f  %6.2f       %6.2f",
                         cond.name as NSString, score.truePositives + score.falseNegatives, score.truePositives,
                         score.falsePositives, score.falseNegatives, score.precision, score.recall, score.f1,
                         score.maxError * 1000, med * 1000))
        }
        if let total { print(String(format: "all        F1 %.3f", total.f1)) }
    }

    /// The named parameter variants used to measure each robustness addition.
    static func parameters(_ name: String) throws -> ContactDetectorParameters {
        var p = ContactDetectorParameters.default
        switch name {
        case "default": break
        case "spec-literal": p = .specLiteral
        case "rms": p.envelopeMode = .rms
        case "one-pass": p.envelopeSmoothingPasses = 1
        case "local-maxima": p.peakPicking = .localMaxima
        case "peak-time": p.timeReference = .peak
        case "no-thud": p.rejectThuds = false
        case "no-broadband": p.requireBroadband = false
        case "no-loudness-gate": p.minRelativeAmplitude = 0
        default: throw ValidationError("unknown variant \(name)")
        }
        return p
    }
}

/// Minimal RIFF/WAVE reader for the bench (SwingMedia is the real decoder): PCM 16/24/32 or float32,
/// channels averaged to mono.
enum WAVReader {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static func read(path: String) throws -> ([Float], Double) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let b = [UInt8](data)
        func u16(_ o: Int) -> Int { Int(b[o]) | Int(b[o + 1]) << 8 }
        func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
        guard b.count >= 12, String(decoding: b[0..<4], as: UTF8.self) == "RIFF",
              String(decoding: b[8..<12], as: UTF8.self) == "WAVE" else { throw Failure(description: "\(path) is not a WAV file") }
        var o = 12
        var format = 0, channels = 0, rate = 0, bits = 0
        while o + 8 <= b.count {
            let id = String(decoding: b[o..<(o + 4)], as: UTF8.self), size = u32(o + 4)
            let body = o + 8
            if id == "fmt ", body + 16 <= b.count {
                format = u16(body); channels = u16(body + 2); rate = u32(body + 4); bits = u16(body + 14)
                if format == 0xFFFE, body + 26 <= b.count { format = u16(body + 24) }
            } else if id == "data" {
                guard channels > 0, bits > 0 else { throw Failure(description: "WAV data before fmt") }
                let width = bits / 8, frames = min(size, b.count - body) / (width * channels)
                var out = [Float](repeating: 0, count: frames)
                for f in 0..<frames {
                    var acc: Float = 0
                    for c in 0..<channels {
                        let p = body + (f * channels + c) * width
                        switch (format, bits) {
                        case (3, 32): acc += Float(bitPattern: UInt32(u32(p)))
                        case (1, 16): acc += Float(Int16(bitPattern: UInt16(u16(p)))) / 32768
                        case (1, 24): acc += Float(Int32(bitPattern: UInt32(u32(p - 1) & ~0xFF)) >> 8) / 8_388_608
                        case (1, 32): acc += Float(Int32(bitPattern: UInt32(u32(p)))) / 2_147_483_648
                        default: throw Failure(description: "unsupported WAV format \(format)/\(bits)-bit")
                        }
                    }
                    out[f] = acc / Float(channels)
                }
                return (out, Double(rate))
            }
            o = body + size + (size & 1)
        }
        throw Failure(description: "WAV has no data chunk")
    }
}
