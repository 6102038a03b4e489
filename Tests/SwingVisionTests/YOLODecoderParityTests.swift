import Foundation
import SwingCore
import Testing
@testable import SwingVision

/// Decoder parity on raw ORT outputs stored by the fixture script: the same tensors Ultralytics' predictor
/// post-processed, so any difference is ours (NMS, scaling, masks, keypoints, rotated boxes).
@Suite struct YOLODecoderParityTests {
    static let cases: [String] = ((try? YOLOFixtures.reference().cases) ?? [])
        .filter { $0.tensors != nil }.map { "\($0.model)|\($0.image)" }

    @Test(arguments: cases)
    func storedTensorsDecodeLikeUltralytics(_ key: String) throws {
        let ref = try YOLOFixtures.reference()
        let c = try #require(ref.cases.first { "\($0.model)|\($0.image)" == key })
        let tensors = try #require(c.tensors).map(YOLOFixtures.tensor)
        let info = try YOLOModelInfo(metadata: c.metadata, inputShape: [1, 3, -1, -1], outputShapes: tensors.map(\.shape))
        let g = LetterboxGeometry(sourceWidth: c.imageSize[1], sourceHeight: c.imageSize[0],
                                  targetWidth: info.imgsz[1], targetHeight: info.imgsz[0])
        let out = try YOLODecoder(info: info).decode(
            tensors, letterbox: g, options: PredictionOptions(conf: c.conf, iou: ref.iou, maxDet: c.maxDet))
        let report = ParityReport.compare(c, out.detections)
        print("parity \(key): \(report)")  // the numbers quoted in reports
        #expect(report.passes, "\(key): \(report) unmatched: \(report.unmatched.prefix(5))")
        #expect(report.expected > 0, "the case should exercise the decoder")
    }
}
