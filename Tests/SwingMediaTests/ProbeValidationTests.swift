import Foundation
import SwingTestSupport
import SwingCore
@testable import SwingMedia
import Testing

@Suite struct ProbeTests {
    @Test func probesVideoAndAudioStreams() throws {
        let info = try MediaProbe.probe(try Fixtures.shared.avMP4())
        #expect(info.formatName.contains("mp4"))
        #expect(abs(info.duration - 6.5) < 0.05)
        let v = try #require(info.video)
        #expect(v.codec == "h264")
        #expect(v.width == 1280 && v.height == 720)
        #expect(abs(v.frameRate - 30) < 1e-6)
        #expect(v.rotation == 0)
        #expect(v.frameCount == 195)
        let a = try #require(info.audio)
        #expect(a.codec == "aac" && a.sampleRate == 48_000 && a.channels == 1)
    }

    @Test func reportsRotationFromDisplayMatrix() throws {
        let info = try MediaProbe.probe(try Fixtures.shared.rotatedMP4())
        let v = try #require(info.video)
        #expect(v.rotation == 90)
        #expect(v.displaySize == (240, 320))
    }

    @Test func audioOnlyFileHasNoVideo() throws {
        let info = try MediaProbe.probe(try Fixtures.shared.encodedClicks("clicks.mp3", ["-c:a", "libmp3lame", "-b:a", "192k"]))
        #expect(info.video == nil)
        #expect(info.audio?.codec == "mp3")
    }

    @Test func rotationSnapsToQuarterTurns() {
        #expect(MediaProbe.normalisedRotation(-90) == 270)
        #expect(MediaProbe.normalisedRotation(89.99) == 90)
        #expect(MediaProbe.normalisedRotation(-180) == 180)
        #expect(MediaProbe.normalisedRotation(360) == 0)
    }
}

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
        Self.expectError(.fileNotFound, code: StatusCode.fileNotFound, contains: "no file at") {
            _ = try MediaProbe.probe("/nonexistent/swing.mp4")
        }
        Self.expectError(.fileNotFound, code: StatusCode.fileNotFound, contains: "no file at") {
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

@Suite struct ValidatorTests {
    static func info(duration: Double, height: Int = 1080, audio: Bool = true) -> MediaInfo {
        MediaInfo(path: "swing.mp4", formatName: "mov,mp4", duration: duration, startTime: 0,
                  video: VideoStreamInfo(codec: "h264", width: height * 16 / 9, height: height, frameRate: 60, rotation: 0, frameCount: nil),
                  audio: audio ? AudioStreamInfo(codec: "aac", sampleRate: 48_000, channels: 2) : nil)
    }

    @Test func tooShortSaysHowLongAndTheMinimum() {
        BadInputTests.expectError(.tooShort, code: StatusCode.mediaTooShort, contains: "video is 3.2 s long; Swingmaster needs at least 5 s") {
            _ = try MediaValidator.validate(Self.info(duration: 3.2), requireAudio: true, requireVideo: true)
        }
    }

    @Test func tooLongSuggestsTrimming() {
        BadInputTests.expectError(.tooLong, code: StatusCode.mediaTooLong,
                                  contains: "video is 12 min 4 s long (limit 10 min); trim it with --start and --duration or raise --max-duration") {
            _ = try MediaValidator.validate(Self.info(duration: 724), requireAudio: true, requireVideo: true)
        }
    }

    @Test func rangeMakesALongVideoAcceptable() throws {
        let w = try MediaValidator.validate(Self.info(duration: 724), requireAudio: true, requireVideo: true,
                                            range: TimeRange(start: 60, duration: 300))
        #expect(w.isEmpty)
        BadInputTests.expectError(.tooShort, code: StatusCode.mediaTooShort, contains: "the selected range is 4 s long") {
            _ = try MediaValidator.validate(Self.info(duration: 724), requireAudio: true, requireVideo: true,
                                            range: TimeRange(start: 720, duration: nil))
        }
    }

    @Test func limitsAreConfigurable() throws {
        let limits = MediaLimits(minDuration: 1, maxDuration: 1200, minHeight: 480)
        #expect(try MediaValidator.validate(Self.info(duration: 724, height: 540), limits: limits,
                                            requireAudio: true, requireVideo: true).isEmpty)
    }

    @Test func lowResolutionIsAWarningNotAnError() throws {
        let w = try MediaValidator.validate(Self.info(duration: 30, height: 480), requireAudio: true, requireVideo: true)
        #expect(w.count == 1)
        #expect(w.first?.contains("below 720p") == true)
        #expect(try MediaValidator.validate(Self.info(duration: 30, height: 720), requireAudio: true, requireVideo: true).isEmpty)
    }

    @Test func negativeStartIsInvalid() {
        BadInputTests.expectError(.invalidTimeRange, code: StatusCode.invalidTimeRange, contains: "--start") {
            _ = try MediaValidator.validate(Self.info(duration: 30), requireAudio: true, requireVideo: false,
                                            range: TimeRange(start: -1, duration: 10))
        }
    }
}
