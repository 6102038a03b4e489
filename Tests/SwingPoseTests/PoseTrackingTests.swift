import Foundation
import SwingCore
import SwingMedia
import Testing
@testable import SwingPose

/// Video tracking on `pose_clip.mp4`: a zoom and pan over `basketball1.png` (tools/make_pose_clip.py),
/// so where the person's landmarks should be in every frame is known exactly.
@Suite struct PoseTrackingTests {
    /// The clip's frame-k transform, as in tools/make_pose_clip.py.
    static func clipTransform(_ k: Int, _ p: Point2) -> Point2 {
        let t = Double(k) / 59
        let z = 1 + 0.15 * t
        let cx = 320 - 120 * t, cy = 240 + 25 * t
        return Point2(x: (p.x - cx) * z + 320, y: (p.y - cy) * z + 240)
    }

    func runClip(smoothing: Bool, threads: Int = 0, allowSpinning: Bool = true) throws
        -> (frames: [PoseFrame?], tracker: PoseTracker) {
        var options = PoseOptions()
        options.smoothing = smoothing
        options.threads = threads
        options.allowSpinning = allowSpinning
        let estimator = try PoseEstimator(modelsDirectory: PoseFixtures.modelsDirectory, options: options)
        let tracker = PoseTracker(estimator: estimator)
        let reader = try VideoFrameReader(path: PoseFixtures.path("pose_clip.mp4"))
        var frames: [PoseFrame?] = []
        while let f = try reader.nextFrame() {
            frames.append(try tracker.process(frame: f.image, time: f.time, index: f.index))
        }
        return (frames, tracker)
    }

    @Test func tracksThePersonThroughTheClipWithFewDetectorRuns() throws {
        let (frames, tracker) = try runClip(smoothing: true)
        #expect(frames.count == 60)
        #expect(frames.allSatisfy { $0 != nil }, "the person is in every frame")
        // Tracking: the detector runs on the first frame and only when the track is lost.
        #expect(tracker.detectorRuns * 2 < tracker.framesProcessed, "detector ran on \(tracker.detectorRuns) of 60")
        #expect(frames.first??.detectorRan == true)

        // Landmarks stay on the person: compare with MediaPipe's landmarks on the still, moved by
        // the clip's transform. Budget: the 1 % static parity plus smoothing lag and MPEG-4 noise.
        let ref = try #require(try PoseFixtures.reference().images.first { $0.file == "basketball1.png" })
        let refLms = try #require(ref.landmarks)
        var worst = 0.0
        for (k, frame) in frames.enumerated() {
            guard let frame else { continue }
            var err = 0.0
            for i in 0..<33 {
                let e = Self.clipTransform(k, Point2(x: refLms[i][0] * 640, y: refLms[i][1] * 480))
                let dx = frame.landmarks[i].x - e.x, dy = frame.landmarks[i].y - e.y
                err += (dx * dx + dy * dy).squareRoot()
            }
            worst = max(worst, err / 33 / 800)
        }
        print("tracking: detector on \(tracker.detectorRuns)/\(tracker.framesProcessed) frames, worst frame mean error \(String(format: "%.3f", worst * 100)) % of diagonal")
        #expect(worst < 0.03, "worst frame's mean landmark error is \(worst * 100) % of the diagonal")
    }

    /// ONNX Runtime's thread settings change speed only: one thread, two spinning, two that sleep when
    /// idle (the session config entry we set by its own API slot) give the same landmarks.
    @Test func threadSettingsGiveTheSameLandmarks() throws {
        let one = try runClip(smoothing: false, threads: 1).frames
        for (threads, spin) in [(2, true), (2, false)] {
            let other = try runClip(smoothing: false, threads: threads, allowSpinning: spin).frames
            #expect(other.count == one.count)
            var worst = 0.0
            for (a, b) in zip(one, other) {
                guard let a, let b else { #expect(a == nil && b == nil); continue }
                for (p, q) in zip(a.worldLandmarks, b.worldLandmarks) {
                    worst = max(worst, ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y) + (p.z - q.z) * (p.z - q.z)).squareRoot())
                }
            }
            #expect(worst < 1e-3, "\(threads) threads, spinning \(spin): world landmarks moved \(worst * 100) cm")
        }
    }

    @Test func resetForgetsTheTrack() throws {
        let estimator = try PoseFixtures.estimator.get()
        let tracker = PoseTracker(estimator: estimator)
        let image = try PoseFixtures.image("basketball1.png")
        #expect(try tracker.process(frame: image, time: 0)?.detectorRan == true)
        #expect(try tracker.process(frame: image, time: 1.0 / 30)?.detectorRan == false)
        tracker.reset()
        #expect(try tracker.process(frame: image, time: 2.0 / 30)?.detectorRan == true)
        #expect(tracker.detectorRuns == 1 && tracker.framesProcessed == 1)
    }

    @Test func noPersonFramesGiveNilAndKeepDetecting() throws {
        let tracker = PoseTracker(estimator: try PoseFixtures.estimator.get())
        let empty = try PoseFixtures.image("fruits.jpg")
        #expect(try tracker.process(frame: empty, time: 0) == nil)
        #expect(try tracker.process(frame: empty, time: 0.1) == nil)
        #expect(tracker.detectorRuns == 2)
    }
}
