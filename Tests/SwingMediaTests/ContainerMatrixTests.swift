import Foundation
import SwingTestSupport
import SwingMedia
import Testing

/// The common containers and codecs a player's camera or editor produces all open, probe, decode
/// to the right number of frames and give their audio back with the right timing.
@Suite struct ContainerMatrixTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        let videoCodec: String
        let args: [String]
        var testDescription: String { "\(file) (\(videoCodec))" }
    }

    static let cases: [Case] = [
        Case(file: "m-h264-aac.mov", videoCodec: "h264", args: ["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac"]),
        Case(file: "m-hevc-aac.mkv", videoCodec: "hevc", args: ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-c:a", "aac"]),
        Case(file: "m-vp9-opus.webm", videoCodec: "vp9", args: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "libopus"]),
        Case(file: "m-mpeg4-mp3.avi", videoCodec: "mpeg4", args: ["-c:v", "mpeg4", "-c:a", "libmp3lame"]),
        Case(file: "m-h264-pcm.mkv", videoCodec: "h264", args: ["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "pcm_s16le"]),
    ]

    @Test("opens, probes and decodes", arguments: cases)
    func decodes(_ c: Case) throws {
        let wav = try Fixtures.shared.clickWAV()
        let path = try Fixtures.shared.path(c.file) { p in
            try TestFiles.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=6.5", "-i", wav, "-pix_fmt", "yuv420p"]
                                + c.args + ["-shortest", p])
        }
        let info = try MediaProbe.probe(path)
        #expect(info.video?.codec == c.videoCodec)
        #expect(info.video?.width == 320 && info.video?.height == 240)
        #expect(abs((info.video?.frameRate ?? 0) - 30) < 0.01)
        #expect(info.audio != nil)

        let reader = try VideoFrameReader(path: path)
        var times: [Double] = []
        try reader.frames(from: 3.0, to: 3.2) { times.append($0.time); return true }
        // 6 or 7 frames depending on the file's own A/V offset (WebM/VP9 from ffmpeg starts video at 7 ms).
        #expect((6...7).contains(times.count), "frames in [3.0, 3.2] at 30 fps: \(times)")
        #expect(times.allSatisfy { $0 >= 3.0 && $0 <= 3.2 })
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 0.0015 })

        // Audio and video share one timeline: the click at 3.0 s is heard at 3.0 s (±1 ms).
        let pcm = try AudioExtractor.extract(path, range: TimeRange(start: 2.5, duration: 1))
        let t = try #require(energyCentroid(pcm.samples, rate: pcm.sampleRate, startTime: pcm.startTime, near: 3.0))
        print("timing \(c.file) (range 2.5 s +1 s): \(String(format: "%+.3f ms", (t - 3.0) * 1000))")
        // AVI stores no MP3 encoder delay (the ffmpeg CLI itself puts this click at +23 ms): not asserted.
        if !c.file.hasSuffix(".avi") { #expect(abs(t - 3.0) <= 0.001) }
    }
}
