/// Pre-processing for fixed-size YOLO inputs: letterbox an RGB image into a planar float tensor.
///
/// The resize reproduces OpenCV's `cv2.resize(..., INTER_LINEAR)` for 8-bit images, which Ultralytics uses:
/// half-pixel centres, edge clamping, 11-bit fixed-point coefficients and the same integer rounding, so the
/// model sees the same pixels as in Python (and boxes agree to well under a pixel).
public enum Letterbox {
    /// The fixed-point scale of OpenCV's linear-resize coefficients (`INTER_RESIZE_COEF_SCALE`).
    static let coefScale: Float = 2048

    /// Per-output-index source index and 11-bit weight pair, like OpenCV's `xofs`/`ialpha`.
    struct Taps {
        var index0: [Int32]
        var index1: [Int32]
        var weight0: [Int32]
        var weight1: [Int32]
    }

    /// OpenCV clamps the *coefficients* at the left/right edges but only the *row indices* at the top/bottom
    /// (`clampWeights` false), which changes the fixed-point rounding of edge rows.
    static func taps(source: Int, destination: Int, clampWeights: Bool) -> Taps {
        let scale = 1.0 / (Double(destination) / Double(source))
        var t = Taps(index0: [], index1: [], weight0: [], weight1: [])
        t.index0.reserveCapacity(destination); t.index1.reserveCapacity(destination)
        t.weight0.reserveCapacity(destination); t.weight1.reserveCapacity(destination)
        for d in 0..<destination {
            var f = Float((Double(d) + 0.5) * scale - 0.5)
            var s = Int(f.rounded(.down))
            f -= Float(s)
            if clampWeights {
                if s < 0 { f = 0; s = 0 }
                if s >= source - 1 { f = 0; s = source - 1 }
            }
            t.index0.append(Int32(min(max(s, 0), source - 1)))
            t.index1.append(Int32(min(max(s + 1, 0), source - 1)))
            t.weight0.append(Int32(((1 - f) * coefScale).rounded(.toNearestOrEven)))
            t.weight1.append(Int32((f * coefScale).rounded(.toNearestOrEven)))
        }
        return t
    }

    /// Resizes an RGB8 image with OpenCV `INTER_LINEAR` semantics.
    /// - Parameters:
    ///   - image: The source image.
    ///   - width: Output width (≥ 1).
    ///   - height: Output height (≥ 1).
    /// - Returns: The resized image (the input itself when the size is unchanged).
    public static func resizeBilinear(_ image: ImageBuffer, width: Int, height: Int) -> ImageBuffer {
        let w = max(width, 1), h = max(height, 1)
        if w == image.width && h == image.height { return image }
        var out = [UInt8](repeating: 0, count: w * h * 3)
        out.withUnsafeMutableBufferPointer { dst in
            resize(image, width: w, height: h) { dy, row in
                let base = dy * w * 3
                for i in 0..<(w * 3) { dst[base + i] = row[i] }
            }
        }
        return ImageBuffer(width: w, height: h, pixels: out) ?? image
    }

