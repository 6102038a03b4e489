import Foundation
import SwingCore
import SwingPipeline

/// `POST /api/detect?mode=tennis`'s answer: the detections (each result with its `pose`), and how to draw a pose.
struct TennisAnswer: Encodable {
    var answer: InterpretedDetections
    var skeleton = PoseSkeleton.blazePose

    private enum Key: String, CodingKey { case skeleton }

    func encode(to encoder: any Encoder) throws {
        try answer.encode(to: encoder)
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(skeleton, forKey: .skeleton)
    }
}
