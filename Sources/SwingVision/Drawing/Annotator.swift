import SwingCore

/// How annotations look. Sizes scale with the image unless set.
package struct AnnotationStyle: Sendable, Equatable {
    /// Box/polygon line width in pixels (`nil`: about 0.3 % of the image diagonal, at least 2).
    package var lineWidth: Int? = nil
    /// Label text scale (font pixels per image pixel; `nil`: from the line width).
    package var textScale: Int? = nil
    /// Mask fill opacity in [0, 1].
    package var maskAlpha: Double = 0.4
    /// Keypoints with visibility at or below this are not drawn (Ultralytics uses 0.5).
    package var keypointThreshold: Double = 0.5
    /// Draw "label 0.91" tags.
    package var showLabels: Bool = true
    /// Draw confidences in tags.
    package var showConfidence: Bool = true
    package init() {}
}

/// Draws YOLO results on an image: masks, boxes or rotated boxes, labels, keypoints with the COCO skeleton,
/// and the top classes for classifiers. Pure Swift on ``ImageBuffer`` (used by `swingmaster detect --save`).
package enum Annotator {
    /// COCO-17 skeleton as keypoint index pairs (0 nose … 16 right ankle).
    package static let cocoSkeleton: [(Int, Int)] = [
        (15, 13), (13, 11), (16, 14), (14, 12), (11, 12), (5, 11), (6, 12), (5, 6), (5, 7), (6, 8), (7, 9),
        (8, 10), (1, 2), (0, 1), (0, 2), (1, 3), (2, 4), (3, 5), (4, 6),
    ]

    /// Returns a copy of `image` with `result` drawn on it.
    /// - Parameters:
    ///   - result: A prediction for this image (coordinates in its pixels).
    ///   - image: The image the prediction was made on.
    ///   - style: Line width, text size, mask opacity, keypoint threshold.
    package static func annotate(_ result: YOLOResult, on image: ImageBuffer,
                                style: AnnotationStyle = AnnotationStyle()) -> ImageBuffer {
        draw(result.detections, tags: nil, trails: nil, classification: result.classification, on: image, style: style)
    }

    /// Returns a copy of `image` with tracked detections drawn: each track's trail (its recent centres) under
    /// its box, and the box tagged with the track id, as in "#3 person 0.91".
    /// - Parameters:
    ///   - tracked: A ``ByteTracker``'s output for this image (coordinates in its pixels).
    ///   - image: The frame the detections were made on.
    ///   - style: Line width, text size, mask opacity, keypoint threshold.
    package static func annotate(tracks tracked: [TrackedDetection], on image: ImageBuffer,
                                style: AnnotationStyle = AnnotationStyle()) -> ImageBuffer {
        draw(tracked.map(\.detection), tags: tracked.map { "#\($0.trackId)" }, trails: tracked.map(\.trail),
             classification: nil, on: image, style: style)
    }

    /// Draws `detections` (with an optional tag prefix and trail each) and a classifier's top classes.
    private static func draw(_ detections: [Detection], tags: [String]?, trails: [[Point2]]?,
                             classification: [Classification]?, on image: ImageBuffer,
                             style: AnnotationStyle) -> ImageBuffer {
        var canvas = Canvas(image: image)
        let diag = Double(image.width * image.width + image.height * image.height).squareRoot()
        let lw = max(style.lineWidth ?? Int((diag * 0.003).rounded()), 1)
        let ts = max(style.textScale ?? max(lw / 2, 1), 1)
        // Masks first so boxes and labels stay visible on top.
        for d in detections.reversed() {
            guard let m = d.mask, m.width == image.width, m.height == image.height else { continue }
            let c = RGB.forClass(d.classId)
            for y in 0..<m.height {
                for x in 0..<m.width where m.data[y * m.width + x] != 0 { canvas.blend(x, y, c, alpha: style.maskAlpha) }
            }
        }
        if let trails {
            for (d, trail) in zip(detections, trails) where trail.count > 1 {
                for i in 1..<trail.count {
                    canvas.line(trail[i - 1], trail[i], RGB.forClass(d.classId), thickness: max(lw / 2, 1))
                }
            }
        }
        for (i, d) in detections.enumerated().reversed() {
            let c = RGB.forClass(d.classId)
            if let o = d.obb {
                canvas.polygon(o.corners, c, thickness: lw)
            } else {
                canvas.rect(d.box, c, thickness: lw)
            }
            if let kps = d.keypoints { drawPose(kps, on: &canvas, lineWidth: lw, threshold: style.keypointThreshold) }
            if style.showLabels {
                let body = style.showConfidence ? "\(d.label) \(format(d.confidence))" : d.label
                let text = tags.map { $0[i] + " " + body } ?? body
                let anchor = d.obb?.corners.min { $0.y < $1.y } ?? Point2(x: d.box.x1, y: d.box.y1)
                tag(text, at: anchor, color: c, scale: ts, on: &canvas)
            }
        }
        if let top = classification {
            for (i, cls) in top.enumerated() {
                let text = "\(cls.label) \(format(cls.confidence))"
                let h = (BitmapFont.glyphHeight + 3) * ts
                tag(text, at: Point2(x: Double(lw), y: Double(lw + (i + 1) * h)), color: RGB(255, 255, 255), scale: ts, on: &canvas)
            }
        }
        return canvas.image
    }

    static func drawPose(_ kps: [Keypoint], on canvas: inout Canvas, lineWidth: Int, threshold: Double) {
        if kps.count == 17 {
            for (a, b) in cocoSkeleton where kps[a].visibility > threshold && kps[b].visibility > threshold {
                canvas.line(Point2(x: kps[a].x, y: kps[a].y), Point2(x: kps[b].x, y: kps[b].y), RGB(51, 153, 255),
                            thickness: max(lineWidth / 2, 1))
            }
        }
        for (i, k) in kps.enumerated() where k.visibility > threshold {
            canvas.disc(Point2(x: k.x, y: k.y), radius: max(lineWidth, 2), RGB.forClass(i + 3))
        }
    }

    /// A filled label box whose bottom-left sits at `p` (moved inside the image when needed).
    static func tag(_ text: String, at p: Point2, color: RGB, scale: Int, on canvas: inout Canvas) {
        let pad = scale
        let w = BitmapFont.width(of: text, scale: scale) + 2 * pad, h = BitmapFont.glyphHeight * scale + 2 * pad
        var x = Int(p.x.rounded()), y = Int(p.y.rounded()) - h
        if y < 0 { y = Int(p.y.rounded()) }  // no room above: draw inside the box
        x = min(max(x, 0), max(canvas.image.width - w, 0))
        canvas.fillRect(x, y, x + w, y + h, color)
        canvas.text(text, x: x + pad, y: y + pad, scale: scale, color.contrasting)
    }

    static func format(_ v: Double) -> String {
        let hundredths = Int((v * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
    }
}
