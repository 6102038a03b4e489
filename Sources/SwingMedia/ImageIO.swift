import CFFmpeg
import Foundation
import SwingCore

/// Reads and writes still images: JPEG through libjpeg-turbo (as OpenCV and Pillow decode it),
/// everything else through FFmpeg.
package enum ImageIO {
    /// The largest image file read (bytes): far above any camera's photo, small enough to hold.
    package static let maxFileBytes = 512 << 20
    /// The most pixels a decoded image may have (200 megapixels, about 600 MB of RGB).
    package static let maxPixels = 200_000_000

    /// File extensions (lower case) that name a still picture: commands treat these paths as photos and
    /// everything else as video.
    package static let fileExtensions: Set<String> = ["jpg", "jpeg", "png", "webp", "bmp", "ppm", "pgm", "pnm", "tif", "tiff"]

    /// Whether `path` names a still picture by its extension (see ``fileExtensions``).
    package static func isImagePath(_ path: String) -> Bool {
        fileExtensions.contains((path as NSString).pathExtension.lowercased())
    }

    /// Loads a JPEG, PNG, WebP, BMP, TIFF or PNM file as RGB, turned upright by its EXIF orientation
    /// (JPEG APP1 or PNG `eXIf`), as `cv2.imread` returns it: every coordinate the engine reports
    /// for this image refers to the upright picture.
    /// - Parameter path: The image file.
    /// - Returns: The first picture, RGB8 interleaved (alpha, if any, is dropped).
    /// - Throws: ``MediaError`` `.fileNotFound`, or `.imageUnreadable` for anything not a decodable
    ///   image, or one beyond ``maxFileBytes`` / ``maxPixels``.
    package static func load(_ path: String) throws -> ImageBuffer {
        let data = try readFile(path)
        let stored: ImageBuffer
        if JPEGDecoder.isJPEG(data) {
            stored = try JPEGDecoder.decode(data, path: path)
        } else {
            stored = try decodeWithFFmpeg(path)
        }
        return (ImageOrientation.read(from: data) ?? .up).apply(to: stored)
    }

    /// Decodes an image held in memory (a camera frame, an upload) as ``load(_:)`` decodes a file: JPEG
    /// through libjpeg-turbo straight from the bytes, other formats through FFmpeg (from a temporary file
    /// that is removed before this returns), upright by its EXIF orientation.
    /// - Parameters:
    ///   - data: The encoded picture.
    ///   - name: How error sentences name it, starting with a capital (e.g. "The picture").
    /// - Returns: The picture, RGB8 interleaved.
    /// - Throws: ``MediaError`` `.imageUnreadable` for anything not a decodable image, or one beyond
    ///   ``maxFileBytes`` / ``maxPixels``.
    package static func decode(_ data: Data, name: String = "The picture") throws -> ImageBuffer {
        guard !data.isEmpty else { throw MediaError(.imageUnreadable, "\(name) is empty.") }
        guard data.count <= maxFileBytes else {
            throw MediaError(.imageUnreadable, "\(name) is larger than the \(maxFileBytes >> 20) MB image limit.")
        }
        let stored: ImageBuffer
        if JPEGDecoder.isJPEG(data) {
            stored = try JPEGDecoder.decode(data, path: name)
        } else {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("swingmaster-image-\(UUID().uuidString)")
            do { try data.write(to: file) } catch {
                throw MediaError(.imageUnreadable, "\(name) could not be staged for decoding.", underlying: "\(error)")
            }
            defer { try? FileManager.default.removeItem(at: file) }
            do { stored = try decodeWithFFmpeg(file.path) } catch let error as MediaError {
                throw MediaError(.imageUnreadable, "\(name) is not a readable image (JPEG, PNG, WebP or BMP).", underlying: error.message)
            }
        }
        return (ImageOrientation.read(from: data) ?? .up).apply(to: stored)
    }

    /// The width and height a JPEG or PNG held in memory says it has (as stored, before any EXIF turn), read
    /// from its header without decoding a pixel; `nil` for anything else or a damaged header. Lets a caller
    /// refuse a small file that would decode to a huge picture.
    package static func pictureSize(of data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(32))
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if bytes.count >= 24, Array(bytes[0..<8]) == png, bytes[12...15].elementsEqual(Array("IHDR".utf8)) {
            func be(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
            let w = be(16), h = be(20)
            return w > 0 && h > 0 ? (w, h) : nil
        }
        if JPEGDecoder.isJPEG(data) { return JPEGDecoder.size(data) }
        return nil
    }

    /// Refuses a picture whose size would not fit the limits, before its pixels are allocated.
    static func checkSize(width: Int, height: Int, path: String) throws {
        guard width > 0, height > 0 else { throw MediaError(.imageUnreadable, "\(path) has no pixels.") }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else {
            throw MediaError(.imageUnreadable, "\(path) is \(width)×\(height) pixels, more than the \(maxPixels / 1_000_000)-megapixel limit.")
        }
    }

    private static func readFile(_ path: String) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw MediaError(.fileNotFound, "No file at \(path).")
        }
        if isDirectory.boolValue { throw MediaError(.imageUnreadable, "\(path) is a folder, not an image.") }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maxFileBytes else {
            throw MediaError(.imageUnreadable, "\(path) is larger than the \(maxFileBytes >> 20) MB image limit.")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw MediaError(.imageUnreadable, "\(path) cannot be read.", underlying: "\(error)")
        }
    }

    private static func decodeWithFFmpeg(_ path: String) throws -> ImageBuffer {
        do {
            let input = try InputFile(path: path)
            guard let index = input.videoStreamIndex ?? firstVideoStream(input) else {
                throw MediaError(.imageUnreadable, "\(path) is not a readable image (it has no picture stream).")
            }
            let decoder = try StreamDecoder(input: input, streamIndex: index, threads: 1)
            guard try decoder.next() else {
                throw MediaError(.imageUnreadable, "\(path) is not a readable image (it holds no decodable picture).")
            }
            let f = decoder.frame.pointer
            let width = Int(f.pointee.width), height = Int(f.pointee.height)
            try checkSize(width: width, height: height, path: path)
            return try PictureConverter().image(from: f, width: width, height: height, rotation: 0)
        } catch let error as MediaError where error.kind == .unreadable || error.kind == .noVideoTrack {
            throw MediaError(.imageUnreadable, "\(path) is not a readable image (JPEG, PNG, WebP or BMP).", underlying: error.message)
        }
    }

    /// Saves `image` as PNG (lossless) or JPEG, chosen by the path's extension.
    /// - Parameters:
    ///   - image: The picture to write.
    ///   - path: Destination ending in `.png`, `.jpg` or `.jpeg`; an existing file is replaced.
    /// - Throws: ``MediaError`` `.encodeFailed` for another extension, an encoder failure or an unwritable path.
    package static func save(_ image: ImageBuffer, to path: String) throws {
        let ext = (path as NSString).pathExtension.lowercased()
        let codecID: AVCodecID, pixFmt: AVPixelFormat
        switch ext {
        case "png": (codecID, pixFmt) = (AV_CODEC_ID_PNG, AV_PIX_FMT_RGB24)
        case "jpg", "jpeg": (codecID, pixFmt) = (AV_CODEC_ID_MJPEG, AV_PIX_FMT_YUVJ444P)
        default:
            throw MediaError(.encodeFailed, "Cannot save an image as .\(ext); use .png or .jpg.")
        }
        let encoder = try Encoder(codecID: codecID, width: image.width, height: image.height, pixelFormat: pixFmt,
                                  timeBase: AVRational(num: 1, den: 1)) { ctx in
            if codecID == AV_CODEC_ID_MJPEG {
                // Fixed quantiser 2 (of 1–31): visually lossless, a few hundred kB for 1080p.
                ctx.pointee.flags |= AV_CODEC_FLAG_QSCALE
                ctx.pointee.global_quality = 2 * FF_QP2LAMBDA
            }
        }
        var data = Data()
        try encoder.encodeData(image, pts: 0) { data.append($0) }
        try encoder.finishData { data.append($0) }
        guard !data.isEmpty else { throw MediaError(.encodeFailed, "The image encoder produced no data for \(path).") }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw MediaError(.encodeFailed, "Cannot write \(path).", underlying: "\(error)")
        }
    }

    private static func firstVideoStream(_ input: InputFile) -> Int32? {
        for i in 0..<Int32(input.context.pointee.nb_streams)
        where input.stream(i)?.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO { return i }
        return nil
    }
}
