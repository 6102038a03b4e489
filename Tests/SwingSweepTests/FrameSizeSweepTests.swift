import Foundation
import SwingCore
import SwingMedia
@testable import SwingPose
import SwingVision
import Testing

/// Every frame size and pixel layout through every buffer the engine owns (issue #10, part 1):
/// image load, video frames (native and scaled), YOLO letterbox, BlazePose detector letterbox and
/// landmark crop, drawing, and PNG / JPEG / MP4 output. The sweep is made by
/// `tools/make_size_sweep.py` (see its header for the set). Under `make test-asan` the same suite
/// runs with AddressSanitizer, which turns any overrun into a failure.
@Suite struct FrameSizeSweepTests {
    @Test func everyImageSizeLoadsWithItsPixelsAndSurvivesEveryStage() throws {
        let sweep = try SizeSweep.shared()
        let stages = try Stages()
        var checked = 0
        var worst: [String: Double] = [:]
        // Every layout is decoded and compared; the stages after the decode see an RGB picture whose buffers
        // depend on its size only, so they run once per size (and on every damaged file).
        var staged = Set<[Int]>()
        defer { print("sweep: worst mean difference from the reference decode per variant: \(worst.sorted { $0.key < $1.key })") }
        for entry in sweep.entries where entry.kind == "image" {
            let path = sweep.path(entry)
            let image: ImageBuffer
            do { image = try ImageIO.load(path) } catch let error as MediaError where entry.expect == "decodeOrRefuse" {
                #expect(error.kind == .imageUnreadable && error.message.hasPrefix(path), "\(entry.path): \(error)")
                checked += 1
                continue
            } catch {
                Issue.record("\(entry.path): \(error)"); continue
            }
            if entry.expect == "decodeOrRefuse" {
                // Damaged but decodable: the picture's size, and it goes through every stage.
                if entry.width > 0 { #expect(image.width == entry.width && image.height == entry.height, "\(entry.path)") }
                try stages.run(image, label: entry.path)
                checked += 1
                continue
            }
            #expect(image.width == entry.width && image.height == entry.height, "\(entry.path) loaded as \(image.width)×\(image.height)")
            guard image.width == entry.width, image.height == entry.height else { continue }
            guard let reference = try sweep.reference(entry) else { Issue.record("\(entry.path): no reference"); continue }
            let diff = SizeSweep.meanDifference(image, reference)
            worst[entry.variant] = max(worst[entry.variant] ?? 0, diff)
            #expect(diff <= entry.tolerance, "\(entry.path): pixels differ from cv2.imread / Pillow by \(diff) levels on average")
            if staged.insert([image.width, image.height]).inserted { try stages.run(image, label: entry.path) }
            checked += 1
        }
        #expect(checked == sweep.entries.filter { $0.kind == "image" }.count)
    }

    @Test func everyVideoSizeDecodesNativeAndScaledAndRewrites() throws {
        let sweep = try SizeSweep.shared()
        let stages = try Stages()
        var checked = 0
        // The stages run once per size, as for images (the codecs and layouts are each decoded).
        var staged = Set<[Int]>()
        for entry in sweep.entries where entry.kind == "video" {
            let path = sweep.path(entry)
            // Native size, then scaled to a pose-sized picture (the analyzer's path) and up 3×.
            let scaled = SizeSweep.scaledSize(entry.width, entry.height, maxSide: 256)
            for target in [nil, scaled, (entry.width * 3 / 2 + 1, entry.height + 3)] as [(Int, Int)?] {
                let reader: VideoFrameReader
                do { reader = try VideoFrameReader(path: path, targetSize: target) } catch {
                    Issue.record("\(entry.path) → \(String(describing: target)): \(error)"); continue
                }
                var frames: [VideoFrame] = []
                try reader.frames(from: 0, to: 1e9) { frames.append($0); return true }
                let want = target ?? (entry.width, entry.height)
                #expect(frames.count == 2, "\(entry.path): \(frames.count) frames")
                for f in frames {
                    #expect(f.image.width == want.0 && f.image.height == want.1,
                            "\(entry.path) → \(want): frame is \(f.image.width)×\(f.image.height)")
                    #expect(f.image.pixels.contains { $0 > 16 }, "\(entry.path): a black frame")
                }
                if target == nil, let first = frames.first, staged.insert([first.image.width, first.image.height]).inserted {
                    try stages.run(first.image, label: entry.path)
                }
            }
            checked += 1
        }
        #expect(checked == sweep.entries.filter { $0.kind == "video" }.count)
    }

