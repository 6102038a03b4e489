import Foundation
import SwingCore
import Testing
@testable import SwingPose

/// Parity with MediaPipe Python 0.10.14 (`Pose(static_image_mode=True, model_complexity=1)`) on the
/// committed photos; the reference JSON comes from `tools/pose_reference.py`.
@Suite struct PoseParityTests {
    /// Acceptance: mean 2D landmark error ≤ 1 % of the image diagonal.
    static let maxMean2DError = 0.01
    /// Acceptance: world landmarks within 2 cm on average.
    static let maxMeanWorldError = 0.02

    @Test(arguments: try PoseFixtures.reference().images.map(\.file))
    func matchesMediaPipe(file: String) throws {
        let estimator = try PoseFixtures.estimator.get()
        let ref = try #require(try PoseFixtures.reference().images.first { $0.file == file })
        let image = try PoseFixtures.image(file)
        #expect(image.width == ref.width && image.height == ref.height)
        let pose = try estimator.estimate(image: image)
        #expect((pose != nil) == ref.person, "person verdict differs from MediaPipe for \(file)")
        guard let pose, let refLms = ref.landmarks, let refWorld = ref.world else { return }
        try #require(pose.landmarks.count == 33 && pose.worldLandmarks.count == 33)
        let w = Double(image.width), h = Double(image.height)
        let diagonal = (w * w + h * h).squareRoot()
        var err2D = 0.0, errWorld = 0.0
        for i in 0..<33 {
            let dx = pose.landmarks[i].x - refLms[i][0] * w, dy = pose.landmarks[i].y - refLms[i][1] * h
            err2D += (dx * dx + dy * dy).squareRoot()
            let rw = Vec3(x: refWorld[i][0], y: refWorld[i][1], z: refWorld[i][2])
            errWorld += (pose.worldLandmarks[i] - rw).length
        }
        err2D /= 33 * diagonal
        errWorld /= 33
        print("parity \(file): mean 2D error \(String(format: "%.4f", err2D * 100)) % of diagonal, "
              + "world \(String(format: "%.2f", errWorld * 100)) cm")
        #expect(err2D <= Self.maxMean2DError, "\(file): mean 2D error \(err2D * 100) % of the diagonal")
        #expect(errWorld <= Self.maxMeanWorldError, "\(file): mean world error \(errWorld * 100) cm")
        // Visibility is a probability the product thresholds on: it must agree too.
        let visErr = (0..<33).map { abs(pose.landmarks[$0].visibility - refLms[$0][3]) }.reduce(0, +) / 33
        #expect(visErr <= 0.05, "\(file): mean visibility difference \(visErr)")
    }
}
