import SwingCore

/// Turns raw YOLO output tensors into detections in original-image pixels, the way Ultralytics' predictors do
/// (`non_max_suppression`, `scale_boxes`, `scale_coords`, `process_mask`, `scale_masks`).
///
/// Pure Swift on float arrays: no inference runtime needed, so every task is testable on stored tensors.
package struct YOLODecoder: Sendable {
    /// The model layout the outputs follow.
    package let info: YOLOModelInfo

    package init(info: YOLOModelInfo) { self.info = info }

    /// Decodes one image's outputs.
    /// - Parameters:
    ///   - outputs: The model's outputs in model order (the main `[1, C, N]`/`[1, N, C]`/`[1, nc]` output, plus the
    ///     `[1, 32, H/4, W/4]` prototypes for segmentation).
    ///   - letterbox: How the image was letterboxed into the model input (maps results back).
    ///   - options: Thresholds, caps and class filter.
    /// - Returns: Detections (best first) and, for classifiers, the top-k classes.
    /// - Throws: ``VisionError`` when the tensors do not match ``info`` or the options are invalid.
    package func decode(_ outputs: [RawTensor], letterbox: LetterboxGeometry,
                       options: PredictionOptions) throws -> (detections: [Detection], classification: [Classification]?) {
        try options.validate(classCount: info.classCount)
        try info.validate(outputShapes: outputs.map(\.shape))
        for t in outputs where t.count != t.data.count {
            throw VisionError(.modelUnsupported, "Output data (\(t.data.count) values) does not match its shape \(t.shape).")
        }
        guard let main = outputs.first(where: { $0.shape.count == 3 || $0.shape.count == 2 }) else {
            throw VisionError(.modelUnsupported, "No YOLO output found.")
        }
        if info.task == .classify { return ([], classify(main, topK: options.topK)) }
        let rows = info.endToEnd ? endToEndRows(main, options: options) : try rawRows(main, options: options)
        return (try finish(rows, outputs: outputs, letterbox: letterbox), nil)
    }

    /// One surviving detection in model-input pixels, before mapping back.
    struct Row {
        var x1: Float, y1: Float, x2: Float, y2: Float  // xyxy, or for obb cx, cy, w, h
        var score: Float
        var classId: Int
        var extra: [Float]  // mask coefficients, keypoints, or [angle]
    }

    func classify(_ t: RawTensor, topK: Int) -> [Classification] {
        let order = t.data.indices.sorted { t.data[$0] != t.data[$1] ? t.data[$0] > t.data[$1] : $0 < $1 }
        return order.prefix(max(topK, 0)).map {
            Classification(classId: $0, label: info.label($0), confidence: Double(t.data[$0]))
        }
    }

    /// NMS-free outputs `[1, N, 6 + extra]`: confidence/class filter and cap only.
    func endToEndRows(_ t: RawTensor, options: PredictionOptions) -> [Row] {
        let n = t.shape[1], c = t.shape[2], conf = Float(options.conf)
        var rows: [Row] = []
        t.data.withUnsafeBufferPointer { p in
            for i in 0..<n where rows.count < options.maxDet {
                let r = i * c
                guard p[r + 4] > conf else { continue }
                let cls = Int(p[r + 5])
                if let f = options.classes, !f.contains(cls) { continue }
                rows.append(Row(x1: p[r], y1: p[r + 1], x2: p[r + 2], y2: p[r + 3], score: p[r + 4], classId: cls,
                                extra: Array(p[(r + 6)..<(r + c)])))
            }
        }
        return rows
    }

    /// Raw outputs `[1, 4 + nc + extra, N]`: best class per anchor, threshold, NMS.
    func rawRows(_ t: RawTensor, options: PredictionOptions) throws -> [Row] {
        let n = t.shape[2], nc = info.classCount, extra = t.shape[1] - 4 - nc
        let conf = Float(options.conf)
        // Pass 1: best score per anchor. Class rows are contiguous: scan them one after another with a branchless
        // max (vectorises). Pass 2 finds the class only for the few anchors above the threshold.
        var best = [Float](repeating: -.infinity, count: n)
        var bestClass = [Int32](repeating: 0, count: n)
        t.data.withUnsafeBufferPointer { p in
            best.withUnsafeMutableBufferPointer { b in
                bestClass.withUnsafeMutableBufferPointer { bc in
                    guard let src = p.baseAddress, let bp = b.baseAddress else { return }
                    for c in 0..<nc {
                        let row = src + (4 + c) * n
                        for i in 0..<n { bp[i] = max(bp[i], row[i]) }
                    }
                    for i in 0..<n where bp[i] > conf {
                        for c in 0..<nc where src[(4 + c) * n + i] == bp[i] { bc[i] = Int32(c); break }
                    }
                }
            }
        }
        var rows: [Row] = []
        t.data.withUnsafeBufferPointer { p in
            for i in 0..<n where best[i] > conf {
                let cls = Int(bestClass[i])
                if let f = options.classes, !f.contains(cls) { continue }
                let cx = p[i], cy = p[n + i], w = p[2 * n + i], h = p[3 * n + i]
                var ex = [Float](repeating: 0, count: extra)
                for k in 0..<extra { ex[k] = p[(4 + nc + k) * n + i] }
                if info.task == .obb {
                    rows.append(Row(x1: cx, y1: cy, x2: w, y2: h, score: best[i], classId: cls, extra: ex))
                } else {
                    let dw = w / 2, dh = h / 2
                    rows.append(Row(x1: cx - dw, y1: cy - dh, x2: cx + dw, y2: cy + dh, score: best[i], classId: cls,
                                    extra: ex))
                }
            }
        }
        if info.task == .obb {
            let cands = rows.enumerated().map { i, r in
                RotatedCandidate(box: OrientedBox(cx: Double(r.x1), cy: Double(r.y1), w: Double(r.x2), h: Double(r.y2),
                                                  angle: Double(r.extra.first ?? 0)),
                                 score: r.score, classId: r.classId, index: i)
            }
            return RotatedNMS.run(cands, options: options.nms).map { rows[$0.index] }
        }
        let cands = rows.enumerated().map { i, r in
            NMSCandidate(box: Rect(x1: Double(r.x1), y1: Double(r.y1), x2: Double(r.x2), y2: Double(r.y2)),
                         score: r.score, classId: r.classId, index: i)
        }
        return NonMaxSuppression.run(cands, options: options.nms).map { rows[$0.index] }
    }

    /// Maps rows back to the original image and builds task extras.
    func finish(_ rows: [Row], outputs: [RawTensor], letterbox g: LetterboxGeometry) throws -> [Detection] {
        switch info.task {
        case .classify:
            return []
        case .detect:
            return rows.map { r in
                Detection(classId: r.classId, label: info.label(r.classId), confidence: Double(r.score),
                          box: g.toSource(rect(r)))
            }
        case .pose:
            let k = info.kptShape ?? [17, 3]
            let count = k.first ?? 0, dim = k.count > 1 ? k[1] : 3
            return rows.map { r in
                var kps: [Keypoint] = []
                kps.reserveCapacity(count)
                for j in 0..<count where j * dim + 1 < r.extra.count {
                    let p = g.toSourceClipped(Point2(x: Double(r.extra[j * dim]), y: Double(r.extra[j * dim + 1])))
                    let v = dim >= 3 ? Double(r.extra[j * dim + 2]) : 1
                    kps.append(Keypoint(x: p.x, y: p.y, visibility: v))
                }
                return Detection(classId: r.classId, label: info.label(r.classId), confidence: Double(r.score),
                                 box: g.toSource(rect(r)), keypoints: kps)
            }
        case .obb:
            return rows.map { r in
                let o = OrientedBox(cx: (Double(r.x1) - Double(g.left)) / g.gainX, cy: (Double(r.y1) - Double(g.top)) / g.gainY,
                                    w: Double(r.x2) / g.gainX, h: Double(r.y2) / g.gainY, angle: Double(r.extra.first ?? 0))
                return Detection(classId: r.classId, label: info.label(r.classId), confidence: Double(r.score),
                                 box: o.boundingBox, obb: o)
            }
        case .segment:
            guard let protos = outputs.first(where: { $0.shape.count == 4 }) else {
                throw VisionError(.modelUnsupported, "Segmentation model without a prototype output.")
            }
            let decoder = MaskDecoder(protos: protos, letterbox: g)
            var out: [Detection] = []
            for r in rows {
                let box = rect(r)
                // Ultralytics drops detections whose cropped mask is empty.
                guard let mask = decoder.mask(coefficients: r.extra, box: box) else { continue }
                out.append(Detection(classId: r.classId, label: info.label(r.classId), confidence: Double(r.score),
                                     box: g.toSource(box), mask: mask))
            }
            return out
        }
    }

    func rect(_ r: Row) -> Rect { Rect(x1: Double(r.x1), y1: Double(r.y1), x2: Double(r.x2), y2: Double(r.y2)) }
}
