import Foundation
import SwingTestSupport
import SwingCore
import Testing
@testable import SwingMedia

/// The browser-playable copy the web app makes of iPhone HEVC `.mov` files (issue #12): H.264 MP4,
/// the same frames at the same times, upright, with its audio, index at the front, and nothing left
/// behind when it is stopped.
@Suite struct PlaybackCopyTests {
    /// A 2.5 s phone-like clip: 29.97 fps, with audio, turned 90° by its display matrix (FFmpeg 5
    /// writes the matrix only when remuxing, hence the second pass).
    static func clip(_ name: String, _ codecArgs: [String], audio: String = "aac") throws -> String {
        try Fixtures.shared.path(name) { p in
            let ext = (name as NSString).pathExtension
            let plain = p + ".plain." + ext
            try TestFiles.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30000/1001",
                                 "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                                 "-t", "2.5"] + codecArgs + ["-c:a", audio, "-shortest", plain])
            try TestFiles.ffmpeg(["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=90", p])
        }
    }

    static let hevcMov = ["-c:v", "libx265", "-x265-params", "log-level=error", "-preset", "ultrafast", "-tag:v", "hvc1", "-pix_fmt", "yuv420p"]

    @Test func browsersPlayH264AndVP9InTheirContainersOnly() throws {
        #expect(try !PlaybackCopy.isBrowserPlayable(Self.clip("phone.mov", Self.hevcMov)))
        #expect(try PlaybackCopy.isBrowserPlayable(Self.clip("h264.mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p"])))
        #expect(try !PlaybackCopy.isBrowserPlayable(Self.clip("h264-444.mp4", ["-c:v", "libx264", "-pix_fmt", "yuv444p"])),
                "Chromium does not play H.264 4:4:4")
        #expect(try !PlaybackCopy.isBrowserPlayable(Self.clip("hevc.mp4", Self.hevcMov)))
        #expect(try PlaybackCopy.isBrowserPlayable(Self.clip("vp9.webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime"], audio: "libopus")))
    }

    @Test func anHEVCMovBecomesH264WithTheSameFramesTimesRotationAndSound() throws {
        let source = try Self.clip("phone.mov", Self.hevcMov)
        let copy = Fixtures.shared.dir.appendingPathComponent("phone.playback.mp4").path
        var fractions: [Double] = []
        try PlaybackCopy.make(from: source, to: copy, progress: { fractions.append($0) })
        #expect(try PlaybackCopy.isBrowserPlayable(copy))

        let original = try MediaProbe.probe(source), made = try MediaProbe.probe(copy)
        #expect(made.video?.codec == "h264")
        #expect(made.video?.rotation == original.video?.rotation && original.video?.rotation != 0, "the copy must stand upright as the original does")
        #expect(made.audio?.codec == "aac" && made.audio?.sampleRate == original.audio?.sampleRate)
        #expect(abs(made.duration - original.duration) < 0.05)

        // Same frames at the same media times: what the analysis measured on the original is what
        // the page shows on the copy.
        func times(_ path: String) throws -> [Double] {
            var t: [Double] = []
            try VideoFrameReader(path: path, targetSize: (64, 48)).frames(from: 0, to: 1e9) { t.append($0.time); return true }
            return t
        }
        let a = try times(source), b = try times(copy)
        #expect(a.count == b.count && a.count > 70, "\(a.count) frames in the original, \(b.count) in the copy")
        #expect(zip(a, b).allSatisfy { abs($0 - $1) < 0.001 }, "frame times moved")

        // +faststart: the index comes before the media data.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: copy))
        let moov = bytes.range(of: Data("moov".utf8))?.lowerBound, mdat = bytes.range(of: Data("mdat".utf8))?.lowerBound
        #expect(moov != nil && mdat != nil && moov! < mdat!, "moov must precede mdat")
        #expect(fractions.last == 1 && fractions == fractions.sorted())
    }

    @Test func aStoppedCopyLeavesNothing() throws {
        let source = try Self.clip("phone.mov", Self.hevcMov)
        let folder = Fixtures.shared.dir.appendingPathComponent("stopped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("copy.mp4").path
        var frames = 0
        #expect(throws: CancellationError.self) {
            try PlaybackCopy.make(from: source, to: copy, isCancelled: { frames += 1; return frames > 10 })
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "a stopped copy left a file")
        // Not a video at all: a clear error, nothing written.
        let text = folder.appendingPathComponent("notes.mov").path
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: text))
        #expect(throws: MediaError.self) { try PlaybackCopy.make(from: text, to: copy) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.mov"])
    }
}
