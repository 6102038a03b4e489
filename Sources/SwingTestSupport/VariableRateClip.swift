import Foundation

/// A variable-frame-rate clip made by `tools/make_vfr_clip.py` (frames dropped and stretched as a phone
/// does), with every frame's true time from the script's manifest.
package struct VariableRateClip: Sendable {
    /// The clip (its container follows the extension asked for).
    package let path: String
    /// The grid the frames were taken from, frames per second.
    package let fps: Double
    package let width: Int
    package let height: Int
    /// Frame `n`'s presentation time (0-based, presentation order), seconds.
    package let times: [Double]
    /// Where the last frame stops being shown, seconds.
    package let duration: Double

    private struct Manifest: Decodable {
        let fps: Double, width: Int, height: Int, times: [Double], duration: Double
    }

    /// Runs the script (with `SWINGMASTER_PYTHON`, else `.deps/venv/bin/python`, else `python3`).
    /// - Parameters:
    ///   - path: Where the clip goes (`.mp4`, `.mov`, …); the manifest goes beside it.
    ///   - source: A video to take picture and sound from; `nil` = FFmpeg's test pattern and a tone.
    ///   - drops: Seconds with no frame; `stretches`: (from, to, k) where only every k-th frame is kept.
    package static func make(_ path: String, source: String? = nil, fps: Double, width: Int = 640, height: Int = 360,
                            duration: Double, drops: [ClosedRange<Double>] = [],
                            stretches: [(ClosedRange<Double>, Int)] = []) throws -> VariableRateClip {
        var args = [TestFiles.package("tools/make_vfr_clip.py").path, path, "--fps", "\(fps)", "--size", "\(width)x\(height)",
                    "--duration", "\(duration)"]
        if let source { args += ["--source", source] }
        for d in drops { args += ["--drop", "\(d.lowerBound):\(d.upperBound)"] }
        for (s, k) in stretches { args += ["--stretch", "\(s.lowerBound):\(s.upperBound):\(k)"] }
        _ = try Subprocess.output(python, args)
        return try load(path)
    }

    /// A clip the script made earlier, from its manifest (`path` + `.frames.json`).
    package static func load(_ path: String) throws -> VariableRateClip {
        let m = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: path + ".frames.json")))
        return VariableRateClip(path: path, fps: m.fps, width: m.width, height: m.height, times: m.times, duration: m.duration)
    }

    /// The frame nearest `time` (the earlier on a tie).
    package func frame(nearest time: Double) -> Int {
        times.indices.min { a, b in
            let da = abs(times[a] - time), db = abs(times[b] - time)
            return da != db ? da < db : a < b
        } ?? 0
    }

    /// The longest time any frame is shown: the tolerance of "the frame shown at t" anywhere in the clip.
    package var longestFrame: Double {
        zip(times, times.dropFirst().map { $0 } + [duration]).map { $1 - $0 }.max() ?? 0
    }

    /// Presentation times of every video frame of `path` as ffprobe reads them (an independent reader),
    /// and the video's end (the stream's start plus its duration, as the container states them).
    package static func probe(_ path: String) throws -> (times: [Double], end: Double) {
        let frames = try Subprocess.output("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                       "frame=best_effort_timestamp_time", "-of", "csv=p=0", path])
        let times = String(decoding: frames, as: UTF8.self).split(separator: "\n")
            .compactMap { Double($0.split(separator: ",").first ?? "") }.sorted()
        let stream = try Subprocess.output("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                       "stream=start_time,duration", "-of", "csv=p=0", path])
        let fields = String(decoding: stream, as: UTF8.self).split(separator: "\n").first?
            .split(separator: ",").map { Double($0) } ?? []
        let end = fields.count == 2 ? (fields[0] ?? 0) + (fields[1] ?? 0) : 0
        return (times, end)
    }

    private static var python: String { TestFiles.python }
}
