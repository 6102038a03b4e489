import Foundation
import SwingTestSupport
import SwingCore
@testable import SwingMedia
import Testing

/// Every bad input gives its own error kind and exit code, never a crash.
@Suite struct BadInputTests {
    static func expectError(_ kind: MediaError.Kind, code: Int32, contains text: String, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("expected \(kind) but nothing was thrown")
        } catch let e as MediaError {
            #expect(e.kind == kind)
            #expect(e.statusCode == code)
            #expect(e.description.contains(text), "message: \(e.description)")
            #expect(!e.description.contains("\n"), "one sentence")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func nonexistentPath() {
        Self.expectError(.fileNotFound, code: StatusCode.fileNotFound, contains: "No file at") {
            _ = try MediaProbe.probe("/nonexistent/swing.mp4")
        }
        Self.expectError(.fileNotFound, code: StatusCode.fileNotFound, contains: "No file at") {
            _ = try AudioExtractor.extract("/nonexistent/swing.mp4")
        }
    }

    @Test func zeroByteFile() throws {
        let p = try Fixtures.shared.emptyMP4()
        Self.expectError(.unreadable, code: StatusCode.unreadableMedia, contains: "empty (0 bytes)") {
            _ = try MediaProbe.probe(p)
        }
    }

    @Test func truncatedMP4() throws {
        let p = try Fixtures.shared.truncatedMP4()
        Self.expectError(.unreadable, code: StatusCode.unreadableMedia, contains: "not a readable audio or video file") {
            _ = try MediaProbe.probe(p)
        }
        Self.expectError(.unreadable, code: StatusCode.unreadableMedia, contains: "truncated") {
            _ = try VideoFrameReader(path: p)
        }
    }

    @Test func truncatedStreamableMP4DecodesWhatIsThere() throws {
        // With the index at the front (`-movflags +faststart`, as streaming apps write) a cut file
        // still opens: decoding stops cleanly where the data ends instead of crashing.
        let full = try Fixtures.shared.avMP4()
        let cut = try Fixtures.shared.path("faststart-cut.mp4") { p in
            let fs = p + ".full.mp4"
            try TestFiles.ffmpeg(["-i", full, "-c", "copy", "-movflags", "+faststart", fs])
            let data = try Data(contentsOf: URL(fileURLWithPath: fs))
            try data.prefix(data.count * 3 / 10).write(to: URL(fileURLWithPath: p))
        }
        let pcm = try AudioExtractor.extract(cut)
        #expect(pcm.duration > 0.5 && pcm.duration < 6.0, "partial audio: \(pcm.duration) s")
        let reader = try VideoFrameReader(path: cut, targetSize: (160, 90))
        var n = 0
        while try reader.nextFrame() != nil { n += 1 }
        #expect(n > 10 && n < 195, "partial video: \(n) frames")
    }

    @Test func textFileRenamedMP4() throws {
        let p = try Fixtures.shared.textAsMP4()
        Self.expectError(.unreadable, code: StatusCode.unreadableMedia, contains: "not a readable audio or video file") {
            _ = try AudioExtractor.extract(p)
        }
    }

    @Test func audioOnlyWhereVideoIsRequired() throws {
        let p = try Fixtures.shared.encodedClicks("clicks-aac.m4a", ["-c:a", "aac", "-b:a", "128k"])
        Self.expectError(.noVideoTrack, code: StatusCode.noVideoTrack, contains: "no video track") {
            _ = try VideoFrameReader(path: p)
        }
        let info = try MediaProbe.probe(p)
        Self.expectError(.noVideoTrack, code: StatusCode.noVideoTrack, contains: "no video track") {
            _ = try MediaValidator.validate(info, requireAudio: true, requireVideo: true)
        }
    }

    @Test func videoWithoutAudio() throws {
        let p = try Fixtures.shared.silentMP4()
        Self.expectError(.noAudioTrack, code: StatusCode.noAudioTrack, contains: "no audio track") {
            _ = try AudioExtractor.extract(p)
        }
        let info = try MediaProbe.probe(p)
        Self.expectError(.noAudioTrack, code: StatusCode.noAudioTrack, contains: "no audio track") {
            _ = try MediaValidator.validate(info, requireAudio: true, requireVideo: true)
        }
    }

    @Test func badRangesForExtraction() throws {
        let p = try Fixtures.shared.clickWAV()
        Self.expectError(.invalidTimeRange, code: StatusCode.invalidTimeRange, contains: "past the end") {
            _ = try AudioExtractor.extract(p, range: TimeRange(start: 60, duration: 5))
        }
        Self.expectError(.invalidTimeRange, code: StatusCode.invalidTimeRange, contains: "--duration must be positive") {
            _ = try AudioExtractor.extract(p, range: TimeRange(start: 1, duration: 0))
        }
    }
}
