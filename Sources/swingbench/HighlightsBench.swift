import ArgumentParser
import Foundation
import SwingBiomech
import SwingCore
import SwingMedia
import SwingPipeline
import SwingTestSupport

/// `swingbench highlights` — cutting a session's highlights (issue #41: a 10-minute session with 120 shots at
/// least 1× real time of the kept footage on 2 cores), against the ffmpeg CLI cutting and re-encoding the same
/// stretches with the same encoder settings (`select` + `setpts`, libx264 veryfast CRF 20).
struct HighlightsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "highlights",
        abstract: "Highlights of a generated session (120 shots in 10 minutes) against the ffmpeg CLI cutting the same clips.")

    @Option(help: "Minutes of the generated 720p30 session video.")
    var minutes: Double = 10

    @Option(help: "Shots in the session, spread over the video in rallies of 1–4.")
    var shots: Int = 120

    func run() throws {
        let seconds = minutes * 60
        let video = FileManager.default.temporaryDirectory.appendingPathComponent("swingbench-highlights-\(Int(seconds))s.mp4").path
        if !FileManager.default.fileExists(atPath: video) {
            print("highlights: generating \(video) (1280x720 30 fps H.264, testsrc2) with the ffmpeg CLI …")
            try TestFiles.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=\(Int(seconds))",
                                  "-c:v", "libx264", "-preset", "ultrafast", "-g", "60", "-pix_fmt", "yuv420p", video])
        }
        // Shots in rallies: 1–4 hits 2–3 s apart, rallies 3.5–8 s apart (seeded, the same every run): 120 shots
        // fill about 10 minutes.
        var rng = SplitMix64(seed: 120)
        var times: [Double] = [], t = 3.0
        while times.count < shots, t < seconds - 3 {
            let hits = rng.int(1...4)
            for _ in 0..<hits where times.count < shots && t < seconds - 3 { times.append(t); t += rng.uniform(2, 3) }
            t += rng.uniform(3.5, 8)
        }
        let shotList = times.enumerated().map { i, t in
            Shot(index: i + 1, time: t, contactTime: t, confidence: 0.9, status: .ok, stroke: [.forehand, .backhand, .serve][i % 3])
        }
        // The session as its document reads (the memberwise initialiser is the module's own).
        let encoder = JSONEncoder()
        let session: [String: Any] = [
            "id": 1, "file": video, "createdAt": "2026-11-27T00:00:00Z", "duration": seconds, "fps": 30, "width": 1280,
            "height": 720, "hand": "right", "contactsHeard": shotList.count, "warnings": [String](),
            "shots": try JSONSerialization.jsonObject(with: encoder.encode(shotList)),
            "stats": try JSONSerialization.jsonObject(with: encoder.encode(SessionStats(shots: shotList))),
        ]
        let document = try SessionDocument.decode(JSONSerialization.data(withJSONObject: ["session": session]))
        let clips = SessionHighlights.clips(document)
        let kept = clips.reduce(0) { $0 + $1.end - $1.start }
        print(String(format: "highlights: %d shots in %.0f s of video → %d clips, %.1f s kept; %d cores",
                     shotList.count, seconds, clips.count, kept, ProcessInfo.processInfo.activeProcessorCount))

        let out = FileManager.default.temporaryDirectory.appendingPathComponent("swingbench-highlights-out.mp4").path
        let (ours, ourCPU) = try timed { _ = try SessionHighlights.write(document, shotFrames: [], source: video, to: out, maxSide: nil) }
        print(String(format: "highlights: Swingmaster: %.2f s wall (%.2f s CPU) = %.2f× real time of the kept footage",
                     ours, ourCPU, kept / ours))

        let select = clips.map { String(format: "between(t\\,%.3f\\,%.3f)", $0.start, $0.end) }.joined(separator: "+")
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("swingbench-highlights-filter.txt")
        try "select='\(select)',setpts=N/FRAME_RATE/TB".write(to: script, atomically: true, encoding: .utf8)
        let peerOut = FileManager.default.temporaryDirectory.appendingPathComponent("swingbench-highlights-peer.mp4").path
        let (peer, peerCPU) = try timed {
            try TestFiles.ffmpeg(["-i", video, "-filter_script:v", script.path, "-an", "-c:v", "libx264", "-preset", VideoWriter.x264Preset,
                                  "-crf", VideoWriter.x264CRF, peerOut])
        }
        print(String(format: "highlights: ffmpeg CLI (peer): %.2f s wall (%.2f s CPU) = %.2f× real time; wall ratio ffmpeg/Swingmaster = %.2f",
                     peer, peerCPU, kept / peer, peer / ours))
        for path in [out, peerOut] { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Wall and CPU seconds (this process and its children) of `body`.
    private func timed(_ body: () throws -> Void) throws -> (Double, Double) {
        let (t0, c0) = (Date(), CPUTime.seconds() + CPUTime.seconds(children: true))
        try body()
        return (Date().timeIntervalSince(t0), CPUTime.seconds() + CPUTime.seconds(children: true) - c0)
    }
}
