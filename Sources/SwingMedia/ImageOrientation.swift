import Foundation
import SwingCore

/// The EXIF orientation of a photo (TIFF tag 0x0112): how the stored pixels must be turned to
/// show the picture upright. Phones store sensor rows and set this tag instead of rotating.
package enum ImageOrientation: Int, Sendable, CaseIterable {
    /// Stored upright.
    case up = 1
    /// Mirrored left–right.
    case upMirrored = 2
    /// Upside down.
    case down = 3
    /// Mirrored top–bottom.
    case downMirrored = 4
    /// Mirrored along the main diagonal (transposed).
    case leftMirrored = 5
    /// Stored turned 90° counter-clockwise: shown after turning 90° clockwise.
    case right = 6
    /// Mirrored along the anti-diagonal (transversed).
    case rightMirrored = 7
    /// Stored turned 90° clockwise: shown after turning 90° counter-clockwise.
    case left = 8

    /// The orientation recorded in a JPEG's APP1 Exif segment or a PNG's `eXIf` chunk, if any.
    ///
    /// The parser reads only the bytes it is given, follows no offset outside them and visits each
    /// structure once, so a damaged or hostile file yields `nil`, never a crash.
    package static func read(from data: Data) -> ImageOrientation? {
        let bytes = [UInt8](data.prefix(maxScannedBytes))
        if bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 { return fromJPEG(bytes) }
        if bytes.count >= 8, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return fromPNG(bytes) }
        return nil
    }

    /// Metadata is near the start of a file; scanning further would only cost time on large files.
    static let maxScannedBytes = 4 << 20

    /// Turns `image` upright.
    package func apply(to image: ImageBuffer) -> ImageBuffer {
        if self == .up { return image }
        let w = image.width, h = image.height
        let swaps = rawValue >= 5
        let ow = swaps ? h : w, oh = swaps ? w : h
        var out = [UInt8](repeating: 0, count: ow * oh * 3)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<oh {
                    for x in 0..<ow {
                        // The stored pixel shown at upright (x, y).
                        let (sx, sy): (Int, Int)
                        switch self {
                        case .up: (sx, sy) = (x, y)
                        case .upMirrored: (sx, sy) = (w - 1 - x, y)
                        case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case .downMirrored: (sx, sy) = (x, h - 1 - y)
                        case .leftMirrored: (sx, sy) = (y, x)
                        case .right: (sx, sy) = (y, h - 1 - x)
                        case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
                        case .left: (sx, sy) = (w - 1 - y, x)
                        }
                        let s = (sy * w + sx) * 3, d = (y * ow + x) * 3
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                    }
                }
            }
        }
        return ImageBuffer(width: ow, height: oh, pixels: out) ?? image
    }

    private static func fromJPEG(_ b: [UInt8]) -> ImageOrientation? {
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }                       // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return nil }            // image data: no Exif before it
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            let body = i + 4, end = i + 2 + length
            if marker == 0xE1, end - body > 6, b[body..<body + 6] == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                if let o = fromTIFF(Array(b[body + 6..<end])) { return o }
            }
            i = end
        }
        return nil
    }

    private static func fromPNG(_ b: [UInt8]) -> ImageOrientation? {
        var i = 8
        while i + 12 <= b.count {
            let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            let type = b[i + 4..<i + 8]
            guard length >= 0, length <= b.count - i - 12 else { return nil }
            if type == [0x65, 0x58, 0x49, 0x66] { return fromTIFF(Array(b[i + 8..<i + 8 + length])) }   // eXIf
            if type == [0x49, 0x45, 0x4E, 0x44] { return nil }                                          // IEND
            i += 12 + length
        }
        return nil
    }

    /// Reads tag 0x0112 from the first image directory of a TIFF header.
    private static func fromTIFF(_ t: [UInt8]) -> ImageOrientation? {
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= t.count else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for e in 0..<count {
            let entry = ifd + 2 + e * 12
            guard let tag = u16(entry) else { return nil }
            // Type SHORT (3), one value, stored in the first two bytes of the value field.
            if tag == 0x0112, u16(entry + 2) == 3, let value = u16(entry + 8) { return ImageOrientation(rawValue: value) }
        }
        return nil
    }
}
