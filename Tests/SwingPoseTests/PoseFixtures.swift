import Foundation
import SwingTestSupport
import SwingCore
import SwingMedia
@testable import SwingPose

/// Shared fixtures: the package's `Models/` (found from this file's path) and the MediaPipe reference.
enum PoseFixtures {
    static let packageRoot = TestFiles.packageRoot
    static let modelsDirectory = packageRoot.appendingPathComponent("Models")
    static let fixtures = packageRoot.appendingPathComponent("Tests/SwingPoseTests/Fixtures")

    static func path(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    static func image(_ name: String) throws -> ImageBuffer { try ImageIO.load(path(name)) }

    /// One estimator per test process (loading the two models takes ~0.3 s).
    static let estimator: Result<PoseEstimator, Error> = Result {
        try PoseEstimator(modelsDirectory: modelsDirectory)
    }

    struct Reference: Decodable {
        struct Entry: Decodable {
            var file: String
            var width: Int
            var height: Int
            var person: Bool
            var landmarks: [[Double]]?
            var world: [[Double]]?
        }
        var mediapipe: String
        var images: [Entry]
    }

    static func reference() throws -> Reference {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("pose_reference.json"))
        return try JSONDecoder().decode(Reference.self, from: data)
    }
}
