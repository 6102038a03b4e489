import Foundation
import SwingMedia
import Testing

/// A sound at t in the source must come out at t after any container/codec round trip.
@Suite struct AudioTimingTests {
    /// One encoding of the click track: file name and ffmpeg output options.
    struct Encoding: Sendable, CustomTestStringConvertible {
        let file: String
        let args: [String]
        var testDescription: String { file }
    }

    static let encodings: [Encoding] = [
        Encoding(file: "clicks-pcm.wav", args: ["-c:a", "pcm_s16le"]),
        Encoding(file: "clicks-aac.m4a", args: ["-c:a", "aac", "-b:a", "128k"]),
        Encoding(file: "clicks-aac.mp4", args: ["-c:a", "aac", "-b:a", "128k"]),
        Encoding(file: "clicks-aac.mov", args: ["-c:a", "aac", "-b:a", "128k"]),
        Encoding(file: "clicks-aac.mkv", args: ["-c:a", "aac", "-b:a", "128k"]),
        Encoding(file: "clicks.mp3", args: ["-c:a", "libmp3lame", "-b:a", "192k"]),
        Encoding(file: "clicks-opus.webm", args: ["-c:a", "libopus", "-b:a", "128k"]),
        Encoding(file: "clicks-opus.ogg", args: ["-c:a", "libopus", "-b:a", "128k"]),
        Encoding(file: "clicks-stereo-aac.mp4", args: ["-ac", "2", "-c:a", "aac", "-b:a", "192k"]),
    ]

    /// ±1 ms: the brief's bound; a whole-sample error at 44.1 kHz is 0.023 ms, so anything
    /// beyond a millisecond is a real timeline bug (AAC priming alone is 21–23 ms).
    static let tolerance = 0.001

    @Test("click times survive encoding", arguments: encodings)
    func clickTimes(_ enc: Encoding) throws {
        let path = try Fixtures.shared.encodedClicks(enc.file, enc.args)
        let pcm = try AudioExtractor.extract(path)
        #expect(pcm.sampleRate == 44_100)
        #expect(abs(pcm.startTime) < 0.5 / 44_100 + 1e-9, "starts at media time 0")
        var offsets: [String] = []
        for t in Fixtures.clickTimes {
            let found = try #require(energyCentroid(pcm.samples, rate: pcm.sampleRate, startTime: pcm.startTime, near: t))
            offsets.append(String(format: "%+.3f ms", (found - t) * 1000))
            #expect(abs(found - t) <= Self.tolerance, "click at \(t) s found at \(found) s in \(enc.file)")
        }
        print("timing \(enc.file): \(offsets.joined(separator: ", "))")
        #expect(abs(pcm.duration - Fixtures.clickTrackDuration) < 0.03, "duration \(pcm.duration)")
    }

    @Test("a range starts at its start, to the sample, and keeps click times", arguments: [
        Encoding(file: "clicks-aac.m4a", args: ["-c:a", "aac", "-b:a", "128k"]),
        Encoding(file: "clicks.mp3", args: ["-c:a", "libmp3lame", "-b:a", "192k"]),
        Encoding(file: "clicks-opus.webm", args: ["-c:a", "libopus", "-b:a", "128k"]),
    ])
    func rangeTrim(_ enc: Encoding) throws {
        let path = try Fixtures.shared.encodedClicks(enc.file, enc.args)
        let pcm = try AudioExtractor.extract(path, range: TimeRange(start: 2.5, duration: 1.5))
        #expect(abs(pcm.startTime - 2.5) <= 0.5 / 44_100 + 1e-9)
        #expect(pcm.samples.count == Int((1.5 * 44_100).rounded()))
        let found = try #require(energyCentroid(pcm.samples, rate: pcm.sampleRate, startTime: pcm.startTime, near: 3.0))
        #expect(abs(found - 3.0) <= Self.tolerance, "click at 3.0 s found at \(found) s")
        // Nothing from outside the range leaks in: the clicks at 1.0 and 5.25 s are gone.
        #expect(pcm.samples.prefix(4_000).allSatisfy { abs($0) < 0.01 })
    }

    @Test func otherSampleRatesKeepTimes() throws {
        let path = try Fixtures.shared.encodedClicks("clicks-aac.m4a", ["-c:a", "aac", "-b:a", "128k"])
        let pcm = try AudioExtractor.extract(path, sampleRate: 16_000)
        #expect(pcm.sampleRate == 16_000)
        for t in Fixtures.clickTimes {
            let found = try #require(energyCentroid(pcm.samples, rate: 16_000, startTime: pcm.startTime, near: t))
            #expect(abs(found - t) <= Self.tolerance)
        }
    }

    @Test func progressIsReportedAndEndsAtOne() throws {
        let path = try Fixtures.shared.clickWAV()
        let box = ProgressBox()
        _ = try AudioExtractor.extract(path, progress: { stage, f in box.add(stage, f) })
        let seen = box.values
        #expect(seen.last?.1 == 1)
        #expect(seen.allSatisfy { $0.0 == "audio" && $0.1 >= 0 && $0.1 <= 1 })
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.1 <= $1.1 }, "monotone")
    }
}

final class ProgressBox: @unchecked Sendable {   // guarded by lock
    private let lock = NSLock()
    private var items: [(String, Double)] = []
    func add(_ s: String, _ f: Double) { lock.lock(); items.append((s, f)); lock.unlock() }
    var values: [(String, Double)] { lock.lock(); defer { lock.unlock() }; return items }
}
