import Foundation
import SwingTestSupport
import SwingCore
import SwingPose
import Testing

/// The sweep written by `tools/make_size_sweep.py` into `.build/size-sweep` (made once, then reused
/// while the script is unchanged: the manifest carries the script's version).
struct SizeSweep: Decodable {
    struct Entry: Decodable {
        let path: String
        let kind: String
        let variant: String
        let width: Int
        let height: Int

        /// The reference decode (Pillow or cv2.imread: libjpeg-turbo, libpng, EXIF orientation
        /// applied), as binary PPM; nil when cv2 refuses the file.
        let reference: String?
        /// "exact" (default): decodes to the reference; "decodeOrRefuse": a damaged file that may
        /// decode (any picture of the reference size) or be refused with a clear error.
        let expect: String?

        /// How far our decode may sit from the reference (mean levels). JPEG goes through the same
        /// libjpeg-turbo as OpenCV and Pillow, so it is exact; 16-bit PNG within rounding of 16 → 8
        /// bits; CMYK within the rounding of the ink-to-RGB product.
        var tolerance: Double {
            switch variant {
            case "png16", "jpegcmyk": return 1
            default: return 0
            }
        }
    }

    let version: Int
    let entries: [Entry]
    private(set) var root = URL(fileURLWithPath: "/")

    private enum CodingKeys: String, CodingKey { case version, entries }

    func path(_ e: Entry) -> String { root.appendingPathComponent(e.path).path }

    nonisolated(unsafe) private static var cached: SizeSweep?
    private static let lock = NSLock()

    /// The package root (this file is Tests/SwingSweepTests/SizeSweep.swift).
    static let packageRoot = TestFiles.packageRoot

    static func fixture(_ relative: String) -> String { packageRoot.appendingPathComponent(relative).path }

    /// Makes (or reuses) the sweep and reads its manifest.
    static func shared() throws -> SizeSweep {
        lock.lock(); defer { lock.unlock() }
        if let cached { return cached }
        let dir = packageRoot.appendingPathComponent(".build/size-sweep")
        let python = ProcessInfo.processInfo.environment["SWINGMASTER_PYTHON"]
            ?? packageRoot.appendingPathComponent(".deps/venv/bin/python").path
        _ = try Subprocess.output(python, [fixture("tools/make_size_sweep.py"), dir.path])
        var sweep = try JSONDecoder().decode(SizeSweep.self, from: Data(contentsOf: dir.appendingPathComponent("manifest.json")))
        sweep.root = dir
        cached = sweep
        return sweep
    }

    /// A fresh folder for outputs, removed when the test process exits.
    static func scratch() throws -> URL {
        try TestFiles.processDirectory("sweep")
    }

    /// The generator's picture: the same integer formula as `picture()` in the script.
    static func gradient(_ w: Int, _ h: Int) -> ImageBuffer {
        var p = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let o = (y * w + x) * 3
                p[o] = UInt8(x * 255 / max(w - 1, 1))
                p[o + 1] = UInt8(y * 255 / max(h - 1, 1))
                p[o + 2] = UInt8(((x + y) % 32) * 8)
            }
        }
        return ImageBuffer(width: w, height: h, pixels: p) ?? ImageBuffer(width: 1, height: 1, pixels: [0, 0, 0])!
    }

    /// The entry's reference decode.
    func reference(_ e: Entry) throws -> ImageBuffer? {
        guard let r = e.reference else { return nil }
        return try Self.readPPM(root.appendingPathComponent(r).path)
    }

    /// Reads a binary PPM (P6, maxval 255) as Pillow writes it.
    static func readPPM(_ path: String) throws -> ImageBuffer? {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var fields: [Int] = [], i = 2
        guard data.starts(with: [0x50, 0x36]) else { return nil }
        while fields.count < 3, i < data.count {
            while i < data.count, data[i] == 0x20 || data[i] == 0x0A || data[i] == 0x0D || data[i] == 0x09 { i += 1 }
            var v = 0
            while i < data.count, (0x30...0x39).contains(data[i]) { v = v * 10 + Int(data[i] - 0x30); i += 1 }
            fields.append(v)
        }
        i += 1
        guard fields.count == 3, fields[2] == 255, data.count - i == fields[0] * fields[1] * 3 else { return nil }
        return ImageBuffer(width: fields[0], height: fields[1], pixels: Array(data[i...]))
    }

    /// A grey ramp (left to right, top to bottom) with a white square over the top-left quarter:
    /// grey so 4:2:0 chroma loses nothing, smooth so H.264 keeps it within a few levels.
    static func greyRamp(_ w: Int, _ h: Int) -> ImageBuffer {
        var p = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let level = x < w / 4 && y < h / 4 ? 250 : 20 + (x * 100 / max(w - 1, 1)) + (y * 100 / max(h - 1, 1))
                for c in 0..<3 { p[(y * w + x) * 3 + c] = UInt8(level) }
            }
        }
        return ImageBuffer(width: w, height: h, pixels: p) ?? ImageBuffer(width: 1, height: 1, pixels: [0, 0, 0])!
    }

    static func meanDifference(_ a: ImageBuffer, _ b: ImageBuffer) -> Double {
        guard a.pixels.count == b.pixels.count, !a.pixels.isEmpty else { return .infinity }
        var sum = 0
        for i in a.pixels.indices { sum += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
        return Double(sum) / Double(a.pixels.count)
    }

    /// The top-left `w`×`h` of `image`.
    static func crop(_ image: ImageBuffer, _ w: Int, _ h: Int) -> ImageBuffer {
        var p: [UInt8] = []
        p.reserveCapacity(w * h * 3)
        for y in 0..<h { p += image.pixels[(y * image.width * 3)..<(y * image.width * 3 + w * 3)] }
        return ImageBuffer(width: w, height: h, pixels: p) ?? image
    }

    /// `w`×`h` scaled so the longer side is at most `maxSide` (at least 1 pixel a side).
    static func scaledSize(_ w: Int, _ h: Int, maxSide: Int) -> (Int, Int) {
        let s = min(1, Double(maxSide) / Double(max(w, h)))
        return (max(1, Int((Double(w) * s).rounded())), max(1, Int((Double(h) * s).rounded())))
    }

    /// A pose whose landmarks spread past every edge of the picture, so drawing clips on all sides.
    static func spreadPose(width: Int, height: Int, region: PoseRegion) -> PoseFrame {
        let w = Double(width), h = Double(height)
        let landmarks = (0..<33).map { i -> PoseLandmark in
            let t = Double(i) / 32
            let x = -0.3 * w + 1.6 * w * t, y = 1.3 * h - 1.6 * h * ((t * 7).truncatingRemainder(dividingBy: 1))
            return PoseLandmark(x: x, y: y, z: 0, visibility: 1, presence: 1, nx: x / w, ny: y / h)
        }
        let world = (0..<33).map { i in Vec3(x: Double(i) * 0.01, y: -Double(i) * 0.02, z: 0) }
        return PoseFrame(index: 0, time: 0, score: 1, landmarks: landmarks, worldLandmarks: world,
                         joints: [:], region: region, detectorRan: true)
    }
}