    /// Letterboxes `image` into a `1 × 3 × H × W` float tensor (RGB, planar, values / 255, padding 114).
    /// - Parameters:
    ///   - image: The source RGB image.
    ///   - geometry: The letterbox geometry for this image and the model's input size.
    ///   - into: Destination buffer of `3 × targetHeight × targetWidth` floats; resized if needed.
    public static func tensor(_ image: ImageBuffer, geometry g: LetterboxGeometry, into buffer: inout [Float]) {
        let tw = g.targetWidth, th = g.targetHeight, plane = tw * th
        let pad = unitTable[114]
        if buffer.count != 3 * plane {
            buffer = [Float](repeating: pad, count: 3 * plane)
        } else {
            buffer.withUnsafeMutableBufferPointer { b in b.update(repeating: pad) }
        }
        let rw = g.resizedWidth, left = g.left, top = g.top
        unitTable.withUnsafeBufferPointer { table in
            buffer.withUnsafeMutableBufferPointer { dstRef in
                let dst = dstRef  // a pointer value the row closure may capture
                let emit: (Int, UnsafeBufferPointer<UInt8>) -> Void = { dy, row in
                    let y = top + dy
                    guard y >= 0, y < th else { return }
                    var o = y * tw + left
                    var i = 0
                    for _ in 0..<rw {
                        dst[o] = table[Int(row[i])]
                        dst[plane + o] = table[Int(row[i + 1])]
                        dst[2 * plane + o] = table[Int(row[i + 2])]
                        o += 1; i += 3
                    }
                }
                if rw == image.width && g.resizedHeight == image.height {
                    image.pixels.withUnsafeBufferPointer { src in
                        for dy in 0..<image.height {
                            emit(dy, UnsafeBufferPointer(rebasing: src[(dy * rw * 3)..<((dy + 1) * rw * 3)]))
                        }
                    }
                } else {
                    resize(image, width: rw, height: g.resizedHeight, row: emit)
                }
            }
        }
    }

    /// `v / 255` in float32 for every byte (exactly what `tensor.float() / 255` gives).
    static let unitTable: [Float] = (0..<256).map { Float($0) / 255 }

    /// Core of the resize: calls `row(dy, bytes)` with each finished output row (RGB interleaved).
    static func resize(_ image: ImageBuffer, width w: Int, height h: Int,
                       row: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        let sw = image.width, sh = image.height
        let xt = taps(source: sw, destination: w, clampWeights: true)
        let yt = taps(source: sh, destination: h, clampWeights: false)
        // Horizontal pass results for two source rows, cached by source row index.
        var rowA = [Int32](repeating: 0, count: w * 3), rowB = [Int32](repeating: 0, count: w * 3)
        var idxA = -1, idxB = -1
        var outRow = [UInt8](repeating: 0, count: w * 3)
        image.pixels.withUnsafeBufferPointer { src in
            func horizontal(_ sy: Int, into buf: inout [Int32]) {
                let base = sy * sw * 3
                buf.withUnsafeMutableBufferPointer { b in
                    for dx in 0..<w {
                        let s0 = base + Int(xt.index0[dx]) * 3, s1 = base + Int(xt.index1[dx]) * 3
                        let a0 = xt.weight0[dx], a1 = xt.weight1[dx]
                        b[dx * 3] = Int32(src[s0]) * a0 + Int32(src[s1]) * a1
                        b[dx * 3 + 1] = Int32(src[s0 + 1]) * a0 + Int32(src[s1 + 1]) * a1
                        b[dx * 3 + 2] = Int32(src[s0 + 2]) * a0 + Int32(src[s1 + 2]) * a1
                    }
                }
            }
            for dy in 0..<h {
                let sy0 = Int(yt.index0[dy]), sy1 = Int(yt.index1[dy])
                if idxA != sy0 {
                    if idxB == sy0 { swap(&rowA, &rowB); swap(&idxA, &idxB) } else { horizontal(sy0, into: &rowA); idxA = sy0 }
                }
                if idxB != sy1 { horizontal(sy1, into: &rowB); idxB = sy1 }
                let b0 = yt.weight0[dy], b1 = yt.weight1[dy]
                rowA.withUnsafeBufferPointer { r0 in
                    rowB.withUnsafeBufferPointer { r1 in
                        outRow.withUnsafeMutableBufferPointer { o in
                            // OpenCV's SIMD vertical step: ((S0>>4)·b0 >> 16) + ((S1>>4)·b1 >> 16), then (+2) >> 2.
                            for i in 0..<(w * 3) {
                                let v = (((r0[i] >> 4) &* b0) >> 16) &+ (((r1[i] >> 4) &* b1) >> 16)
                                o[i] = UInt8(clamping: (v &+ 2) >> 2)
                            }
                        }
                    }
                }
                outRow.withUnsafeBufferPointer { row(dy, $0) }
            }
        }
    }
}
