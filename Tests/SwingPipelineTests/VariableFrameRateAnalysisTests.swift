import Foundation
import SwingTestSupport
import Testing
import SwingBiomech
import SwingCore
import SwingMedia
@testable import SwingPipeline

/// The bundled sample as a phone would record it: frames dropped and stretched
/// (`tools/make_vfr_clip.py`), the sound untouched. What the player sees — the contact frame a shot
/// names and the frames the annotated video outlines — must be the frame shown at the contact.
@Suite(.serialized) struct VariableFrameRateAnalysisTests {
    static let demo = TestFiles.package("Samples/demo_session.mp4").path
    static let dir: Result<URL, any Error> = Result { try TestFiles.processDirectory("vfr-analysis") }

    /// The clip (30 fps, two runs dropped, one before the first contact at 2.0 s), a 60 fps
    /// .mov slowed down around a contact, and a 24 fps clip at another size, both over the first two contacts.
    static let clips: [(name: String, fps: Double, w: Int, h: Int, seconds: Double,
                        drops: [ClosedRange<Double>], stretches: [(ClosedRange<Double>, Int)])] = [
        ("drops-30.mp4", 30, 1280, 720, 12, [0.6...1.6, 5.4...6.0], []),
        ("stretch-60.mov", 60, 640, 360, 6, [3.0...3.3], [(1.2...2.4, 3)]),
        ("mixed-24.mp4", 24, 960, 540, 6, [0.8...1.3], [(3.8...4.4, 2)]),
    ]

    struct Run {
        let clip: VariableRateClip
        let analysis: SessionAnalysis
        let document: SessionDocument
    }

    /// Each clip is made and analysed once per test run.
    nonisolated(unsafe) private static var runs: [Int: Result<Run, any Error>] = [:]
    private static let lock = NSLock()

    static func run(_ i: Int) throws -> Run {
        lock.lock(); defer { lock.unlock() }
        if let done = runs[i] { return try done.get() }
        let result = Result { try analyse(i) }
        runs[i] = result
        return try result.get()
    }

    static func analyse(_ i: Int) throws -> Run {
        let c = Self.clips[i]
        let clip = try VariableRateClip.make(dir.get().appendingPathComponent(c.name).path, source: demo, fps: c.fps,
                                             width: c.w, height: c.h, duration: c.seconds, drops: c.drops, stretches: c.stretches)
        var options = AnalysisOptions()
        options.biomech.swingCheck = false   // the demo's people walk; frame timing, not the swing check, is tested here
        let analyzer = try SessionAnalyzer(options: options, modelsDirectory: TestFiles.package("Models"))
        let analysis = try analyzer.analyze(path: clip.path)
        return Run(clip: clip, analysis: analysis, document: SessionDocument(analysis, id: nil, file: c.name, hand: .right))
    }

    /// How long the frame at `n` is shown around its time: the gap to its farther neighbour.
    static func interval(_ clip: VariableRateClip, _ n: Int) -> Double {
        let before = n > 0 ? clip.times[n] - clip.times[n - 1] : 0
        let after = n + 1 < clip.times.count ? clip.times[n + 1] - clip.times[n] : clip.duration - clip.times[n]
        return max(before, after)
    }

    @Test(arguments: clips.indices) func eachShotsContactFrameIsTheFrameShownAtTheContact(_ i: Int) throws {
        let run = try Self.run(i)
        let shots = run.document.session.shots.filter { $0.status == .ok }
        #expect(shots.count >= 2, "\(Self.clips[i].name): \(shots.count) shots")
        for shot in shots {
            let n = try #require(shot.contactVideoFrame)
            try #require(run.clip.times.indices.contains(n), "\(Self.clips[i].name) has no frame \(n)")
            let error = abs(run.clip.times[n] - shot.contactTime)
            #expect(error <= Self.interval(run.clip, n) / 2 + 1e-6,
                    "\(Self.clips[i].name) shot \(shot.index): frame \(n) shows \(run.clip.times[n]) s, contact at \(shot.contactTime) s")
            #expect(n == run.clip.frame(nearest: shot.contactTime))
        }
        // Every posed frame the shot view shows is numbered as the decoder numbers it.
        for frames in run.analysis.shotFrames(hand: .right) {
            for f in frames { #expect(f.videoFrame == run.clip.frame(nearest: f.time) && abs(run.clip.times[f.videoFrame ?? 0] - f.time) < 1e-3) }
        }
    }

    @Test(arguments: clips.indices) func theAnnotatedVideoKeepsTheFramesTimesAndOutlinesTheContactFrames(_ i: Int) throws {
        let run = try Self.run(i)
        let out = try Self.dir.get().appendingPathComponent("annotated-\(i).mp4").path
        try SessionOverlay.write(run.document, shotFrames: run.analysis.shotFrames(hand: .right), source: run.clip.path,
                                 to: out, maxSide: 640)
        // Read back by ffprobe: the same frames at the same times, the same length.
        let written = try VariableRateClip.probe(out)
        #expect(written.times.count == run.clip.times.count, "\(Self.clips[i].name): \(written.times.count) frames written")
        let worst = zip(written.times, run.clip.times).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst < 1e-3, "\(Self.clips[i].name): a frame moved by \(worst) s")
        #expect(abs(written.end - run.clip.duration) < 1e-3, "\(Self.clips[i].name) ends at \(written.end), the source at \(run.clip.duration)")

        // Read back by our reader: the outlined frames (the red border) are at the contacts.
        let reader = try VideoFrameReader(path: out)
        var outlined: [Double] = []
        while let f = try reader.nextFrame() {
            let w = f.image.width, y = f.image.height / 2
            let red = [2, w - 3].allSatisfy { x in
                let o = (y * w + x) * 3
                return f.image.pixels[o] > 180 && f.image.pixels[o + 1] < 90 && f.image.pixels[o + 2] < 90
            }
            if red { outlined.append(f.time) }
        }
        let contacts = run.document.session.shots.filter { $0.status == .ok }.map(\.contactTime)
        #expect(outlined.count == contacts.count, "\(Self.clips[i].name): outlined \(outlined), contacts \(contacts)")
        for (t, c) in zip(outlined, contacts) {
            #expect(abs(t - c) <= Self.interval(run.clip, run.clip.frame(nearest: c)) / 2 + 1e-3,
                    "\(Self.clips[i].name): outlined \(t) s for a contact at \(c) s")
        }
    }
}
