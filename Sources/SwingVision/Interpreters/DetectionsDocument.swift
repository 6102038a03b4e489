import Foundation
import SwingCore

/// Reads the `swingmaster detect --json` output (`{"model": …, "results": [{"frame", "time", "width",
/// "height", "detections": [{"classId", "label", "confidence", "box": {"x1", "y1", "x2", "y2"}}]}]}`)
/// back into interpreter frames. Task extras (keypoints, obb, mask) are ignored: no interpreter uses them.
package enum DetectionsDocument {
    private struct Document: Decodable {
        var results: [FrameRecord]
    }

    private struct FrameRecord: Decodable {
        var frame: Int?
        var time: Double?
        var width: Int
        var height: Int
        var detections: [DetectionRecord]?
    }

    private struct DetectionRecord: Decodable {
        var classId: Int?
        var label: String
        var confidence: Double
        var box: Rect
        var trackId: Int?
    }

    /// Parses a detections document.
    /// - Parameter data: the JSON text (an object with `results`, or a bare array of results).
    /// - Returns: one frame per result, in file order; a frame without `frame`/`time` gets its position / 0.
    /// - Throws: ``InterpreterError/invalidDetections(_:)`` naming what is wrong.
    package static func frames(from data: Data) throws -> [InterpreterFrame] {
        let records: [FrameRecord]
        do {
            if let first = data.first(where: { !$0.isWhitespaceByte }), first == UInt8(ascii: "[") {
                records = try JSONDecoder().decode([FrameRecord].self, from: data)
            } else {
                records = try JSONDecoder().decode(Document.self, from: data).results
            }
        } catch let e as DecodingError {
            throw InterpreterError.invalidDetections(describe(e))
        } catch {
            throw InterpreterError.invalidDetections("not valid JSON")
        }
        return try records.enumerated().map { i, r in
            guard r.width > 0, r.height > 0 else {
                throw InterpreterError.invalidDetections("result \(i) has a non-positive width or height")
            }
            let dets = try (r.detections ?? []).enumerated().map { j, d -> Detection in
                guard d.confidence.isFinite, [d.box.x1, d.box.y1, d.box.x2, d.box.y2].allSatisfy(\.isFinite) else {
                    throw InterpreterError.invalidDetections("result \(i) detection \(j) has a non-finite number")
                }
                return Detection(classId: d.classId ?? -1, label: d.label, confidence: d.confidence, box: d.box)
            }
            // Track ids count only when every detection of the frame has one (a tracked document).
            let ids = (r.detections ?? []).compactMap(\.trackId)
            return InterpreterFrame(detections: dets, frameIndex: r.frame ?? i, time: r.time ?? 0,
                                    width: r.width, height: r.height,
                                    trackIds: ids.count == dets.count && !ids.isEmpty ? ids : nil)
        }
    }

    private static func describe(_ e: DecodingError) -> String {
        func path(_ c: [any CodingKey]) -> String {
            c.isEmpty ? "the top level" : c.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch e {
        case .dataCorrupted(let c): return c.codingPath.isEmpty ? "not valid JSON" : "bad value at \(path(c.codingPath))"
        case .keyNotFound(let k, let c): return "missing \"\(k.stringValue)\" at \(path(c.codingPath))"
        case .typeMismatch(_, let c): return "wrong type at \(path(c.codingPath))"
        case .valueNotFound(_, let c): return "null at \(path(c.codingPath))"
        @unknown default: return "malformed document"
        }
    }
}

private extension UInt8 {
    var isWhitespaceByte: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
