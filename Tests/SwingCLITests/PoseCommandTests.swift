import Foundation
import SwingTestSupport
import SwingCore
import Testing

/// `swingmaster pose` run as a real process on the SwingPose fixtures.
@Suite struct PoseCommandTests {
    static let fixtures = TestFiles.packageRoot.appendingPathComponent("Tests/SwingPoseTests/Fixtures")
    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    struct Report: Decodable {
        struct Landmark: Decodable { var x: Double; var y: Double; var z: Double; var visibility: Double; var presence: Double }
        struct Frame: Decodable {
            var index: Int; var time: Double; var score: Double
            var landmarks: [Landmark]; var worldLandmarks: [Vec3]; var joints: [String: Vec3]
        }
        var source: String; var width: Int; var height: Int; var frames: [Frame]
    }

    @Test func imageJSONHas33LandmarksInPixelsAnd17Joints() async throws {
        let out = try await InProcess.run(["pose", Self.fixture("astronaut.png"), "--json"])
        #expect(out.status == 0, "\(out.stderr)")
        let r = try JSONDecoder().decode(Report.self, from: out.data)
        #expect(r.width == 512 && r.height == 512 && r.frames.count == 1)
        let f = try #require(r.frames.first)
        #expect(f.landmarks.count == 33 && f.worldLandmarks.count == 33 && f.joints.count == 17)
        #expect(f.score > 0.5)
        // The nose is in the picture, in pixels (not normalised).
        #expect(f.landmarks[0].x > 100 && f.landmarks[0].x < 400 && f.landmarks[0].y > 50)
    }

    @Test func imageWithoutPersonExitsWithNoPersonCode() async throws {
        let out = try await InProcess.run(["pose", Self.fixture("chelsea.png")])
        #expect(out.status == StatusCode.noPerson)
        #expect(out.stderr.contains("error: No person was found"))
    }

    @Test func missingSourceAndMissingModelsAreReportedClearly() async throws {
        let missing = try await InProcess.run(["pose", "/nonexistent/clip.mp4"])
        #expect(missing.status == StatusCode.fileNotFound)
        let noModels = try await InProcess.run(["pose", Self.fixture("astronaut.png"), "--models", "/nonexistent"])
        #expect(noModels.status == StatusCode.modelUnreadable)
        #expect(noModels.stderr.contains("BlazePose models not found"))
        let badRange = try await InProcess.run(["pose", Self.fixture("pose_clip.mp4"), "--duration", "-1"])
        #expect(badRange.status != 0 && badRange.stderr.contains("--duration"))
    }

    @Test func videoIsTrackedFrameByFrameAndSaved() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pose-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let saved = dir.appendingPathComponent("annotated.mp4").path
        let out = try await InProcess.run(["pose", Self.fixture("pose_clip.mp4"), "--json", "--start", "0.5",
                                             "--duration", "0.5", "--save", saved])
        #expect(out.status == 0, "\(out.stderr)")
        let r = try JSONDecoder().decode(Report.self, from: out.data)
        // Frames at 0.5 … 1.0 s of a 30 fps clip.
        #expect((15...16).contains(r.frames.count))
        #expect(r.frames.allSatisfy { $0.landmarks.count == 33 && $0.time >= 0.5 - 1e-3 && $0.time <= 1.0 + 1e-3 })
        let size = (try FileManager.default.attributesOfItem(atPath: saved)[.size] as? Int) ?? 0
        #expect(size > 10_000)
    }

    /// `--player X,Y` follows the person nearest that point (PersonTrackingTests checks the choice with two people in
    /// view); a moment or a point outside the picture is one sentence and the usage code.
    @Test func playerPointsAtWhomToFollow() async throws {
        let args = ["pose", Self.fixture("pose_clip.mp4"), "--json", "--start", "0.5", "--duration", "0.3"]
        let pointed = try await InProcess.run(args + ["--player", "0.5,0.6"])
        #expect(pointed.status == 0, "\(pointed.stderr)")
        let frames = try JSONDecoder().decode(Report.self, from: pointed.data).frames
        #expect(!frames.isEmpty && frames.allSatisfy { $0.landmarks.count == 33 })
        for bad in ["0.5,0.6@2", "1.5,0.5", "a,b"] {
            let out = try await InProcess.run(args + ["--player", bad])
            #expect(out.status == 64, "\(bad): \(out.status) \(out.stderr)")
            #expect(out.stderr.contains("--player") && out.stdout.isEmpty, "\(bad): \(out.stderr)")
        }
    }
}
