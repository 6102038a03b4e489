import Foundation

/// Sessions longer than the demo clip with as many hits as a test needs: the demo's court sound made by
/// `tools/demo_sample_audio.py` (its crowd, squeaks and walkers, hits where asked), and its footage looped
/// under that sound. Enough hits to learn a racket's sound from (at least 10).
package enum CourtSession {
    /// `hits` hits every 2.6 s from 2 s, in `seconds` of the demo's court sound (seeded): the WAV and the hit times.
    package static func sound(seconds: Int, hits: Int, seed: Int, in dir: URL) throws -> (wav: URL, times: [Double]) {
        let wav = dir.appendingPathComponent("court-\(seed).wav"), truth = dir.appendingPathComponent("court-\(seed).truth.json")
        let times = (0..<hits).map { 2.0 + 2.6 * Double($0) }
        _ = try Subprocess.output(TestFiles.python, [TestFiles.package("tools/demo_sample_audio.py").path, "--duration", String(seconds),
                                                     "--seed", String(seed), "--contacts", times.map { String($0) }.joined(separator: ","),
                                                     "--wav", wav.path, "--truth", truth.path])
        return (wav, times)
    }

    /// ``sound(seconds:hits:seed:in:)`` under the demo clip's footage, looped to `seconds` (H.264 and AAC,
    /// as a phone would give it): the video and the hit times.
    package static func video(seconds: Int, hits: Int, seed: Int, in dir: URL) throws -> (video: URL, times: [Double]) {
        let (wav, times) = try sound(seconds: seconds, hits: hits, seed: seed, in: dir)
        let video = dir.appendingPathComponent("court-\(seed).mp4")
        try TestFiles.ffmpeg(["-stream_loop", String(seconds / 12 + 1), "-i", TestFiles.package("Samples/demo_session.mp4").path,
                              "-i", wav.path, "-map", "0:v", "-map", "1:a", "-t", String(seconds),
                              "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", video.path])
        return (video, times)
    }
}
