/// An 8-bit RGB image, interleaved (`RGBRGB…`), rows top to bottom, no padding.
package struct ImageBuffer: Sendable, Equatable {
    package let width: Int
    package let height: Int
    /// `width × height × 3` bytes.
    package var pixels: [UInt8]

    /// Creates an image; `pixels` must hold exactly `width × height × 3` bytes.
    package init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, pixels.count == width * height * 3 else { return nil }
        self.width = width; self.height = height; self.pixels = pixels
    }

    /// A solid-colour image.
    package init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8) = (0, 0, 0)) {
        self.width = max(width, 1); self.height = max(height, 1)
        var p = [UInt8](repeating: 0, count: self.width * self.height * 3)
        for i in stride(from: 0, to: p.count, by: 3) { p[i] = fill.0; p[i + 1] = fill.1; p[i + 2] = fill.2 }
        self.pixels = p
    }
}