    /// The one rule for every writer: an odd size loses its last column/row, a 1-pixel side is refused.
    @Test func videoWritersTakeEverySizeByOneRule() throws {
        let dir = try SizeSweep.scratch()
        for (w, h) in [(1, 1), (1, 9), (2, 2), (3, 3), (17, 2), (321, 241), (1080, 1921), (811, 1080)] {
            let path = dir.appendingPathComponent("w\(w)x\(h).mp4").path
            guard w >= 2, h >= 2 else {
                #expect(throws: MediaError.self) { _ = try VideoWriter(path: path, width: w, height: h, fps: 30) }
                #expect(!FileManager.default.fileExists(atPath: path), "a refused writer left \(path)")
                continue
            }
            let writer = try VideoWriter(path: path, width: w, height: h, fps: 30)
            // Grey (no chroma to subsample on a 2×2 frame), smooth, with a bright top-left square
            // that a rescale would move or blur.
            let picture = SizeSweep.greyRamp(w, h)
            try writer.append(picture)
            try writer.append(picture)
            try writer.finish()
            let reader = try VideoFrameReader(path: path)
            #expect(reader.outputSize.width == w & ~1 && reader.outputSize.height == h & ~1)
            var first: ImageBuffer?
            try reader.frames(from: 0, to: 1e9) { f in first = first ?? f.image; return true }
            // The kept pixels are the picture's own (not rescaled): compare with its top-left corner.
            if let got = first {
                let kept = SizeSweep.crop(picture, got.width, got.height)
                // A few-pixel frame is all edge to H.264, so it keeps less detail.
                let tolerance = min(w, h) < 16 ? 12.0 : 6.0
                let diff = SizeSweep.meanDifference(got, kept)
                #expect(diff < tolerance, "\(w)×\(h): the written frame is not the picture's top-left (\(diff) levels off)")
            } else {
                Issue.record("\(w)×\(h): no frame read back")
            }
        }
    }
}

/// The stages one picture goes through in `detect`, `pose` and `analyze`.
struct Stages {
    let detect: YOLOPredictor
    let segment: YOLOPredictor
    let pose: PoseEstimator
    let out: URL

    init() throws {
        detect = try YOLOPredictor(modelPath: SizeSweep.fixture("Tests/SwingVisionTests/Fixtures/yolo/tiny26-detect.onnx"))
        segment = try YOLOPredictor(modelPath: SizeSweep.fixture("Tests/SwingVisionTests/Fixtures/yolo/tiny26-segment.onnx"))
        pose = try PoseEstimator(modelsDirectory: URL(fileURLWithPath: SizeSweep.fixture("Models")))
        out = try SizeSweep.scratch()
    }

    func run(_ image: ImageBuffer, label: String) throws {
        let w = image.width, h = image.height
        // YOLO: letterbox → tensor → decode → annotate (boxes, labels, masks). Every candidate the untrained
        // model gives is kept on small pictures; past 256×256 the 20 most confident clip and draw at the edges
        // as 300 would (the masks of 300 on a 4096×2160 picture were most of this suite's time under ASan).
        let options = PredictionOptions(conf: 0.0001, maxDet: w * h > 256 * 256 ? 20 : 300)
        let boxes = try detect.predict(image, options: options)
        let masks = try segment.predict(image, options: options)
        #expect(boxes.width == w && boxes.height == h, "\(label): result size \(boxes.width)×\(boxes.height)")
        for d in boxes.detections {
            #expect(d.box.x1 >= 0 && d.box.x2 <= Double(w) && d.box.y1 >= 0 && d.box.y2 <= Double(h),
                    "\(label): a box outside the picture")
        }
        var drawn = Annotator.annotate(masks, on: Annotator.annotate(boxes, on: image))
        // BlazePose: detector letterbox, then the landmark crop around a rotated region that
        // reaches past every edge (the replicate border).
        _ = try pose.estimate(image: image)
        var inference = StageTime()
        let region = PoseRegion(centerX: Double(w) * 0.4, centerY: Double(h) * 0.6,
                                width: Double(max(w, h)) * 1.3 + 2, height: Double(max(w, h)) * 1.3 + 2, rotation: 0.4)
        _ = try pose.landmarks(in: image, region: region, inference: &inference)
        drawn = PoseDrawing.draw(SizeSweep.spreadPose(width: w, height: h, region: region), on: drawn)
        #expect(drawn.width == w && drawn.height == h)
        // Outputs: PNG and JPEG read back at the same size; MP4 by the even-size rule.
        for ext in ["png", "jpg"] {
            let p = out.appendingPathComponent("annotated.\(ext)").path
            try ImageIO.save(drawn, to: p)
            let back = try ImageIO.load(p)
            #expect(back.width == w && back.height == h, "\(label): \(ext) written as \(back.width)×\(back.height)")
            if ext == "png" { #expect(back == drawn, "\(label): PNG is not lossless") }
        }
        if w >= 2, h >= 2 {
            let p = out.appendingPathComponent("annotated.mp4").path
            let writer = try VideoWriter(path: p, width: w, height: h, fps: 25)
            try writer.append(drawn)
            try writer.finish()
            let reader = try VideoFrameReader(path: p)
            #expect(reader.outputSize.width == w & ~1 && reader.outputSize.height == h & ~1)
        }
    }
}
