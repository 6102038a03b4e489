import Foundation
import SwingTestSupport
import SwingCore
import SwingMedia
import Testing

/// Variable-frame-rate clips (`tools/make_vfr_clip.py`: runs dropped, stretches) across the sweep's
/// sizes and 24–240 fps: decoded native and scaled, numbered by count after a seek, and rewritten with
/// each frame's own time.
@Suite(.serialized) struct VariableRateSweepTests {
    /// (width, height, fps, container): the smallest H.264 picture, odd row lengths after scaling,
    /// portrait phone sizes.
    static let clips: [(w: Int, h: Int, fps: Double, ext: String)] = [
        (2, 18, 240, "mp4"), (34, 18, 120, "mov"), (130, 18, 60, "mp4"), (720, 1280, 30, "mov"), (1440, 2560, 24, "mp4"),
    ]

    @Test func everyVariableRateClipDecodesAtItsOwnTimesAndRewrites() throws {
        let dir = try SizeSweep.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        for c in Self.clips {
            let name = "vfr-\(c.w)x\(c.h)-\(Int(c.fps)).\(c.ext)"
            let clip = try VariableRateClip.make(dir.appendingPathComponent(name).path, fps: c.fps, width: c.w, height: c.h,
                                                 duration: 1.5, drops: [0.3...0.5], stretches: [(0.9...1.2, 3)])
            for target in [nil, SizeSweep.scaledSize(c.w, c.h, maxSide: 256), (c.w * 3 / 2 + 1, c.h + 3)] as [(Int, Int)?] {
                let label = "\(name) → \(String(describing: target))"
                let want = target ?? (c.w, c.h)
                // A window after the drop: a seek, so the numbers come from the frames' timestamps.
                let reader = try VideoFrameReader(path: clip.path, targetSize: target)
                var frames: [VideoFrame] = []
                try reader.frames(from: 0.6, to: 1e9) { frames.append($0); return true }
                let expected = clip.times.indices.filter { clip.times[$0] >= 0.6 - 1e-4 }
                #expect(frames.map(\.index) == expected, "\(label): frames \(frames.map(\.index).prefix(5))…")
                #expect(zip(frames, expected).allSatisfy { abs($0.time - clip.times[$1]) < 1e-3 }, "\(label): times moved")
                #expect(frames.allSatisfy { $0.image.width == want.0 && $0.image.height == want.1 }, "\(label): frame size")

                // Rewritten with each frame's time (what the annotated video does), read back by ffprobe.
                let out = dir.appendingPathComponent("re-\(want.0)x\(want.1)-\(name)").path
                let writer = try VideoWriter(path: out, width: want.0, height: want.1, fps: c.fps, frameTimes: true)
                for f in frames { try writer.append(f.image, at: f.time) }
                try writer.finish(end: clip.duration)
                let written = try VariableRateClip.probe(out)
                let source = expected.map { clip.times[$0] }
                #expect(written.times.count == source.count && zip(written.times, source).allSatisfy { abs($0 - $1) < 1e-3 },
                        "\(label): rewritten at \(written.times.prefix(4))…")
                #expect(abs(written.end - clip.duration) < 1e-3, "\(label): ends at \(written.end), not \(clip.duration)")
            }
        }
    }
}
