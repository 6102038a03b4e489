import CFFmpeg
import SwingCore

/// Converts decoded pictures to upright RGB24 ``ImageBuffer``s with libswscale (bilinear),
/// caching the scaler across frames of the same shape.
final class PictureConverter {
    private var context: OpaquePointer?

    deinit { sws_freeContext(context) }

    /// Converts `frame` to RGB at `width`×`height` (before rotation), then applies `rotation`
    /// (counter-clockwise degrees, a multiple of 90).
    /// - Throws: ``MediaError`` `.unreadable` when libswscale rejects the picture.
    func image(from frame: UnsafePointer<AVFrame>, width: Int, height: Int, rotation: Double) throws -> ImageBuffer {
        let f = frame.pointee
        guard f.width > 0, f.height > 0, width > 0, height > 0 else {
            throw MediaError(.unreadable, "a decoded video frame has no picture")
        }
        context = sws_getCachedContext(
            context, f.width, f.height, AVPixelFormat(rawValue: f.format),
            Int32(width), Int32(height), AV_PIX_FMT_RGB24, SWS_BILINEAR, nil, nil, nil)
        guard let context else {
            throw MediaError(.unreadable, "video frames in pixel format \(f.format) cannot be converted to RGB")
        }
        applyColorspace(frame, context)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let rows = rgb.withUnsafeMutableBufferPointer { buf in
            swm_sws_scale_to_packed(context, frame, buf.baseAddress, Int32(width * 3))
        }
        guard rows == Int32(height) else {
            throw MediaError(.unreadable, "a video frame could not be converted to RGB", underlying: ffErrorText(rows))
        }
        let (w, h, pixels) = Self.rotate(rgb, width: width, height: height, ccwDegrees: rotation)
        guard let image = ImageBuffer(width: w, height: h, pixels: pixels) else {
            throw MediaError(.unreadable, "a video frame could not be converted to RGB")
        }
        return image
    }

    /// HD video is tagged BT.709; libswscale assumes BT.601 unless told, which shifts colours.
    private func applyColorspace(_ frame: UnsafePointer<AVFrame>, _ ctx: OpaquePointer) {
        let f = frame.pointee
        let isJPEGFormat = [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P]
            .contains { $0.rawValue == f.format }
        guard !isJPEGFormat else { return }
        let cs = f.colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_DEFAULT
        let fullRange: Int32 = f.color_range == AVCOL_RANGE_JPEG ? 1 : 0
        _ = sws_setColorspaceDetails(ctx, sws_getCoefficients(cs), fullRange,
                                     sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
    }

    /// Rotates packed RGB counter-clockwise by 90, 180 or 270 degrees (other values: unchanged).
    static func rotate(_ src: [UInt8], width w: Int, height h: Int, ccwDegrees: Double) -> (Int, Int, [UInt8]) {
        let turn = Int(ccwDegrees) % 360
        guard turn == 90 || turn == 180 || turn == 270 else { return (w, h, src) }
        let (nw, nh) = turn == 180 ? (w, h) : (h, w)
        var dst = [UInt8](repeating: 0, count: src.count)
        src.withUnsafeBufferPointer { s in
            dst.withUnsafeMutableBufferPointer { d in
                for y in 0..<h {
                    for x in 0..<w {
                        // Destination of source pixel (x, y) after a counter-clockwise turn.
                        let (dx, dy): (Int, Int)
                        switch turn {
                        case 90: (dx, dy) = (y, w - 1 - x)
                        case 270: (dx, dy) = (h - 1 - y, x)
                        default: (dx, dy) = (w - 1 - x, h - 1 - y)
                        }
                        let si = (y * w + x) * 3, di = (dy * nw + dx) * 3
                        d[di] = s[si]; d[di + 1] = s[si + 1]; d[di + 2] = s[si + 2]
                    }
                }
            }
        }
        return (nw, nh, dst)
    }
}
