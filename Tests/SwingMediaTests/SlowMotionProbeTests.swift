import Foundation
import SwingTestSupport
import Testing
@testable import SwingMedia

/// Slow-motion files (issue #38): a phone writes the rate it filmed at beside the rate the file plays at
/// (Android's `com.android.capture.fps`, in the container's metadata or the video stream's). The probe reads
/// it and says how many times slower the file plays; real-time files, and files that state their own rate,
/// are not slow motion.
struct SlowMotionProbeTests {
    /// A short clip at `fps` carrying `capture` as the tag, in the container (`stream: false`) or the stream's.
    static func clip(fps: Double, capture: String?, stream: Bool, container: String) throws -> String {
        let tag = capture.map { "\($0)" } ?? "none"
        let name = "slowmo-\(fps)-\(tag)-\(stream ? "s" : "f").\(container)"
        return try Fixtures.shared.path(name) { p in
            var args = ["-f", "lavfi", "-i", "testsrc2=s=96x64:r=\(fps):d=0.5", "-c:v", "libx264", "-preset", "ultrafast"]
            if let capture {
                args += stream ? ["-metadata:s:v:0", "com.android.capture.fps=\(capture)"] : ["-metadata", "com.android.capture.fps=\(capture)"]
                if container == "mp4" { args += ["-movflags", "use_metadata_tags"] }
            }
            try TestFiles.ffmpeg(args + [p])
        }
    }

    @Test("The capture rate and the slow-motion factor come from the file, wherever the phone put the tag",
          arguments: [(240.0, 30.0), (120.0, 30.0), (960.0, 30.0), (240.0, 24.0), (120.0, 60.0), (60.0, 25.0)])
    func slowMotion(capture: Double, fps: Double) throws {
        for (stream, container) in [(false, "mp4"), (true, "mkv"), (false, "mkv")] {
            let path = try Self.clip(fps: fps, capture: String(format: "%.6f", capture), stream: stream, container: container)
            let video = try #require(try MediaProbe.probe(path).video)
            #expect(video.captureFrameRate == capture, "\(container) stream tag \(stream): \(String(describing: video.captureFrameRate))")
            let factor = try #require(video.slowMotion)
            #expect(abs(factor - capture / fps) < 1e-6)
        }
    }

    @Test("Real time: no tag, the file's own rate, a nominal 30 on 29.97, or a tag that is not a number")
    func realTime() throws {
        for (fps, capture) in [(30.0, nil), (240.0, "240.000000"), (29.97, "30.000000"), (30.0, "fast"), (30.0, "-240"), (30.0, "")] as [(Double, String?)] {
            let path = try Self.clip(fps: fps, capture: capture, stream: false, container: "mp4")
            let video = try #require(try MediaProbe.probe(path).video)
            #expect(video.slowMotion == nil, "\(fps) fps tagged \(String(describing: capture))")
        }
    }
}
