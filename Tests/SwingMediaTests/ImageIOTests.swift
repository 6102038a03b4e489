import Foundation
import SwingTestSupport
import SwingCore
import SwingMedia
import Testing

/// A smooth test picture with distinct channels (so a channel swap or flip would show).
func gradientImage(width: Int, height: Int) -> ImageBuffer {
    var p = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
        for x in 0..<width {
            let i = (y * width + x) * 3
            p[i] = UInt8(x * 255 / max(1, width - 1))
            p[i + 1] = UInt8(y * 255 / max(1, height - 1))
            p[i + 2] = 90
        }
    }
    return ImageBuffer(width: width, height: height, pixels: p) ?? ImageBuffer(width: width, height: height)
}

func meanAbsDiff(_ a: ImageBuffer, _ b: ImageBuffer) -> Double {
    guard a.pixels.count == b.pixels.count else { return .infinity }
    var s = 0
    for i in a.pixels.indices { s += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
    return Double(s) / Double(a.pixels.count)
}

@Suite struct ImageIOTests {
    @Test func pngRoundTripIsLossless() throws {
        let img = gradientImage(width: 97, height: 61)   // odd sizes on purpose
        let p = Fixtures.shared.dir.appendingPathComponent("grad.png").path
        try ImageIO.save(img, to: p)
        #expect(try ImageIO.load(p) == img)
    }

    @Test func jpegRoundTripIsClose() throws {
        let img = gradientImage(width: 128, height: 96)
        let p = Fixtures.shared.dir.appendingPathComponent("grad.jpg").path
        try ImageIO.save(img, to: p)
        let back = try ImageIO.load(p)
        #expect(back.width == 128 && back.height == 96)
        // Quantiser 2 on a smooth gradient: errors of a level or two, far below a visible change.
        #expect(meanAbsDiff(img, back) < 2.5)
    }

    @Test func loadsBMPAndWebPWrittenByFFmpeg() throws {
        let img = gradientImage(width: 64, height: 48)
        let png = Fixtures.shared.dir.appendingPathComponent("src.png").path
        try ImageIO.save(img, to: png)
        let bmp = try Fixtures.shared.path("src.bmp") { try TestFiles.ffmpeg(["-i", png, $0]) }
        #expect(try ImageIO.load(bmp) == img)
        let webp = try Fixtures.shared.path("src.webp") { try TestFiles.ffmpeg(["-i", png, "-c:v", "libwebp", "-lossless", "1", $0]) }
        let w = try ImageIO.load(webp)
        #expect(w.width == 64 && w.height == 48)
        // Lossless WebP keeps the pixels; FFmpeg's decoder hands them back as YUV-free RGB(A).
        #expect(meanAbsDiff(img, w) < 1)
    }

    @Test func unreadableImages() throws {
        let txt = try Fixtures.shared.path("notes.png") { try Data("not an image".utf8).write(to: URL(fileURLWithPath: $0)) }
        BadInputTests.expectError(.imageUnreadable, code: StatusCode.imageUnreadable, contains: "not a readable image") {
            _ = try ImageIO.load(txt)
        }
        BadInputTests.expectError(.fileNotFound, code: StatusCode.fileNotFound, contains: "No file at") {
            _ = try ImageIO.load("/nonexistent/ball.jpg")
        }
        BadInputTests.expectError(.encodeFailed, code: StatusCode.outputWriteFailed, contains: ".gif") {
            try ImageIO.save(gradientImage(width: 4, height: 4), to: "/tmp/x.gif")
        }
        BadInputTests.expectError(.encodeFailed, code: StatusCode.outputWriteFailed, contains: "Cannot write") {
            try ImageIO.save(gradientImage(width: 4, height: 4), to: "/nonexistent/dir/x.png")
        }
    }
}
