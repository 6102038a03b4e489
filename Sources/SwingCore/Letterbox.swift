/// Pre-processing for fixed-size YOLO inputs: letterbox an RGB image into a planar float tensor.
///
/// The resize reproduces OpenCV's `cv2.resize(..., INTER_LINEAR)` for 8-bit images, which Ultralytics uses:
/// half-pixel centres, edge clamping, 11-bit fixed-point coefficients and the same integer rounding, so the
/// model sees the same pixels as in Python (and boxes agree to well under a pixel).
package enum Letterbox {
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
    package static func resizeBilinear(_ image: ImageBuffer, width: Int, height: Int) -> ImageBuffer {
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
    package static func tensor(_ image: ImageBuffer, geometry g: LetterboxGeometry, into buffer: inout [Float]) {
        let tw = g.targetWidth, th = g.targetHeight, plane = tw * th
        let pad = unitTable[114]
        if buffer.count != 3 * plane { buffer = [Float](repeating: pad, count: 3 * plane) }
        // Only the padding needs the fill value: the content rectangle is overwritten below.
        buffer.withUnsafeMutableBufferPointer { b in
            guard let p = b.baseAddress else { return }
            let x0 = max(g.left, 0), x1 = min(g.left + g.resizedWidth, tw)
            let y0 = max(g.top, 0), y1 = min(g.top + g.resizedHeight, th)
            for c in 0..<3 {
                let q = p + c * plane
                q.update(repeating: pad, count: y0 * tw)
                (q + y1 * tw).update(repeating: pad, count: (th - y1) * tw)
                for y in y0..<max(y1, y0) {
                    (q + y * tw).update(repeating: pad, count: x0)
                    (q + y * tw + x1).update(repeating: pad, count: tw - x1)
                }
            }
        }
        let rw = g.resizedWidth, left = g.left, top = g.top
        unitTable.withUnsafeBufferPointer { table in
            buffer.withUnsafeMutableBufferPointer { dstRef in
                let dst = dstRef  // a pointer value the row closure may capture
                guard let base = dst.baseAddress, let lut = table.baseAddress else { return }
                let emit: (Int, UnsafeBufferPointer<UInt8>) -> Void = { dy, row in
                    let y = top + dy
                    guard y >= 0, y < th, let r = row.baseAddress, row.count >= rw * 3 else { return }
                    let p0 = base + y * tw + left, p1 = p0 + plane, p2 = p1 + plane
                    for x in 0..<rw {
                        p0[x] = lut[Int(r[3 * x])]
                        p1[x] = lut[Int(r[3 * x + 1])]
                        p2[x] = lut[Int(r[3 * x + 2])]
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
    ///
    /// Hot loop: flat per-byte tap tables and raw pointers (no bounds checks), each source row's horizontal
    /// pass computed once and reused by the (at most two) output rows that need it.
    static func resize(_ image: ImageBuffer, width w: Int, height h: Int,
                       row: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        let sw = image.width, sh = image.height, n = w * 3
        let xt = taps(source: sw, destination: w, clampWeights: true)
        let yt = taps(source: sh, destination: h, clampWeights: false)
        // Per output byte: source byte offsets within a row and the two 11-bit weights.
        let off0 = UnsafeMutablePointer<Int32>.allocate(capacity: n), off1 = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        let wt0 = UnsafeMutablePointer<Int32>.allocate(capacity: n), wt1 = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        var rowA = UnsafeMutablePointer<Int32>.allocate(capacity: n), rowB = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: n)
        defer {
            off0.deallocate(); off1.deallocate(); wt0.deallocate(); wt1.deallocate()
            rowA.deallocate(); rowB.deallocate(); out.deallocate()
        }
        for dx in 0..<w {
            for c in 0..<3 {
                off0[dx * 3 + c] = xt.index0[dx] * 3 + Int32(c); off1[dx * 3 + c] = xt.index1[dx] * 3 + Int32(c)
                wt0[dx * 3 + c] = xt.weight0[dx]; wt1[dx * 3 + c] = xt.weight1[dx]
            }
        }
        var idxA = -1, idxB = -1
        image.pixels.withUnsafeBufferPointer { srcBuf in
            guard let src = srcBuf.baseAddress else { return }
            func horizontal(_ sy: Int, into b: UnsafeMutablePointer<Int32>) {
                let s = src + sy * sw * 3
                for i in 0..<n {
                    b[i] = Int32(s[Int(off0[i])]) &* wt0[i] &+ Int32(s[Int(off1[i])]) &* wt1[i]
                }
            }
            for dy in 0..<h {
                let sy0 = Int(yt.index0[dy]), sy1 = Int(yt.index1[dy])
                if idxA != sy0 {
                    if idxB == sy0 { swap(&rowA, &rowB); swap(&idxA, &idxB) } else { horizontal(sy0, into: rowA); idxA = sy0 }
                }
                if idxB != sy1 { horizontal(sy1, into: rowB); idxB = sy1 }
                let b0 = yt.weight0[dy], b1 = yt.weight1[dy]
                // OpenCV's SIMD vertical step: ((S0>>4)·b0 >> 16) + ((S1>>4)·b1 >> 16), then (+2) >> 2.
                for i in 0..<n {
                    let v = (((rowA[i] >> 4) &* b0) >> 16) &+ (((rowB[i] >> 4) &* b1) >> 16)
                    out[i] = UInt8(clamping: (v &+ 2) >> 2)
                }
                row(dy, UnsafeBufferPointer(start: out, count: n))
            }
        }
    }
}
