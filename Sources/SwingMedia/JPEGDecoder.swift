import CTurboJPEG
import Foundation
import SwingCore

/// Decodes JPEG through libjpeg-turbo with its default settings (accurate integer IDCT, fancy
/// chroma upsampling): the pixels `cv2.imread`, Pillow and MediaPipe users get, byte for byte.
/// FFmpeg's MJPEG decoder and swscale's upsampling sit a few levels away, which is enough to move
/// BlazePose landmarks by centimetres (docs/engine.md).
enum JPEGDecoder {
    /// True when `data` starts with a JPEG start-of-image marker.
    static func isJPEG(_ data: Data) -> Bool {
        data.count >= 3 && data[data.startIndex] == 0xFF && data[data.startIndex + 1] == 0xD8 && data[data.startIndex + 2] == 0xFF
    }

    /// The width and height in the JPEG's header (as stored), `nil` when the header cannot be read.
    static func size(_ data: Data) -> (width: Int, height: Int)? {
        guard let handle = tjInitDecompress() else { return nil }
        defer { tjDestroy(handle) }
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> (Int, Int)? in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
            var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            guard tjDecompressHeader3(handle, base, UInt(raw.count), &width, &height, &subsampling, &colorspace) == 0,
                  width > 0, height > 0 else { return nil }
            return (Int(width), Int(height))
        }
    }

    /// Decodes `data` (the contents of `path`, named in errors) to RGB, as stored (before EXIF orientation).
    /// - Throws: ``MediaError`` `.imageUnreadable` for a damaged, 12-bit or oversized JPEG.
    static func decode(_ data: Data, path: String) throws -> ImageBuffer {
        guard let handle = tjInitDecompress() else {
            throw MediaError(.imageUnreadable, "The JPEG decoder could not start while reading \(path).")
        }
        defer { tjDestroy(handle) }
        return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> ImageBuffer in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else {
                throw MediaError(.imageUnreadable, "\(path) is empty.")
            }
            let size = UInt(raw.count)
            var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            guard tjDecompressHeader3(handle, base, size, &width, &height, &subsampling, &colorspace) == 0 else {
                throw MediaError(.imageUnreadable, "\(path) is not a readable JPEG.", underlying: errorText(handle))
            }
            let w = Int(width), h = Int(height)
            try ImageIO.checkSize(width: w, height: h, path: path)
            // Progressive files may not hide unbounded work behind a small header (libjpeg-turbo's
            // own defence against scan-count denial of service).
            let flags = TJFLAG_LIMITSCANS
            let cmyk = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
            let channels = cmyk ? 4 : 3
            let format = cmyk ? TJPF_CMYK : TJPF_RGB
            var decoded = [UInt8](repeating: 0, count: w * h * channels)
            let status = decoded.withUnsafeMutableBufferPointer { out in
                tjDecompress2(handle, base, size, out.baseAddress, width, 0, height, Int32(format.rawValue), flags)
            }
            // A warning (e.g. "premature end of JPEG file") still leaves a decoded picture, with the
            // missing part filled, as OpenCV and Pillow return it; only errors refuse the file.
            if status != 0, tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) {
                throw MediaError(.imageUnreadable, "\(path) is a JPEG this program cannot decode (damaged, or not 8-bit).",
                                 underlying: errorText(handle))
            }
            let rgb = cmyk ? cmykToRGB(decoded) : decoded
            guard let image = ImageBuffer(width: w, height: h, pixels: rgb) else {
                throw MediaError(.imageUnreadable, "\(path) decoded to an empty picture.")
            }
            return image
        }
    }

    /// Adobe CMYK/YCCK JPEGs store inverted ink (libjpeg returns it as stored), so the visible
    /// colour is `C × K / 255` per channel — what OpenCV and Pillow show for such files.
    private static func cmykToRGB(_ cmyk: [UInt8]) -> [UInt8] {
        let n = cmyk.count / 4
        var rgb = [UInt8](repeating: 0, count: n * 3)
        for i in 0..<n {
            let k = Int(cmyk[i * 4 + 3])
            for c in 0..<3 { rgb[i * 3 + c] = UInt8((Int(cmyk[i * 4 + c]) * k + 127) / 255) }
        }
        return rgb
    }

    private static func errorText(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown TurboJPEG error" }
        return String(cString: text)
    }
}
