import Foundation
import SwingTestSupport
import Testing
import SwingBiomech
import SwingCore
import SwingPose
@testable import SwingPipeline

/// The sampled pose stage on real footage: the bundled sample converted to 30 fps (so 15 fps sampling
/// skips every other frame away from contacts), first 6 s = its first two contacts (2.0 s, 4.6 s).
@Suite(.serialized) struct PoseSamplingAnalysisTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Made once per test run with the ffmpeg CLI from the bundled sample.
    static let clip: Result<String, any Error> = Result {
        let out = try TestFiles.processDirectory("sampling").appendingPathComponent("clip.mp4").path
        try TestFiles.ffmpeg(["-i", repo.appendingPathComponent("Samples/demo_session.mp4").path,
                              "-t", "6", "-vf", "fps=30", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", out])
        return out
    }

    /// The same footage encoded with B-frames (x264 veryfast), which are not referenced by other frames.
    static let bFrameClip: Result<String, any Error> = Result {
        let out = try TestFiles.processDirectory("sampling-b").appendingPathComponent("clip.mp4").path
        try TestFiles.ffmpeg(["-i", repo.appendingPathComponent("Samples/demo_session.mp4").path,
                              "-t", "6", "-vf", "fps=30", "-c:v", "libx264", "-preset", "veryfast", "-bf", "3", "-c:a", "aac", out])
        return out
    }

    /// - Parameter soundDelayMs: 0 (given) by default, so the contact cores sit at the heard times; `nil`
    ///   measures it, which poses the delay range before each contact too.
    func analyze(_ sampling: PoseSampling, threads: Int = 0, clip: Result<String, any Error> = Self.clip,
                 soundDelayMs: Double? = 0) throws -> SessionAnalysis {
        var options = AnalysisOptions()
        options.biomech.swingCheck = false   // the clip's figure does not swing; sampling is tested here
        options.biomech.soundDelayMs = soundDelayMs
        options.poseSampling = sampling
        options.pose.threads = threads
        let analyzer = try SessionAnalyzer(options: options,
                                           modelsDirectory: Self.repo.appendingPathComponent("Models"))
        return try analyzer.analyze(path: try clip.get())
    }

    @Test func everyFrameTheMetricsReadIsPosedAndTheRestIsSampled() throws {
        let sampled = try analyze(PoseSampling(workers: 1))
        let full = try analyze(.everyFrame)
        #expect(sampled.poseOuterStep == 2 && full.poseOuterStep == 1)
        #expect(sampled.framesPosed < full.framesPosed * 2 / 3)
        let posed = Set(sampled.frames.map(\.index))
        let shots = sampled.result.shots.filter { $0.status == .ok }
        #expect(shots.count == 2)
        for shot in shots {
            let nearest = Int((shot.contactTime * 30).rounded())
            // Interpolation brackets and wrist speed's i ± 3 are all there.
            for i in (nearest - 4)...(nearest + 4) { #expect(posed.contains(i), "frame \(i) near \(shot.contactTime)") }
        }
        // Away from the contacts only the 15 fps grid is posed.
        let far = sampled.frames.filter { f in shots.allSatisfy { abs(f.time - $0.contactTime) > 0.25 } }
        #expect(!far.isEmpty && far.allSatisfy { $0.index % 2 == 0 })
        #expect(full.result.shots.filter { $0.status == .ok }.map(\.contactTime) == shots.map(\.contactTime))

        // With the delay to be measured, every frame from the delay range's end before each heard contact
        // up to its core after it is posed: the reach that measures the delay, and the instant, may lie there.
        let measuring = try analyze(PoseSampling(workers: 1), soundDelayMs: nil)
        let posedAuto = Set(measuring.frames.map(\.index))
        let range = BiomechParameters().soundDelayRangeMs.upperBound / 1000
        for contact in measuring.contacts {
            let from = Int(((contact.time - range) * 30).rounded(.up)), to = Int((contact.time * 30).rounded()) + 4
            for i in from...to { #expect(posedAuto.contains(i), "frame \(i) before the contact heard at \(contact.time)") }
        }
        #expect(measuring.framesPosed > sampled.framesPosed && measuring.framesPosed < full.framesPosed)
    }

    @Test func parallelWorkersGiveExactlyTheSerialResult() throws {
        // Same single-threaded sessions either way, so any difference would be the scheduling's fault.
        let one = try analyze(PoseSampling(workers: 1), threads: 1)
        let two = try analyze(PoseSampling(workers: 2), threads: 1)
        #expect(two.poseWorkers == 2 && one.poseWorkers == 1)
        #expect(one.frames.map(\.index) == two.frames.map(\.index))
        #expect(one.frames.map(\.time) == two.frames.map(\.time))
        for (a, b) in zip(one.frames, two.frames) {
            #expect(a.pose?.worldLandmarks == b.pose?.worldLandmarks)
        }
        #expect(one.result.stats == two.result.stats)
        // The pose stage's breakdown accounts for its work: every posed frame was decoded, each part
        // took time, and the parts (summed over the workers) fit in the stage's wall time × workers.
        for a in [one, two] {
            let t = a.poseTimes, parts = [t.decode, t.conversion, t.inference, t.prePost]
            #expect(t.framesDecoded >= a.framesPosed, "\(t)")
            #expect(parts.allSatisfy { $0.wall > 0 && $0.cpu > 0 }, "\(t)")
            let stage = try #require(a.stageSeconds[.runningPose])
            #expect(parts.map(\.wall).reduce(0, +) <= stage * Double(a.poseWorkers) + 0.01, "\(t) in \(stage) s")
        }
    }

    @Test func skippingUnposedFramesDecodesLessAndPosesTheSamePixels() throws {
        var every = PoseSampling(workers: 1)
        every.skipUnposedFrames = false
        #expect(PoseSampling().skipUnposedFrames)
        let all = try analyze(every, threads: 1, clip: Self.bFrameClip)
        let some = try analyze(PoseSampling(workers: 1), threads: 1, clip: Self.bFrameClip)
        #expect(some.poseTimes.framesDecoded < all.poseTimes.framesDecoded,
                "\(some.poseTimes.framesDecoded) vs \(all.poseTimes.framesDecoded) frames decoded")
        #expect(some.frames.map(\.index) == all.frames.map(\.index))
        for (a, b) in zip(some.frames, all.frames) {
            #expect(a.pose?.worldLandmarks == b.pose?.worldLandmarks, "frame \(a.index)")
        }
        #expect(some.result.stats == all.result.stats)
    }
}
