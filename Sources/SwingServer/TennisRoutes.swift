import Foundation
import SwingCore
import SwingPipeline
import SwingVision

/// The studio's tennis mode (`mode=tennis` on `POST /api/detect` and `GET /api/detect/live`): BlazePose beside a
/// detect model, the pose next to the detections, `tennis-contact` as the default interpreter (docs/studio.md).
extension Studio {
    /// Whether the query asks for tennis mode.
    /// - Throws: ``APIError`` (400) for a mode that is not `tennis`.
    static func tennisMode(_ query: [String: String]) throws -> Bool {
        guard let mode = query["mode"], !mode.isEmpty, mode != "detect" else { return false }
        guard mode == "tennis" else {
            throw APIError(.badRequest, "The mode must be tennis (BlazePose beside the model) or left out, not \(mode.prefix(40)).")
        }
        return true
    }

    /// A tennis mode of its own for the model `info` describes.
    /// - Throws: ``APIError``: 422 when the model is not a detect model or BlazePose cannot be loaded.
    func tennisMode(for info: YOLOModelInfo, id: String) async throws -> TennisMode {
        guard info.task == .detect else {
            throw APIError(.unprocessableContent, "Tennis mode needs a detect model (one that finds a racket and a ball); \(id) is a \(info.task.rawValue) model.")
        }
        do { return try await pose.mode() } catch let error as any UserFacingError {
            throw APIError(.unprocessableContent, "Tennis mode cannot run: \(error.description)")
        }
    }
}

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
