import SwingCore

/// Instance masks from prototype masks, as Ultralytics' `process_mask(upsample=True)` + `scale_masks` do:
/// coefficients × prototypes → bilinear upsample to the model input (PyTorch `align_corners=False`) →
/// logit > 0 → crop to the box → remove the letterbox padding → bilinear resize to the original image → > 0.5.
///
/// Only the pixels near each box are computed: everything outside the box is zero by construction.
struct MaskDecoder {
    let protos: RawTensor
    let g: LetterboxGeometry
    let channels: Int, mh: Int, mw: Int

    init(protos: RawTensor, letterbox: LetterboxGeometry) {
        self.protos = protos; self.g = letterbox
        channels = protos.shape[1]; mh = protos.shape[2]; mw = protos.shape[3]
    }

    /// PyTorch's bilinear source index: `max(scale·(d + 0.5) − 0.5, 0)` in float32, split into taps.
    @inline(__always)
    static func source(_ d: Int, scale: Float, size: Int) -> (Int, Int, Float) {
        let s = max(scale * (Float(d) + 0.5) - 0.5, 0)
        let i0 = min(Int(s), size - 1)
        let i1 = min(i0 + 1, size - 1)
        return (i0, i1, s - Float(i0))
    }

    /// The mask at original-image size, or `nil` when it is empty inside the box.
    func mask(coefficients: [Float], box: Rect) -> BinaryMask? {
        let inW = g.targetWidth, inH = g.targetHeight
        // Input pixels kept by crop_mask: column r with x1 ≤ r < x2 (same for rows).
        let c0 = max(Int((box.x1).rounded(.up)), 0), c1 = min(Int((box.x2).rounded(.up)), inW)
        let r0 = max(Int((box.y1).rounded(.up)), 0), r1 = min(Int((box.y2).rounded(.up)), inH)
        guard c1 > c0, r1 > r0, coefficients.count >= channels else { return nil }
        let sx = Float(mw) / Float(inW), sy = Float(mh) / Float(inH)
        let xs = (c0..<c1).map { Self.source($0, scale: sx, size: mw) }
        let ys = (r0..<r1).map { Self.source($0, scale: sy, size: mh) }
        // Prototype logits, only over the prototype rows/columns the box samples.
        let px0 = xs.first?.0 ?? 0, px1 = xs.last?.1 ?? 0, py0 = ys.first?.0 ?? 0, py1 = ys.last?.1 ?? 0
        let lw = px1 - px0 + 1, lh = py1 - py0 + 1
        var logits = [Float](repeating: 0, count: lw * lh)
        protos.data.withUnsafeBufferPointer { p in
            logits.withUnsafeMutableBufferPointer { l in
                for k in 0..<channels {
                    let ck = coefficients[k], plane = k * mh * mw
                    for y in 0..<lh {
                        let src = plane + (py0 + y) * mw + px0, dst = y * lw
                        for x in 0..<lw { l[dst + x] += ck * p[src + x] }
                    }
                }
            }
        }
        // Binary mask at input resolution over the box region.
        let bw = c1 - c0, bh = r1 - r0
        var bin = [UInt8](repeating: 0, count: bw * bh)
        var any = false
        for (yi, (y0, y1, ly)) in ys.enumerated() {
            let a = (y0 - py0) * lw, b = (y1 - py0) * lw
            for (xi, (x0, x1, lx)) in xs.enumerated() {
                let u0 = x0 - px0, u1 = x1 - px0
                let top = (1 - lx) * logits[a + u0] + lx * logits[a + u1]
                let bottom = (1 - lx) * logits[b + u0] + lx * logits[b + u1]
                if (1 - ly) * top + ly * bottom > 0 { bin[yi * bw + xi] = 1; any = true }
            }
        }
        guard any else { return nil }
        return scaled(bin, c0: c0, r0: r0, bw: bw, bh: bh)
    }

    /// `scale_masks`: crop the letterbox content and resize bilinearly to the original size, threshold 0.5.
    func scaled(_ bin: [UInt8], c0: Int, r0: Int, bw: Int, bh: Int) -> BinaryMask {
        let w0 = g.sourceWidth, h0 = g.sourceHeight, rw = g.resizedWidth, rh = g.resizedHeight
        var data = [UInt8](repeating: 0, count: w0 * h0)
        let sx = Float(rw) / Float(w0), sy = Float(rh) / Float(h0)
        // Box region in crop coordinates, and the output range whose taps can reach it.
        let bx0 = c0 - g.left, by0 = r0 - g.top
        func outRange(_ lo: Int, _ hi: Int, scale: Float, size: Int) -> Range<Int> {
            let a = Int(((Float(lo) - 1) / scale).rounded(.down)) - 1
            let b = Int(((Float(hi) + 1) / scale).rounded(.up)) + 1
            let upper = min(max(b, 0), size)
            return min(max(a, 0), upper)..<upper
        }
        @inline(__always) func value(_ x: Int, _ y: Int) -> Float {
            let u = x - bx0, v = y - by0
            guard u >= 0, u < bw, v >= 0, v < bh else { return 0 }
            return Float(bin[v * bw + u])
        }
        let xr = outRange(bx0, bx0 + bw, scale: sx, size: w0), yr = outRange(by0, by0 + bh, scale: sy, size: h0)
        let xt = xr.map { Self.source($0, scale: sx, size: rw) }
        for oy in yr {
            let (y0, y1, ly) = Self.source(oy, scale: sy, size: rh)
            for (k, ox) in xr.enumerated() {
                let (x0, x1, lx) = xt[k]
                let top = (1 - lx) * value(x0, y0) + lx * value(x1, y0)
                let bottom = (1 - lx) * value(x0, y1) + lx * value(x1, y1)
                if (1 - ly) * top + ly * bottom > 0.5 { data[oy * w0 + ox] = 1 }
            }
        }
        return BinaryMask(width: w0, height: h0, data: data)
    }
}
