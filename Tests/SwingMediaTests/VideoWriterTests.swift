import Foundation
import SwingTestSupport
import SwingCore
import SwingMedia
import Testing

@Suite struct VideoWriterTests {
    @Test func writesAPlayableH264MP4() throws {
        let p = Fixtures.shared.dir.appendingPathComponent("written.mp4").path
        let w = try VideoWriter(path: p, width: 320, height: 240, fps: 30)
        let base = gradientImage(width: 320, height: 240)
        for i in 0..<45 {
            var img = base
            // A moving bright bar lets us check that frames stay in order.
            for y in 0..<240 { for x in (i * 6)..<(i * 6 + 6) { img.pixels[(y * 320 + x) * 3 + 2] = 255 } }
            try w.append(img)
        }
        try w.finish()
        try w.finish()   // idempotent

        let info = try MediaProbe.probe(p)
        let v = try #require(info.video)
        #expect(v.codec == (w.encoderName == "libx264" ? "h264" : "mpeg4"))
        #expect(v.width == 320 && v.height == 240 && abs(v.frameRate - 30) < 1e-6)
        #expect(v.frameCount == 45)
        #expect(abs(info.duration - 1.5) < 0.05)

        let r = try VideoFrameReader(path: p)
        var n = 0
        while let f = try r.nextFrame() {
            #expect(f.index == n)
            // The bar is where frame n put it (blue channel ~255 in its columns).
            let x = n * 6 + 3, y = 120
            #expect(f.image.pixels[(y * 320 + x) * 3 + 2] > 200, "bar of frame \(n)")
            if n == 0 { #expect(meanAbsDiff(f.image, base) < 4) }
            n += 1
        }
        #expect(n == 45)
    }

    @Test func rejectsBadParameters() throws {
        BadInputTests.expectError(.encodeFailed, code: StatusCode.outputWriteFailed, contains: "2×2") {
            _ = try VideoWriter(path: "/tmp/tiny.mp4", width: 1, height: 240, fps: 30)
        }
        BadInputTests.expectError(.encodeFailed, code: StatusCode.outputWriteFailed, contains: "Cannot write") {
            _ = try VideoWriter(path: "/nonexistent/dir/out.mp4", width: 320, height: 240, fps: 30)
        }
        let p = Fixtures.shared.dir.appendingPathComponent("mismatch.mp4").path
        let w = try VideoWriter(path: p, width: 320, height: 240, fps: 30)
        BadInputTests.expectError(.encodeFailed, code: StatusCode.outputWriteFailed, contains: "160×120") {
            try w.append(gradientImage(width: 160, height: 120))
        }
    }
}
