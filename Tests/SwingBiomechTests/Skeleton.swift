import Foundation
import SwingCore
import SwingTestSupport
@testable import SwingBiomech

/// BlazePose left/right landmark pairs.
let mirrorPairs = [(1, 4), (2, 5), (3, 6), (7, 8), (9, 10), (11, 12), (13, 14), (15, 16), (17, 18),
                   (19, 20), (21, 22), (23, 24), (25, 26), (27, 28), (29, 30), (31, 32)]

/// The mirror image of a pose: x → −x and every left landmark swapped with its right twin.
func mirrored(_ s: PoseSample) -> PoseSample {
    guard s.hasPose else { return s }
    var w = s.world.map { Vec3(x: -$0.x, y: $0.y, z: $0.z) }
    for (a, b) in mirrorPairs { w.swapAt(a, b) }
    return PoseSample(time: s.time, world: w, image: s.image, visibility: s.visibility, score: s.score)
}

/// A track at `fps` from `start` with `count` frames, each from `make(frameIndex, time)`.
func makeTrack(fps: Double = 60, start: Double = 0, count: Int, _ make: (Int, Double) -> PoseSample) throws -> PoseTrack {
    try PoseTrack(samples: (0..<count).map { make($0, start + Double($0) / fps) })
}

extension BiomechParameters {
    /// The defaults with the swing check and the body check off: the geometry tests pose still skeletons and
    /// impossible ones on purpose, which the checks (SwingCheckTests, BodyCheckTests) would rightly turn down.
    static var geometry: BiomechParameters {
        var p = BiomechParameters()
        p.swingCheck = false
        p.bodyCheck = false
        return p
    }
}
