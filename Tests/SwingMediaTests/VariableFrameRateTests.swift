import Foundation
import SwingTestSupport
import SwingCore
import SwingMedia
import Testing

/// Phone footage with frames dropped and stretched (`tools/make_vfr_clip.py`): frame numbers and
/// written videos follow each frame's own time, never `n / fps`.
@Suite struct VariableFrameRateTests {
    /// (grid fps, size, container, drops, stretches): 24–240 fps, both containers, odd-looking sizes.
    static let clips: [(fps: Double, w: Int, h: Int, ext: String, drops: [ClosedRange<Double>], stretches: [(ClosedRange<Double>, Int)])] = [
        (24, 320, 240, "mp4", [0.6...1.1], [(2.0...2.6, 2)]),
        (30, 640, 360, "mov", [0.3...0.5, 1.7...2.3], []),
        (60, 360, 640, "mp4", [1.0...1.2], [(0.2...0.7, 3)]),
        (120, 176, 144, "mov", [], [(1.0...2.0, 4)]),
        (240, 256, 144, "mp4", [0.5...0.9], [(1.5...1.9, 2)]),
    ]

    static func clip(_ i: Int) throws -> VariableRateClip {
        let c = clips[i]
        let name = "vfr-\(Int(c.fps))-\(c.w)x\(c.h).\(c.ext)"
        return try VariableRateClip.load(Fixtures.shared.path(name) { p in
            _ = try VariableRateClip.make(p, fps: c.fps, width: c.w, height: c.h, duration: 3, drops: c.drops, stretches: c.stretches)
        })
    }

    @Test(arguments: clips.indices) func theTimelineHasEveryFrameAtItsOwnTime(_ i: Int) throws {
        let clip = try Self.clip(i)
        let timeline = try FrameTimeline(path: clip.path)
        #expect(timeline.count == clip.times.count)
        // Times are exact to the container's clock (far below a frame at 240 fps).
        let worst = zip(timeline.times, clip.times).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst < 1e-3, "\(clip.path): worst \(worst) s")
        #expect(abs(timeline.end - clip.duration) < 1 / clip.fps)
        for (n, t) in clip.times.enumerated() { #expect(timeline.frame(nearest: t + 0.2 / clip.fps) == n) }
    }

    @Test(arguments: clips.indices) func framesAreNumberedByCountNotByRate(_ i: Int) throws {
        let clip = try Self.clip(i)
        // From the start: every frame decoded, numbered and timed as the manifest says.
        let reader = try VideoFrameReader(path: clip.path)
        var n = 0
        while let f = try reader.nextFrame() {
            #expect(f.index == n && abs(f.time - clip.times[n]) < 1e-3, "frame \(n) of \(clip.path): \(f.index) at \(f.time)")
            n += 1
        }
        #expect(n == clip.times.count)
        // After a seek into the middle (past the first drop or stretch) the numbers are the same.
        let window = try VideoFrameReader(path: clip.path)
        var seen = 0
        try window.frames(from: 1.2, to: 2.5) { f in
            let want = clip.frame(nearest: f.time)
            #expect(f.index == want && abs(f.time - clip.times[want]) < 1e-3, "\(clip.path) at \(f.time): \(f.index), not \(want)")
            seen += 1
            return true
        }
        #expect(seen == clip.times.filter { $0 >= 1.2 - 1e-4 && $0 <= 2.5 + 1e-4 }.count)
    }

    @Test(arguments: clips.indices) func aWriterWithFrameTimesKeepsEachFramesTime(_ i: Int) throws {
        let clip = try Self.clip(i)
        let out = Fixtures.shared.dir.appendingPathComponent("rewritten-\(i).\(i % 2 == 0 ? "mp4" : "mov")").path
        let reader = try VideoFrameReader(path: clip.path)
        let average = Double(clip.times.count) / clip.duration
        let writer = try VideoWriter(path: out, width: clip.width, height: clip.height, fps: average, frameTimes: true)
        while let f = try reader.nextFrame() { try writer.append(f.image, at: f.time) }
        try writer.finish(end: clip.duration)
        let written = try VariableRateClip.probe(out)
        #expect(written.times.count == clip.times.count)
        let worst = zip(written.times, clip.times).map { abs($0 - $1) }.max() ?? .infinity
        // Within one tick of the 90 kHz clock plus the container's rounding.
        #expect(worst < 1e-3, "\(out): worst \(worst) s")
        #expect(abs(written.end - clip.duration) < 1e-3, "\(out) ends at \(written.end), the source at \(clip.duration)")
    }

    /// Over random variable-rate timelines: the first frame at or after a time is the one a walk through every
    /// frame finds, before the first frame, between frames, on a frame and after the last.
    @Test(arguments: 0..<6)
    func theFirstFrameAtOrAfterATimeIsFoundBySearch(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var t = rng.uniform(0, 1), times: [Double] = []
        for _ in 0..<rng.int(0...400) { times.append(t); t += rng.uniform(0.001, 0.1) }
        let timeline = FrameTimeline(times: times, end: t)
        for _ in 0..<200 {
            let probe = rng.int(0...3) == 0 && !times.isEmpty ? times[rng.int(0...(times.count - 1))] : rng.uniform(-0.5, t + 0.5)
            #expect(timeline.firstIndex(atOrAfter: probe) == (times.firstIndex { $0 >= probe } ?? times.count), "\(probe) in \(times.count) frames")
        }
    }

    @Test func framesWithoutTimesAreEvenlySpacedAndTimesMustBeFinite() throws {
        let out = Fixtures.shared.dir.appendingPathComponent("timed-even.mp4").path
        let writer = try VideoWriter(path: out, width: 64, height: 48, fps: 25, frameTimes: true)
        let image = try #require(ImageBuffer(width: 64, height: 48, pixels: [UInt8](repeating: 90, count: 64 * 48 * 3)))
        for _ in 0..<5 { try writer.append(image) }
        try writer.append(image, at: 1.0)
        BadInputTests.expectError(.encodeFailed, code: StatusCode.outputWriteFailed, contains: "finite") {
            try writer.append(image, at: .nan)
        }
        try writer.finish()
        let written = try VariableRateClip.probe(out)
        let want = [0, 0.04, 0.08, 0.12, 0.16, 1.0]
        #expect(written.times.count == want.count && zip(written.times, want).allSatisfy { abs($0 - $1) < 1e-3 }, "\(written.times)")
        let even = try VideoWriter(path: out, width: 64, height: 48, fps: 25)
        BadInputTests.expectError(.encodeFailed, code: StatusCode.outputWriteFailed, contains: "frame times") {
            try even.append(image, at: 0)
        }
    }
}
