import Foundation
import SwingBiomech
import SwingCore
import SwingMedia
@testable import SwingPipeline
import SwingTestSupport
import Testing

/// The highlights reel (issue #41): which stretches of the video it keeps, and that the frames it writes are
/// the source's own, each kept for its own duration, on a phone-like clip with dropped and stretched frames.
struct HighlightsTests {
    static func document(shots times: [Double], start: Double = 0, duration: Double, strokes: [StrokeType?]? = nil) -> SessionDocument {
        let shots = times.enumerated().map { i, t in
            Shot(index: i + 1, time: t + 0.1, contactTime: t, confidence: 0.8, status: .ok,
                 stroke: strokes?[i] ?? .forehand)
        }
        var s = SessionDocument.Session(id: 1, file: "clip.mp4", createdAt: Date(timeIntervalSince1970: 0), duration: duration,
                                        fps: 30, width: 640, height: 360, hand: .right, shots: shots,
                                        stats: SessionStats(shots: shots), contactsHeard: shots.count, warnings: [],
                                        pose: nil, visualDetector: nil)
        s.start = start
        return SessionDocument(session: s)
    }

    @Test("Clips: every shot's swing is kept, inside the analysed part, in order; rallies are one clip")
    func clipsCoverEveryShot() {
        var rng = SplitMix64(seed: 41)
        for _ in 0..<300 {
            let start = rng.uniform(0, 5), duration = rng.uniform(1, 120)
            let n = rng.int(0...25)
            let times = (0..<n).map { _ in rng.uniform(start - 1, start + duration + 1) }
            let doc = Self.document(shots: times, start: start, duration: duration)
            let clips = SessionHighlights.clips(doc)
            for (i, t) in times.enumerated() {
                let inside = t + SessionHighlights.after > start && t - SessionHighlights.before < start + duration
                let holding = clips.filter { $0.shots.contains(i) }
                #expect(holding.count == (inside ? 1 : 0), "shot at \(t) in \(holding.count) clips")
                if let c = holding.first {
                    #expect(c.start <= max(start, t - SessionHighlights.before) + 1e-9)
                    #expect(c.end >= min(start + duration, t + SessionHighlights.after) - 1e-9)
                }
            }
            for c in clips { #expect(c.start >= start && c.end <= start + duration + 1e-9 && c.start < c.end) }
            for (a, b) in zip(clips, clips.dropFirst()) {
                #expect(b.start - a.end >= SessionHighlights.rallyGap, "clips \(a) and \(b) are one rally")
            }
        }
        #expect(SessionHighlights.clips(Self.document(shots: [], duration: 10)).isEmpty)
    }

    @Test("The reel holds each clip's own frames at their own durations, with a chapter at every shot",
          .enabled(if: FileManager.default.isExecutableFile(atPath: TestFiles.python) || TestFiles.python == "python3"))
    func theReelIsTheSourcesFrames() throws {
        let dir = try TestFiles.temporaryDirectory("highlights")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A phone-like clip: frames dropped in one stretch and every other frame missing in another.
        let clip = try VariableRateClip.make(dir.appendingPathComponent("vfr.mp4").path, fps: 30, width: 320, height: 180,
                                             duration: 9, drops: [2.0...2.4], stretches: [(6.0...7.0, 2)])
        // Two shots close together (one rally) and one alone; a no-person shot still has its chapter.
        let doc = Self.document(shots: [1.0, 2.6, 7.6], duration: 9, strokes: [.forehand, .backhand, .serve])
        let out = dir.appendingPathComponent("reel.mp4").path
        let reel = try SessionHighlights.write(doc, shotFrames: [[], [], []], source: clip.path, to: out, maxSide: nil)
        #expect(reel.clips.map(\.shots) == [[0, 1], [2]])
        #expect(reel.chapters.map(\.title) == ["Shot 1 · Forehand", "Shot 2 · Backhand", "Shot 3 · Serve"])

        // The frames expected: each clip's source frames, the clip's first at the clip's offset in the reel.
        var expected: [(source: Int, time: Double)] = [], offset = 0.0
        for c in reel.clips {
            let frames = clip.times.indices.filter { clip.times[$0] >= c.start - 1e-6 && clip.times[$0] <= c.end + 1e-6 }
            let first = clip.times[frames[0]]
            expected += frames.map { ($0, offset + clip.times[$0] - first) }
            let last = try #require(frames.last)
            offset += (clip.times.indices.contains(last + 1) ? clip.times[last + 1] : clip.duration) - first
        }
        let written = try FrameTimeline(path: out)
        #expect(written.times.count == expected.count)
        for (t, e) in zip(written.times, expected) { #expect(abs(t - e.time) < 0.002, "frame at \(t) s, expected \(e.time) s") }
        #expect(abs(reel.seconds - offset) < 1e-3 && abs(written.end - offset) < 0.05, "reel \(reel.seconds) s written \(written.end) s, clips \(offset) s")

        // Each written frame is its source frame: nearer it than its neighbours, picture for picture.
        func frames(_ path: String) throws -> [[UInt8]] {
            var all: [[UInt8]] = []
            try VideoFrameReader(path: path).frames(from: 0, to: 1e6) { all.append($0.image.pixels); return true }
            return all
        }
        let source = try frames(clip.path), reelFrames = try frames(out)
        func distance(_ a: [UInt8], _ b: [UInt8]) -> Double {
            var d = 0
            for i in Swift.stride(from: 0, to: min(a.count, b.count), by: 7) { d += abs(Int(a[i]) - Int(b[i])) }
            return Double(d) / Double(min(a.count, b.count) / 7)
        }
        var nearest = 0
        for (k, e) in expected.enumerated() where k < reelFrames.count {
            let own = distance(reelFrames[k], source[e.source])
            let others = [e.source - 1, e.source + 1].filter(source.indices.contains).map { distance(reelFrames[k], source[$0]) }
            if others.allSatisfy({ own < $0 }) { nearest += 1 }
        }
        #expect(Double(nearest) >= 0.95 * Double(expected.count), "\(nearest) of \(expected.count) frames are their source frame")

        // The clips' sound, copied in: as long as the picture (within a packet per join), still a tone.
        #expect(reel.hasSound)
        let sound = try AudioExtractor.extract(out)
        #expect(abs(sound.duration - reel.seconds) < 0.1 + 0.03 * Double(reel.clips.count), "sound \(sound.duration) s, picture \(reel.seconds) s")

        // The chapters as a player's app reads them (ffprobe): one per shot, at the shot's preparation.
        let probe = try Subprocess.output("ffprobe", ["-v", "error", "-show_chapters", "-of", "json", out])
        struct Chapters: Decodable {
            struct Chapter: Decodable { var start_time: String; var tags: [String: String] }
            var chapters: [Chapter]
        }
        let chapters = try JSONDecoder().decode(Chapters.self, from: probe).chapters
        #expect(chapters.map { $0.tags["title"] ?? "" } == reel.chapters.map(\.title))
        #expect(zip(chapters, reel.chapters).allSatisfy { abs((Double($0.start_time) ?? -1) - $1.start) < 0.002 })
        #expect(abs((Double(chapters[2].start_time) ?? 0) - (expected.first { clip.times[$0.source] >= 7.6 - SessionHighlights.before - 1e-6 }?.time ?? -1)) < 0.04)
    }

    @Test("A session without a shot has no highlights: said, and no file")
    func noShotNoFile() throws {
        let dir = try TestFiles.temporaryDirectory("highlights-none")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("reel.mp4").path
        #expect(throws: PipelineError.self) {
            try SessionHighlights.write(Self.document(shots: [], duration: 5), shotFrames: [], source: "/nonexistent.mp4",
                                        to: out, maxSide: nil)
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
