/// Pre-processing for fixed-size YOLO *classification* inputs, like Ultralytics' `classify_transforms` for ONNX
/// models: torchvision `Resize(size)` on a PIL image (shorter side to `size`, bilinear with antialiasing as
/// Pillow does it), `CenterCrop(size)`, then RGB planar / 255 (mean 0, std 1).
package enum ClassifyTransform {
    /// The size of the resized image before cropping (torchvision: short side = `size`, long side truncated).
    package static func resizedSize(width: Int, height: Int, targetWidth: Int, targetHeight: Int) -> (width: Int, height: Int) {
        guard targetWidth == targetHeight else { return (targetWidth, targetHeight) }
        let s = targetWidth
        if width <= height {
            return (s, max(Int(Double(s) * Double(height) / Double(width)), 1))
        }
        return (max(Int(Double(s) * Double(width) / Double(height)), 1), s)
    }

    /// Produces the `3 × targetHeight × targetWidth` float tensor for a classification model.
    package static func tensor(_ image: ImageBuffer, targetWidth: Int, targetHeight: Int) -> [Float] {
        let (rw, rh) = resizedSize(width: image.width, height: image.height,
                                   targetWidth: targetWidth, targetHeight: targetHeight)
        let resized = resizePillowBilinear(image, width: rw, height: rh)
        // torchvision CenterCrop: offsets int(round((size - crop) / 2)) with Python's half-to-even round.
        let top = pythonRound(Double(rh - targetHeight) / 2), left = pythonRound(Double(rw - targetWidth) / 2)
        let plane = targetWidth * targetHeight
        var out = [Float](repeating: 0, count: 3 * plane)
        let table = Letterbox.unitTable
        for y in 0..<targetHeight {
            let sy = y + top
            guard sy >= 0, sy < rh else { continue }
            for x in 0..<targetWidth {
                let sx = x + left
                guard sx >= 0, sx < rw else { continue }
                let i = (sy * rw + sx) * 3, o = y * targetWidth + x
                out[o] = table[Int(resized.pixels[i])]
                out[plane + o] = table[Int(resized.pixels[i + 1])]
                out[2 * plane + o] = table[Int(resized.pixels[i + 2])]
            }
        }
        return out
    }

    /// Pillow's `Image.resize(size, BILINEAR)` for 8-bit RGB: a separable triangle filter whose support grows
    /// with the downscale factor (antialiasing), 22-bit fixed-point weights, horizontal pass first with an
    /// 8-bit intermediate image.
    package static func resizePillowBilinear(_ image: ImageBuffer, width: Int, height: Int) -> ImageBuffer {
        var img = image
        if width != img.width { img = pass(img, outSize: width, horizontal: true) }
        if height != img.height { img = pass(img, outSize: height, horizontal: false) }
        return img
    }

    static let precisionBits = 22

    static func coefficients(inSize: Int, outSize: Int) -> (starts: [Int], weights: [[Int]]) {
        let scale = Double(inSize) / Double(outSize)
        let filterScale = max(scale, 1)
        let support = 1.0 * filterScale
        var starts: [Int] = [], weights: [[Int]] = []
        for xx in 0..<outSize {
            let center = (Double(xx) + 0.5) * scale
            let ss = 1 / filterScale
            let xmin = max(Int(center - support + 0.5), 0)  // C truncation, as Pillow
            let xmax = min(Int(center + support + 0.5), inSize) - xmin
            var k = [Double](repeating: 0, count: max(xmax, 0))
            var total = 0.0
            for x in 0..<max(xmax, 0) {
                let t = abs((Double(x + xmin) - center + 0.5) * ss)
                let w = t < 1 ? 1 - t : 0
                k[x] = w; total += w
            }
            let unit = Double(1 << precisionBits)
            starts.append(xmin)
            weights.append(k.map { v in
                let n = total != 0 ? v / total : v
                return n < 0 ? Int(-0.5 + n * unit) : Int(0.5 + n * unit)
            })
        }
        return (starts, weights)
    }

    static func pass(_ img: ImageBuffer, outSize: Int, horizontal: Bool) -> ImageBuffer {
        let inSize = horizontal ? img.width : img.height
        let (starts, weights) = coefficients(inSize: inSize, outSize: outSize)
        let ow = horizontal ? outSize : img.width, oh = horizontal ? img.height : outSize
        var out = [UInt8](repeating: 0, count: ow * oh * 3)
        let half = 1 << (precisionBits - 1)
        img.pixels.withUnsafeBufferPointer { src in
            for y in 0..<oh {
                for x in 0..<ow {
                    let o = horizontal ? x : y
                    let ws = weights[o], s0 = starts[o]
                    for c in 0..<3 {
                        var acc = half
                        for (k, w) in ws.enumerated() {
                            let i = horizontal ? ((y * img.width + s0 + k) * 3 + c) : (((s0 + k) * img.width + x) * 3 + c)
                            acc += Int(src[i]) * w
                        }
                        out[(y * ow + x) * 3 + c] = UInt8(clamping: acc >> precisionBits)
                    }
                }
            }
        }
        return ImageBuffer(width: ow, height: oh, pixels: out) ?? img
    }
}
