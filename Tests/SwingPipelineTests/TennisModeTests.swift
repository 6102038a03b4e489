import Foundation
import SwingCore
import Testing
@testable import SwingPipeline
import SwingTestSupport
import SwingVision

/// The studio's tennis mode in the engine: YOLO and BlazePose on one decoded frame, either schedule.
@Suite struct TennisModeTests {
    static let racketBall = TestFiles.package("Tests/SwingVisionTests/Fixtures/yolo/tennis-contact.onnx").path
    static let player = TestFiles.package("Tests/SwingPoseTests/Fixtures/messi5.jpg")

    /// Three frames of a still picture through one tennis mode.
    static func frames(_ schedule: TennisSchedule) async throws -> [StudioPrediction] {
        let mode = try await LoadedPose().mode(schedule: schedule)
        let predictor = try YOLOPredictor(modelPath: racketBall)
        let settings = DetectionSettings(interpret: "tennis-contact")
        let interpreter = try settings.interpreter(configuration: nil)
        let bytes = try Data(contentsOf: player)
        var out: [StudioPrediction] = []
        for i in 0..<3 {
            out.append(try await mode.run(image: bytes, predictor: predictor, settings: settings, interpreter: interpreter,
                                          queue: InferenceQueue(), source: "test", frameIndex: i, time: Double(i) / 30))
        }
        return out
    }

    @Test(arguments: TennisSchedule.allCases)
    func bothModelsRunOnTheFrameAndThePersonIsTracked(_ schedule: TennisSchedule) async throws {
        let frames = try await Self.frames(schedule)
        for (i, p) in frames.enumerated() {
            let pose = try #require(p.frame.pose, "frame \(i): no pose")
            #expect(pose.landmarks.count == 33)
            #expect(pose.detectorRan == (i == 0), "the detector runs on the first frame only, then the region is tracked")
            #expect(p.frame.detections.map(\.label).sorted() == ["sports ball", "tennis racket"])
            #expect(p.frame.time == Double(i) / 30)
            #expect((p.poseMs ?? 0) > 0 && (p.yoloMs ?? 0) > 0)
            #expect(p.interpretation?.interpreter == "tennis-contact")
            let result = p.interpretation?.result as? TennisContactInterpreter.Result
            #expect(result?.contact?.rule == .proximity && result?.contact?.time == Double(i) / 30)
        }
    }

    @Test func theSchedulesAgree() async throws {
        let one = try await Self.frames(.sequential), two = try await Self.frames(.concurrent)
        for (a, b) in zip(one, two) {
            #expect(a.frame.detections == b.frame.detections)
            // The schedule changes when the models run, not what they compute: the same landmarks, give or take
            // one step of the 4-decimal rounding.
            let pa = try #require(a.frame.pose), pb = try #require(b.frame.pose)
            for (la, lb) in zip(pa.landmarks, pb.landmarks) {
                #expect(zip(la, lb).allSatisfy { abs($0 - $1) <= 1.5e-4 }, "\(la) vs \(lb)")
            }
        }
    }

    @Test func theSkeletonJoinsTheShotViewsJointsAsLandmarks() {
        let s = PoseSkeleton.blazePose
        #expect(s.names.count == 33 && s.names[0] == "nose" && s.names[16] == "rightWrist")
        #expect(s.bones.count == SkeletonJoints.bones.count)
        // Left shoulder–left elbow, in BlazePose's numbering.
        #expect(s.bones.contains([11, 13]))
    }
}
