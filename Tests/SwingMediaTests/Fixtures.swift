import Foundation
import SwingTestSupport
import Testing

/// Test media generated at test time: a click track synthesised here (known truth times), and
/// files made from it and from FFmpeg's lavfi sources with the `ffmpeg` CLI (installed by setup).
/// Everything lives in one temp folder per test run; generation is serialised by a lock.
final class Fixtures: @unchecked Sendable {   // mutable state guarded by `lock`
    static let shared = Fixtures()

    /// Where the click track's clicks are centred (seconds).
    static let clickTimes: [Double] = [1.0, 3.0, 5.25]
    /// Length of the click track (seconds).
    static let clickTrackDuration = 6.5
    /// Sample rate of the synthesised WAV (a typical camera rate, so 44.1 kHz output is resampled).
    static let sourceRate = 48_000

    let dir: URL
    private let lock = NSLock()
    private var made: Set<String> = []

    private init() {
        let tmp = FileManager.default.temporaryDirectory
        // Remove folders left by earlier runs whose process is gone (the suite cannot hook its own end).
        for name in (try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []
        where name.hasPrefix("swingmedia-tests-") {
            if let pid = Int32(name.dropFirst("swingmedia-tests-".count)), pid != getpid(), kill(pid, 0) != 0 {
                try? FileManager.default.removeItem(at: tmp.appendingPathComponent(name))
            }
        }
        dir = tmp.appendingPathComponent("swingmedia-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    /// Path of fixture `name`, generating it with `make(path)` the first time.
    func path(_ name: String, _ make: (String) throws -> Void) throws -> String {
        lock.lock(); defer { lock.unlock() }
        let p = dir.appendingPathComponent(name).path
        if !made.contains(name) {
            try make(p)
            made.insert(name)
        }
        return p
    }

    /// The click track as 16-bit mono WAV: 2 ms Hann-windowed 3 kHz bursts centred on `clickTimes`.
    func clickWAV() throws -> String {
        try path("clicks.wav") { p in
            let n = Int(Self.clickTrackDuration * Double(Self.sourceRate))
            var s = [Int16](repeating: 0, count: n)
            let half = Self.sourceRate / 1000    // 1 ms each side
            for t in Self.clickTimes {
                let c = Int((t * Double(Self.sourceRate)).rounded())
                for k in -half...half {
                    let w = 0.5 + 0.5 * cos(Double.pi * Double(k) / Double(half))
                    let v = 0.8 * w * sin(2 * Double.pi * 3000 * Double(k) / Double(Self.sourceRate))
                    s[c + k] = Int16((v * 32767).rounded())
                }
            }
            try Self.writeWAV(s, rate: Self.sourceRate, to: p)
        }
    }

    /// The click track encoded by the ffmpeg CLI with `args` (codec options) into `name`.
    func encodedClicks(_ name: String, _ args: [String]) throws -> String {
        let wav = try clickWAV()
        return try path(name) { p in try TestFiles.ffmpeg(["-i", wav] + args + [p]) }
    }


    static func writeWAV(_ samples: [Int16], rate: Int, to path: String) throws {
        var d = Data()
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { d.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { d.append(contentsOf: $0) } }
        d.append(contentsOf: Array("RIFF".utf8)); u32(36 + samples.count * 2)
        d.append(contentsOf: Array("WAVEfmt ".utf8)); u32(16); u16(1); u16(1); u32(rate); u32(rate * 2); u16(2); u16(16)
        d.append(contentsOf: Array("data".utf8)); u32(samples.count * 2)
        for s in samples { withUnsafeBytes(of: s.littleEndian) { d.append(contentsOf: $0) } }
        try d.write(to: URL(fileURLWithPath: path))
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Energy centroid (seconds) of `samples` within ±`window` s of `near`: for a symmetric burst it
/// is the burst centre, and codec smearing (pre-echo) moves it far less than it moves an onset.
func energyCentroid(_ samples: [Float], rate: Int, startTime: Double, near: Double, window: Double = 0.008) -> Double? {
    let lo = max(0, Int(((near - window - startTime) * Double(rate)).rounded()))
    let hi = min(samples.count - 1, Int(((near + window - startTime) * Double(rate)).rounded()))
    guard hi > lo else { return nil }
    var num = 0.0, den = 0.0
    for i in lo...hi {
        let e = Double(samples[i]) * Double(samples[i])
        num += e * Double(i); den += e
    }
    guard den > 0 else { return nil }
    return startTime + num / den / Double(rate)
}

extension Fixtures {
    /// 1280×720 H.264 30 fps + the click track as AAC, 6.5 s: a typical (small) session file.
    func avMP4() throws -> String {
        let wav = try clickWAV()
        return try path("av.mp4") { p in
            try TestFiles.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=1280x720:r=30:d=6.5", "-i", wav,
                             "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-pix_fmt", "yuv420p",
                             "-c:a", "aac", "-shortest", p])
        }
    }

    /// 320×240 H.264 30 fps, keyframe every 15 frames, sine audio, 6 s (below 720p).
    func smallMP4() throws -> String {
        try path("small.mp4") { p in
            try TestFiles.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=6", "-f", "lavfi", "-i", "sine=f=440:d=6",
                             "-c:v", "libx264", "-preset", "ultrafast", "-g", "15", "-pix_fmt", "yuv420p",
                             "-c:a", "aac", "-shortest", p])
        }
    }

    /// 320×240 H.264 30 fps, 2 s, encoded with x264's deblocking filter on (preset veryfast, CRF 35: the
    /// coarse quantisation a filter has most to smooth). `ultrafast`, as in the files above, turns it off.
    func deblockedMP4() throws -> String {
        try path("deblocked.mp4") { p in
            try TestFiles.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=2", "-c:v", "libx264",
                             "-preset", "veryfast", "-crf", "35", "-pix_fmt", "yuv420p", p])
        }
    }

    /// 320×240 video without an audio track, 2 s.
    func silentMP4() throws -> String {
        try path("silent.mp4") { p in
            try TestFiles.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=2", "-c:v", "libx264",
                             "-preset", "ultrafast", "-pix_fmt", "yuv420p", p])
        }
    }

    /// 320×240 left-red/right-blue video whose display matrix says "turn 90° counter-clockwise"
    /// (what ffprobe reports as rotation=90), so it displays 240×320 with blue on top.
    func rotatedMP4() throws -> String {
        try path("rotated.mp4") { p in
            let plain = p + ".plain.mp4"
            try TestFiles.ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=320x240:r=30:d=1,drawbox=x=160:y=0:w=160:h=240:color=blue:t=fill",
                             "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", plain])
            // FFmpeg 5.1 turns the `rotate` tag into a display matrix only when stream-copying.
            try TestFiles.ffmpeg(["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=90", p])
        }
    }

    /// The first 30 % of ``avMP4()`` (its index is at the end, so nothing is playable).
    func truncatedMP4() throws -> String {
        let full = try avMP4()
        return try path("truncated.mp4") { p in
            let data = try Data(contentsOf: URL(fileURLWithPath: full))
            try data.prefix(data.count * 3 / 10).write(to: URL(fileURLWithPath: p))
        }
    }

    /// A text file named like a video.
    func textAsMP4() throws -> String {
        try path("notes.mp4") { p in
            try Data(String(repeating: "this is not a video, just some notes about a tennis session\n", count: 50).utf8)
                .write(to: URL(fileURLWithPath: p))
        }
    }

    /// An empty file named like a video.
    func emptyMP4() throws -> String {
        try path("empty.mp4") { p in try Data().write(to: URL(fileURLWithPath: p)) }
    }
}
