import ArgumentParser
import Foundation
import SwingMedia
import SwingTestSupport

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

    @Option(help: "Also time audio extraction on a generated AAC track this many minutes long (0 to skip).")
    var audioMinutes: Double = 10

    func run() throws {
        let path = try file ?? generateClip()
        let info = try MediaProbe.probe(path)
        guard let v = info.video else { throw ValidationError("\(path) has no video track") }
        print("media: \(path): \(v.codec) \(v.width)x\(v.height) @ \(String(format: "%.2f", v.frameRate)) fps, \(String(format: "%.1f", info.duration)) s, \(ProcessInfo.processInfo.activeProcessorCount) cores")

        let native = try timeFrames(path, size: nil)
        print(String(format: "media: SwingMedia decode+RGB %dx%d: %d frames in %.2f s wall = %.1f frames/s; %.2f s CPU = %.1f ms CPU/frame",
                     v.displaySize.width, v.displaySize.height, native.frames, native.seconds, Double(native.frames) / native.seconds,
                     native.cpu, native.cpu * 1000 / Double(native.frames)))
        let peer = try timeFFmpeg(path)
        print(String(format: "media: ffmpeg CLI decode+RGB (peer): %.2f s wall = %.1f frames/s; %.2f s CPU = %.1f ms CPU/frame; CPU ratio ffmpeg/SwingMedia = %.2f",
                     peer.seconds, Double(native.frames) / peer.seconds, peer.cpu, peer.cpu * 1000 / Double(native.frames), peer.cpu / native.cpu))
        let parts = resize.split(separator: "x").compactMap { Int($0) }
        if parts.count == 2 {
            let small = try timeFrames(path, size: (parts[0], parts[1]))
            print(String(format: "media: SwingMedia decode+RGB resized %dx%d: %.1f frames/s wall, %.1f ms CPU/frame",
                         parts[0], parts[1], Double(small.frames) / small.seconds, small.cpu * 1000 / Double(small.frames)))
        }
        try benchLongAudio()
        if info.audio != nil {
            let t0 = Date()
            let pcm = try AudioExtractor.extract(path)
            let dt = Date().timeIntervalSince(t0)
            print(String(format: "media: audio → mono 44.1 kHz: %.1f s of audio in %.3f s = %.0f× real time",
                         pcm.duration, dt, pcm.duration / dt))
        }
    }

    private func benchLongAudio() throws {
        guard audioMinutes > 0 else { return }
        let secs = Int(audioMinutes * 60)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("swingbench-audio-\(secs)s.m4a").path
        if !FileManager.default.fileExists(atPath: out) {
            print("media: generating \(out) (stereo AAC 48 kHz) with the ffmpeg CLI …")
            try TestFiles.ffmpeg(["-f", "lavfi", "-i", "anoisesrc=d=\(secs):c=pink:r=48000:a=0.2", "-ac", "2", "-c:a", "aac", "-b:a", "128k", out])
        }
        let t0 = Date()
        let pcm = try AudioExtractor.extract(out)
        let dt = Date().timeIntervalSince(t0)
        print(String(format: "media: %@ → mono 44.1 kHz: %.0f s of audio in %.2f s = %.0f× real time",
                     (out as NSString).lastPathComponent, pcm.duration, dt, pcm.duration / dt))
        let p0 = Date()
        try TestFiles.ffmpeg(["-i", out, "-ac", "1", "-ar", "44100", "-f", "f32le", "-y", "/dev/null"])
        let pdt = Date().timeIntervalSince(p0)
        print(String(format: "media: ffmpeg CLI same conversion (peer): %.2f s; ratio SwingMedia/ffmpeg speed = %.2f", pdt, pdt / dt))
    }

    private func timeFrames(_ path: String, size: (Int, Int)?) throws -> (frames: Int, seconds: Double, cpu: Double) {
        let reader = try VideoFrameReader(path: path, targetSize: size)
        let t0 = Date(), c0 = CPUTime.seconds()
        var n = 0
        while try reader.nextFrame() != nil { n += 1 }
        return (n, Date().timeIntervalSince(t0), CPUTime.seconds() - c0)
    }

    private func timeFFmpeg(_ path: String) throws -> (seconds: Double, cpu: Double) {
        let t0 = Date(), c0 = CPUTime.seconds(children: true)
        try TestFiles.ffmpeg(["-threads", "0", "-i", path, "-an", "-pix_fmt", "rgb24", "-f", "null", "-"])
        return (Date().timeIntervalSince(t0), CPUTime.seconds(children: true) - c0)
    }

    private func generateClip() throws -> String {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("swingbench-1080p-\(Int(seconds))s.mp4").path
        if FileManager.default.fileExists(atPath: out) { return out }
        print("media: generating \(out) with the ffmpeg CLI …")
        try TestFiles.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=30:d=\(seconds)",
                    "-f", "lavfi", "-i", "sine=f=1000:d=\(seconds):sample_rate=48000",
                    "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", out])
        return out
    }

}
