import Foundation
import SwingTestSupport
import SwingCore
@testable import SwingMedia
import Testing

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
        BadInputTests.expectError(.tooShort, code: StatusCode.mediaTooShort, contains: "The selected range is 4 s long") {
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
