import Foundation
import SwingCore
@testable import SwingVision

/// Access to `Fixtures/yolo` (made by `tools/make_yolo_fixtures.py`) and the test images.
enum YOLOFixtures {
    static var directory: URL {
        let bundled = Bundle.module.resourceURL?.appendingPathComponent("Fixtures/yolo")
        if let b = bundled, FileManager.default.fileExists(atPath: b.path) { return b }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/yolo")
    }

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Reads a binary PPM (P6, maxval 255).
    static func ppm(_ name: String) throws -> ImageBuffer {
        let data = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
        var fields: [String] = [], i = 0
        while fields.count < 4, i < data.count {
            while i < data.count, data[i] == 0x20 || data[i] == 0x0A { i += 1 }
            var tok = ""
            while i < data.count, data[i] != 0x20, data[i] != 0x0A { tok.append(Character(UnicodeScalar(data[i]))); i += 1 }
            fields.append(tok)
        }
        i += 1
        guard fields.count == 4, fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]),
              let img = ImageBuffer(width: w, height: h, pixels: Array(data[i..<(i + w * h * 3)])) else {
            throw VisionError(.invalidImage, "bad PPM \(name)")
        }
        return img
    }

    /// The pattern `synthetic_image` in the fixture script draws (same integer formula).
    static func synthetic(width w: Int, height h: Int) -> ImageBuffer {
        var p = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let o = (y * w + x) * 3
                p[o] = UInt8((x * 255) / max(w - 1, 1)); p[o + 1] = UInt8((y * 255) / max(h - 1, 1))
                p[o + 2] = UInt8(((x + y) * 7) % 256)
            }
        }
        for i in 0..<6 {
            let x1 = (i * 197) % max(w - 40, 1), y1 = (i * 131) % max(h - 40, 1)
            let x2 = min(w, x1 + 40 + (i * 53) % 200), y2 = min(h, y1 + 40 + (i * 71) % 150)
            for y in y1..<y2 {
                for x in x1..<x2 {
                    let o = (y * w + x) * 3
                    p[o] = UInt8((i * 40) % 256); p[o + 1] = UInt8(255 - (i * 30) % 256); p[o + 2] = UInt8((i * 90) % 256)
                }
            }
        }
        return ImageBuffer(width: w, height: h, pixels: p) ?? ImageBuffer(width: w, height: h)
    }

    /// The named test images of the fixture script.
    static func image(_ name: String) throws -> ImageBuffer {
        switch name {
        case "astronaut": return try ppm("astronaut.ppm")
        case "astronaut-crop":
            let a = try ppm("astronaut.ppm")
            var p: [UInt8] = []
            for y in 0..<400 { p += a.pixels[((y * a.width + 50) * 3)..<((y * a.width + 333) * 3)] }
            return ImageBuffer(width: 283, height: 400, pixels: p) ?? a
        case "synthetic-1280x720": return synthetic(width: 1280, height: 720)
        case "synthetic-160x160": return synthetic(width: 160, height: 160)
        default: throw VisionError(.invalidImage, "unknown test image \(name)")
        }
    }

    struct Reference: Decodable {
        var ultralytics: String
        var iou: Double
        var cases: [Case]
    }

    struct Case: Decodable {
        var model: String
        var image: String
        var conf: Double
        var maxDet: Int
        var committed: Bool
        var imageSize: [Int]
        var metadata: [String: String]
        var detections: [Det]
        var classification: [Cls]?
        var tensors: [TensorRef]?
    }

    struct Det: Decodable {
        var classId: Int
        var confidence: Double
        var box: [Double]?
        var keypoints: [[Double]]?
        var obb: [Double]?
        var points: [[Double]]?
        var maskArea: Int?
        var maskRLE: [Int]?
    }

    struct Cls: Decodable { var classId: Int; var confidence: Double }
    struct TensorRef: Decodable { var file: String; var shape: [Int] }

    /// Parsed once per test process (the file is ~1 MB).
    static let cachedReference: Result<Reference, any Error> = Result {
        try JSONDecoder().decode(Reference.self, from: Data(contentsOf: directory.appendingPathComponent("reference.json")))
    }

    static func reference() throws -> Reference { try cachedReference.get() }

    static func tensor(_ ref: TensorRef) throws -> RawTensor {
        let data = try Data(contentsOf: directory.appendingPathComponent(ref.file))
        let floats = data.withUnsafeBytes { raw in
            (0..<(data.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
        return RawTensor(shape: ref.shape, data: floats)
    }

    /// Decodes COCO uncompressed RLE (column-major, starting with zeros) into a row-major mask.
    static func mask(rle: [Int], width: Int, height: Int) -> BinaryMask {
        var data = [UInt8](repeating: 0, count: width * height)
        var pos = 0, value: UInt8 = 0
        for run in rle {
            for k in pos..<(pos + run) where value == 1 { data[(k % height) * width + k / height] = 1 }
            pos += run; value ^= 1
        }
        return BinaryMask(width: width, height: height, data: data)
    }
}
