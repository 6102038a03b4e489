import Foundation
import SwingCore

/// How samples outside the image are filled.
enum WarpBorder: Sendable {
    /// Repeat the nearest edge pixel (MediaPipe's default for the landmark crop).
    case replicate
    /// Zero (black) pixels (the detector's letterbox).
    case zero
}

/// Rotated-rectangle crop into a float NHWC tensor, with bilinear sampling.
///
/// Follows OpenCV's `warpPerspective` on an 8-bit image as MediaPipe's `ImageToTensorCalculator`
/// uses it, because the landmark model is so sensitive to its input that a sub-pixel difference in
/// the crop moves uncertain landmarks by centimetres: the region's corners map to the *edges* of the
/// output (output pixel `i` samples at `i / size` across the region), source pixel `k` sits at
/// coordinate `k`, sample positions are quantised to 1/32 pixel and samples rounded to integers.
/// Positions must be finite and within ±2^50 (callers check the region).
enum ImageWarp {
    /// Writes `size × size × 3` floats (`value · scale + offset`, RGB) into `out`.
    static func crop(_ image: ImageBuffer, region: PoseRegion, size: Int, border: WarpBorder,
                     scale: Float, offset: Float, into out: UnsafeMutableBufferPointer<Float>) {
        precondition(out.count >= size * size * 3, "output buffer too small")
        let c = cos(region.rotation), s = sin(region.rotation)
        let n = Double(size)
        // Source step for one output pixel along x and along y, and the source point of output (0, 0).
        let dxx = c * region.width / n, dxy = s * region.width / n
        let dyx = -s * region.height / n, dyy = c * region.height / n
        let ox = region.centerX - c * region.width / 2 + s * region.height / 2
        let oy = region.centerY - s * region.width / 2 - c * region.height / 2
        let w = image.width, h = image.height
        let replicate = border == .replicate
        image.pixels.withUnsafeBufferPointer { px in
            guard let base = out.baseAddress, let src = px.baseAddress else { return }
            var o = 0
            for j in 0..<size {
                var sx = ox + Double(j) * dyx
                var sy = oy + Double(j) * dyy
                for _ in 0..<size {
                    // OpenCV quantises sample positions to 1/32 pixel (INTER_BITS = 5).
                    let qx = Int((sx * 32).rounded()), qy = Int((sy * 32).rounded())
                    let ax = Float(qx & 31) / 32, ay = Float(qy & 31) / 32
                    var x0 = qx >> 5, y0 = qy >> 5
                    var x1 = x0 + 1, y1 = y0 + 1
                    var w00: Float = (1 - ax) * (1 - ay), w10: Float = ax * (1 - ay)
                    var w01: Float = (1 - ax) * ay, w11: Float = ax * ay
                    if x0 < 0 || y0 < 0 || x1 >= w || y1 >= h {
                        if replicate {
                            x0 = min(max(x0, 0), w - 1); x1 = min(max(x1, 0), w - 1)
                            y0 = min(max(y0, 0), h - 1); y1 = min(max(y1, 0), h - 1)
                        } else {
                            // Zero border: drop the taps that fall outside.
                            let in0x = x0 >= 0 && x0 < w, in1x = x1 >= 0 && x1 < w
                            let in0y = y0 >= 0 && y0 < h, in1y = y1 >= 0 && y1 < h
                            if !(in0x && in0y) { w00 = 0 }
                            if !(in1x && in0y) { w10 = 0 }
                            if !(in0x && in1y) { w01 = 0 }
                            if !(in1x && in1y) { w11 = 0 }
                            x0 = min(max(x0, 0), w - 1); x1 = min(max(x1, 0), w - 1)
                            y0 = min(max(y0, 0), h - 1); y1 = min(max(y1, 0), h - 1)
                        }
                    }
                    let p00 = (y0 * w + x0) * 3, p10 = (y0 * w + x1) * 3
                    let p01 = (y1 * w + x0) * 3, p11 = (y1 * w + x1) * 3
                    for ch in 0..<3 {
                        let v = w00 * Float(src[p00 + ch]) + w10 * Float(src[p10 + ch])
                            + w01 * Float(src[p01 + ch]) + w11 * Float(src[p11 + ch])
                        // OpenCV warps the 8-bit image, so each sample is rounded to an integer first.
                        base[o + ch] = (v + 0.5).rounded(.down) * scale + offset
                    }
                    o += 3
                    sx += dxx; sy += dxy
                }
            }
        }
    }
}
