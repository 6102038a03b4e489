import SwingCore

/// The five Ultralytics YOLO tasks.
package enum YOLOTask: String, Codable, Sendable, CaseIterable {
    case detect, segment, classify, pose, obb
}

/// Shape of one model output, as the decoders need it (`-1` or `0` marks a dynamic axis).
package struct TensorShape: Sendable, Equatable, Codable {
    package var dims: [Int]
    package init(_ dims: [Int]) { self.dims = dims }
}

/// What a YOLO export is: task, class names, input size, and how its outputs are laid out.
///
/// Built from Ultralytics' ONNX `metadata_props` when present; otherwise inferred from the output shapes.
package struct YOLOModelInfo: Sendable, Codable, Equatable {
    /// The model's task.
    package var task: YOLOTask
    /// Class names by id.
    package var names: [Int: String]
    /// Model input size `[height, width]`.
    package var imgsz: [Int]
    /// Largest stride of the detection head (32 for YOLO11).
    package var stride: Int
    /// Keypoint layout `[K, D]` for pose models (D = 2 or 3).
    package var kptShape: [Int]?
    /// Whether outputs are already NMS-free detections (`[1, N, 6 + extra]`), only to be thresholded.
    package var endToEnd: Bool

    package init(task: YOLOTask, names: [Int: String], imgsz: [Int], stride: Int = 32, kptShape: [Int]? = nil,
                endToEnd: Bool = false) {
        self.task = task; self.names = names; self.imgsz = imgsz; self.stride = stride
        self.kptShape = kptShape; self.endToEnd = endToEnd
    }

    /// Number of classes.
    package var classCount: Int { names.count }

    /// The display label for a class id (the id as text when the model has no name for it).
    package func label(_ id: Int) -> String { names[id] ?? String(id) }

    /// Largest input side a model may declare, pixels.
    package static let maxImageSide = 8192
    /// Most keypoints per detection a pose model may declare (`kpt_shape[0]`).
    package static let maxKeypoints = 1000
    /// Largest size of any output axis (YOLO's anchor axis is 8 400 at 640 px, 134 400 at 2 560 px).
    package static let maxAxis = 10_000_000
    /// Most classes a model may name.
    package static let maxClasses = 100_000

    /// Builds the info from ONNX custom metadata and the model's input/output shapes.
    /// - Parameters:
    ///   - metadata: `metadata_props` (`task`, `names`, `imgsz`, `stride`, `kpt_shape`, `end2end`, `args`).
    ///   - inputShape: The image input's shape `[1, 3, H, W]` (dynamic axes as -1).
    ///   - outputShapes: Every output's shape, in model order.
    /// - Throws: ``VisionError`` (`modelUnsupported`) when the shapes fit no YOLO layout.
    package init(metadata: [String: String], inputShape: [Int], outputShapes: [[Int]]) throws {
        let lit = { (key: String) in metadata[key].flatMap(PythonLiteral.parse) }
        let shapeText = "outputs \(outputShapes.map { "\($0)" }.joined(separator: ", "))"
        guard inputShape.count == 4, inputShape[1] == 3 || inputShape[1] <= 0 else {
            throw VisionError(.modelUnsupported,
                              "The model's input has shape \(inputShape); a YOLO image model takes [1, 3, H, W].")
        }
        var imgsz = lit("imgsz")?.listValue?.compactMap(\.intValue) ?? []
        if imgsz.count == 1 { imgsz = [imgsz[0], imgsz[0]] }
        if imgsz.count != 2 {
            imgsz = [inputShape[2] > 0 ? inputShape[2] : 640, inputShape[3] > 0 ? inputShape[3] : 640]
        }
        if inputShape[2] > 0, inputShape[3] > 0 { imgsz = [inputShape[2], inputShape[3]] }  // the graph decides
        guard imgsz.allSatisfy({ (1...Self.maxImageSide).contains($0) }) else {
            throw VisionError(.modelUnsupported, "The model's input size \(imgsz) is outside 1…\(Self.maxImageSide) pixels.")
        }
        self.imgsz = imgsz
        stride = lit("stride")?.intValue ?? 32
        kptShape = lit("kpt_shape")?.listValue?.compactMap(\.intValue)
        if let k = kptShape {
            guard k.count == 2, (1...Self.maxKeypoints).contains(k[0]), (2...3).contains(k[1]) else {
                throw VisionError(.modelUnsupported, "The model's kpt_shape \(k) is not [1…\(Self.maxKeypoints) keypoints, 2 or 3 values].")
            }
        }
        guard outputShapes.allSatisfy({ $0.allSatisfy { $0 <= Self.maxAxis } }) else {
            throw VisionError(.modelUnsupported, "The model's output shapes \(outputShapes) exceed \(Self.maxAxis) on an axis.")
        }
        let args = lit("args")
        var nmsExport = false
        if case .dict(let pairs)? = args, let v = pairs.first(where: { $0.0 == .string("nms") })?.1, v == .bool(true) {
            nmsExport = true
        }
        let e2eMeta = metadata["end2end"].map { $0.lowercased() == "true" } ?? false
        let parsedNames = lit("names")?.classNames
        if metadata["names"] != nil, parsedNames == nil {
            throw VisionError(.modelUnsupported, "The model's `names` metadata is not a class table (a dict or list of names, nested at most \(PythonLiteral.maxDepth) deep).")
        }
        if let n = parsedNames?.count, n > Self.maxClasses {
            throw VisionError(.modelUnsupported, "The model names \(n) classes; at most \(Self.maxClasses) are supported.")
        }
        let metaTask = metadata["task"].flatMap { YOLOTask(rawValue: $0.lowercased()) }

        guard let main = outputShapes.first(where: { $0.count == 3 || $0.count == 2 }) else {
            throw VisionError(.modelUnsupported, "The model is not a YOLO export: unexpected \(shapeText).")
        }
        let protos = outputShapes.first { $0.count == 4 }
        if main.count == 2 {
            guard main[1] > 0 else { throw VisionError(.modelUnsupported, "Unexpected classifier \(shapeText).") }
            task = .classify
            names = parsedNames ?? Dictionary(uniqueKeysWithValues: (0..<main[1]).map { ($0, String($0)) })
            endToEnd = false
            if let m = metaTask, m != .classify {
                throw VisionError(.modelUnsupported, "Metadata says task '\(m.rawValue)' but the model has \(shapeText).")
            }
            return
        }
        // 3-D output: raw [1, 4+nc+extra, N] or end-to-end [1, N, 6+extra].
        let e2e = e2eMeta || nmsExport || (main[2] > 0 && main[1] > main[2] && main[2] <= 6 + 32 + 3 * 1000)
        endToEnd = e2e
        let channels = e2e ? main[2] : main[1]
        guard channels > 0 else { throw VisionError(.modelUnsupported, "Dynamic channel axis in \(shapeText).") }
        var t = metaTask
        if t == nil {
            if protos != nil { t = .segment } else if kptShape != nil { t = .pose }
        }
        let nc: Int
        if e2e {
            nc = parsedNames?.count ?? 0
            let extra = channels - 6
            if t == nil {
                t = extra == 0 ? .detect : (extra == 1 ? .obb : (extra % 3 == 0 ? .pose : nil))
            }
        } else {
            if t == nil { t = .detect }  // raw [1, 4 + nc, N] without protos or keypoints
            if let n = parsedNames?.count { nc = n } else {
                // Without names: assume the remaining channels are classes, less the task's extra channels.
                let extra = t == .segment ? (protos?[1] ?? 32) : (t == .pose ? (kptShape ?? [17, 3]).reduce(1, *) : 0)
                nc = channels - 4 - extra
            }
        }
        guard let task = t else { throw VisionError(.modelUnsupported, "Cannot tell the YOLO task from \(shapeText).") }
        self.task = task
        names = parsedNames ?? Dictionary(uniqueKeysWithValues: (0..<max(nc, 0)).map { ($0, String($0)) })
        if task == .pose && kptShape == nil {
            let extra = e2e ? channels - 6 : channels - 4 - names.count
            kptShape = extra % 3 == 0 ? [extra / 3, 3] : [extra / 2, 2]
        }
        try validate(outputShapes: outputShapes)
    }

    /// Extra channels per detection after the box and class scores.
    package var extraChannels: Int {
        switch task {
        case .detect, .classify: return 0
        case .obb: return 1
        case .segment: return 32
        case .pose: return (kptShape ?? [17, 3]).reduce(1, *)
        }
    }

    /// Checks that the outputs have the channel counts this info implies.
    /// - Throws: ``VisionError`` (`modelUnsupported`) naming the unexpected shapes.
    package func validate(outputShapes: [[Int]]) throws {
        let shapeText = "outputs \(outputShapes.map { "\($0)" }.joined(separator: ", "))"
        guard let main = outputShapes.first(where: { $0.count == 3 || $0.count == 2 }) else {
            throw VisionError(.modelUnsupported, "The model is not a YOLO export: unexpected \(shapeText).")
        }
        if task == .classify {
            guard main.count == 2, main[1] == classCount else {
                throw VisionError(.modelUnsupported, "Expected a [1, \(classCount)] classifier output, got \(shapeText).")
            }
            return
        }
        var extra = extraChannels
        if task == .segment {
            guard let p = outputShapes.first(where: { $0.count == 4 }) else {
                throw VisionError(.modelUnsupported, "Segmentation model without a prototype output: \(shapeText).")
            }
            extra = p[1]
        }
        let expected = endToEnd ? 6 + extra : 4 + classCount + extra
        let got = endToEnd ? main[2] : main[1]
        guard main.count == 3, got == expected else {
            let layout = endToEnd ? "[1, N, \(expected)]" : "[1, \(expected), N]"
            throw VisionError(.modelUnsupported,
                              "Expected a \(task.rawValue) output \(layout) for \(classCount) classes, got \(shapeText).")
        }
    }
}
