import ArgumentParser
import Foundation
import SwingMedia

/// `swingbench media [FILE]` — video decode + RGB conversion speed (frames/s) and audio extraction
/// speed (× real time), with the `ffmpeg` CLI doing the same decode + RGB conversion as the peer.
struct MediaBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "media",
        abstract: "Decode speed of SwingMedia (video → RGB, audio → mono PCM) against the ffmpeg CLI.")

    @Argument(help: "Video to decode. Default: a generated 1080p30 H.264 + AAC clip.")
    var file: String?

    @Option(help: "Length in seconds of the generated clip.")
    var seconds: Double = 10

    @Option(help: "Also decode resized to WIDTHxHEIGHT (e.g. 640x360); empty to skip.")
    var resize: String = "640x360"

    func run() throws {
        let path = try file ?? generateClip()
        let info = try MediaProbe.probe(path)
        guard let v = info.video else { throw ValidationError("\(path) has no video track") }
        print("media: \(path): \(v.codec) \(v.width)x\(v.height) @ \(String(format: "%.2f", v.frameRate)) fps, \(String(format: "%.1f", info.duration)) s, \(ProcessInfo.processInfo.activeProcessorCount) cores")

        let native = try timeFrames(path, size: nil)
        print(String(format: "media: SwingMedia decode+RGB %dx%d: %d frames in %.2f s = %.1f frames/s",
                     v.displaySize.width, v.displaySize.height, native.frames, native.seconds, Double(native.frames) / native.seconds))
        let peer = try timeFFmpeg(path)
        print(String(format: "media: ffmpeg CLI decode+RGB (peer):     %.2f s = %.1f frames/s; ratio SwingMedia/ffmpeg speed = %.2f",
                     peer, Double(native.frames) / peer, peer / native.seconds))
        let parts = resize.split(separator: "x").compactMap { Int($0) }
        if parts.count == 2 {
            let small = try timeFrames(path, size: (parts[0], parts[1]))
            print(String(format: "media: SwingMedia decode+RGB resized %dx%d: %.1f frames/s",
                         parts[0], parts[1], Double(small.frames) / small.seconds))
        }
        if info.audio != nil {
            let t0 = Date()
            let pcm = try AudioExtractor.extract(path)
            let dt = Date().timeIntervalSince(t0)
            print(String(format: "media: audio → mono 44.1 kHz: %.1f s of audio in %.3f s = %.0f× real time",
                         pcm.duration, dt, pcm.duration / dt))
        }
    }

    private func timeFrames(_ path: String, size: (Int, Int)?) throws -> (frames: Int, seconds: Double) {
        let reader = try VideoFrameReader(path: path, targetSize: size)
        let t0 = Date()
        var n = 0
        while try reader.nextFrame() != nil { n += 1 }
        return (n, Date().timeIntervalSince(t0))
    }

    private func timeFFmpeg(_ path: String) throws -> Double {
        let t0 = Date()
        try ffmpeg(["-threads", "0", "-i", path, "-an", "-pix_fmt", "rgb24", "-f", "null", "-"])
        return Date().timeIntervalSince(t0)
    }

    private func generateClip() throws -> String {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("swingbench-1080p-\(Int(seconds))s.mp4").path
        if FileManager.default.fileExists(atPath: out) { return out }
        print("media: generating \(out) with the ffmpeg CLI …")
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=30:d=\(seconds)",
                    "-f", "lavfi", "-i", "sine=f=1000:d=\(seconds):sample_rate=48000",
                    "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", out])
        return out
    }

    private func ffmpeg(_ args: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + args
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw ValidationError("ffmpeg \(args.joined(separator: " ")) failed") }
    }
}
