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
