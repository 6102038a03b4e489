import SwingCore

/// The `swingmaster detect --json` document (shape fixed by issue 3).
struct DetectReport: Encodable, Equatable {
    struct Model: Encodable, Equatable {
        var task: String
        /// Class names keyed by the id as text (JSON object keys are strings).
        var names: [String: String]
        var imgsz: [Int]
    }

    struct Speed: Encodable, Equatable {
        var preMs: Double
        var inferenceMs: Double
        var postMs: Double
    }

    struct Box: Encodable, Equatable {
        var x1: Double, y1: Double, x2: Double, y2: Double
    }

    struct OBB: Encodable, Equatable {
        var cx: Double, cy: Double, w: Double, h: Double, angle: Double
        /// The four corners as `[x, y]` pairs.
        var points: [[Double]]
    }

    /// COCO uncompressed RLE over the column-major pixel order; `size` is `[height, width]`.
    struct Mask: Encodable, Equatable {
        var size: [Int]
        var counts: [Int]
    }

    struct Item: Encodable, Equatable {
        var classId: Int
        var label: String
        var confidence: Double
        var box: Box
        /// `[x, y, visibility]` per keypoint (pose only).
        var keypoints: [[Double]]?
        var obb: OBB?
        var mask: Mask?

        init(_ d: Detection) {
            classId = d.classId
            label = d.label
            confidence = d.confidence
            box = Box(x1: d.box.x1, y1: d.box.y1, x2: d.box.x2, y2: d.box.y2)
            keypoints = d.keypoints?.map { [$0.x, $0.y, $0.visibility] }
            obb = d.obb.map { o in
                OBB(cx: o.cx, cy: o.cy, w: o.w, h: o.h, angle: o.angle, points: o.corners.map { [$0.x, $0.y] })
            }
            mask = d.mask.map { Mask(size: [$0.height, $0.width], counts: $0.cocoRLE) }
        }
    }

    struct ClassScore: Encodable, Equatable {
        var classId: Int
        var label: String
        var confidence: Double
    }

    struct Frame: Encodable, Equatable {
        /// The file name of the source (not the full path).
        var source: String
        /// Frame index in the video (0 for an image).
        var frame: Int
        /// Presentation time in seconds (0 for an image).
        var time: Double
        var width: Int
        var height: Int
        var speed: Speed
        var detections: [Item]
        /// Top-k classes (classify models only).
        var classification: [ClassScore]?

        init(source: String, frame: Int, time: Double, width: Int, height: Int, speed: Speed,
             detections: [Detection], classification: [Classification]?) {
            self.source = source
            self.frame = frame
            self.time = time
            self.width = width
            self.height = height
            self.speed = speed
            self.detections = detections.map(Item.init)
            self.classification = classification?.map { ClassScore(classId: $0.classId, label: $0.label, confidence: $0.confidence) }
        }
    }

    var model: Model
    var results: [Frame]
}
