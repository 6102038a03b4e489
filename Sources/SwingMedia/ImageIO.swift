import CFFmpeg
import Foundation
import SwingCore

/// Reads and writes still images through FFmpeg (no other image library needed).
public enum ImageIO {
    /// Loads a JPEG, PNG, WebP or BMP file (anything FFmpeg decodes as a picture) as RGB.
    /// - Parameter path: The image file.
    /// - Returns: The first picture, RGB8 interleaved (alpha, if any, is dropped).
    /// - Throws: ``MediaError`` `.fileNotFound`, or `.imageUnreadable` for anything not a decodable image.
    public static func load(_ path: String) throws -> ImageBuffer {
        do {
            let input = try InputFile(path: path)
            guard let index = input.videoStreamIndex ?? firstVideoStream(input) else {
                throw MediaError(.imageUnreadable, "\(path) is not a readable image (it has no picture stream)")
            }
            let decoder = try StreamDecoder(input: input, streamIndex: index, threads: 1)
            guard try decoder.next() else {
                throw MediaError(.imageUnreadable, "\(path) is not a readable image (it holds no decodable picture)")
            }
            let f = decoder.frame.pointer
            return try PictureConverter().image(from: f, width: Int(f.pointee.width), height: Int(f.pointee.height), rotation: 0)
        } catch let error as MediaError where error.kind == .unreadable || error.kind == .noVideoTrack {
            throw MediaError(.imageUnreadable, "\(path) is not a readable image (JPEG, PNG, WebP or BMP)", underlying: error.message)
        }
    }

    /// Saves `image` as PNG (lossless) or JPEG, chosen by the path's extension.
    /// - Parameters:
    ///   - image: The picture to write.
    ///   - path: Destination ending in `.png`, `.jpg` or `.jpeg`; an existing file is replaced.
    /// - Throws: ``MediaError`` `.encodeFailed` for another extension, an encoder failure or an unwritable path.
    public static func save(_ image: ImageBuffer, to path: String) throws {
        let ext = (path as NSString).pathExtension.lowercased()
        let codecID: AVCodecID, pixFmt: AVPixelFormat
        switch ext {
        case "png": (codecID, pixFmt) = (AV_CODEC_ID_PNG, AV_PIX_FMT_RGB24)
        case "jpg", "jpeg": (codecID, pixFmt) = (AV_CODEC_ID_MJPEG, AV_PIX_FMT_YUVJ444P)
        default:
            throw MediaError(.encodeFailed, "cannot save an image as .\(ext); use .png or .jpg")
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
        guard !data.isEmpty else { throw MediaError(.encodeFailed, "the image encoder produced no data for \(path)") }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw MediaError(.encodeFailed, "cannot write \(path)", underlying: "\(error)")
        }
    }

    private static func firstVideoStream(_ input: InputFile) -> Int32? {
        for i in 0..<Int32(input.context.pointee.nb_streams)
        where input.stream(i)?.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO { return i }
        return nil
    }
}
