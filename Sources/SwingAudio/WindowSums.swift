/// Sums of squares and peaks of one long signal over many short windows (``SoundEvents``' features: four
/// windows per event in eight bands, twelve thousand events in a busy 10-minute recording).
///
/// Summing every window sample by sample cost as much as filtering the bands; here each window adds at
/// most 31 samples at each end, 15 blocks of 32 at each end and its 512-sample blocks between. Every term
/// is a square, so no order of adding them can cancel: the sum equals the sample-by-sample one to a few
/// parts in 10¹⁶ (`WindowSumsTests`). Peaks are maxima, exact in any order.
struct WindowSums {
    static let fine = 32, coarse = 512
    private var fineSums: [Double] = [], coarseSums: [Double] = []
    private var finePeaks: [Float] = [], coarsePeaks: [Float] = []

    /// Measures `y`'s blocks (and their peaks when `peaks`); the arrays are reused from the last call.
    mutating func load(_ y: UnsafeBufferPointer<Float>, peaks: Bool) {
        let f = y.count / Self.fine, per = Self.coarse / Self.fine
        Self.resize(&fineSums, f)
        Self.resize(&finePeaks, peaks ? f : 0)
        fineSums.withUnsafeMutableBufferPointer { sums in
            finePeaks.withUnsafeMutableBufferPointer { tops in
                let s = SendableBuffer(sums), t = SendableBuffer(tops)
                let source = SendableBuffer(UnsafeMutableBufferPointer(mutating: y))
                Split.ranges(f, pieces: f >= 4096 ? Split.pieces : 1) { r in
                    for b in r { Self.block(source.buffer, b, s.buffer, peaks ? t.buffer : nil) }
                }
            }
        }
        coarseSums = stride(from: 0, to: f - per + 1, by: per).map { start in
            var s = 0.0
            for b in start..<(start + per) { s += fineSums[b] }
            return s
        }
        coarsePeaks = peaks ? stride(from: 0, to: f - per + 1, by: per).map { start in
            finePeaks[start..<(start + per)].max() ?? 0
        } : []
    }

    private static func resize<T: Numeric>(_ a: inout [T], _ count: Int) {
        if a.count != count { a = [T](repeating: 0, count: count) }
    }

    /// Block `b`'s sum of squares (four running sums the CPU can overlap, added in a fixed order) and peak.
    private static func block(_ y: UnsafeMutableBufferPointer<Float>, _ b: Int, _ sums: UnsafeMutableBufferPointer<Double>,
                              _ peaks: UnsafeMutableBufferPointer<Float>?) {
        let start = b * fine
        var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0
        var j = start
        while j < start + fine {
            let a = Double(y[j]), c = Double(y[j + 1]), d = Double(y[j + 2]), e = Double(y[j + 3])
            s0 += a * a; s1 += c * c; s2 += d * d; s3 += e * e
            j += 4
        }
        sums[b] = (s0 + s1) + (s2 + s3)
        if let peaks {
            var m: Float = 0
            for j in start..<(start + fine) { m = max(m, abs(y[j])) }
            peaks[b] = m
        }
    }

    /// Σ y[j]² for j in a..<b (`y` the signal last loaded; 0 ≤ a ≤ b ≤ y.count).
    func sumOfSquares(_ y: UnsafeBufferPointer<Float>, _ a: Int, _ b: Int) -> Double {
        var s = 0.0, j = a
        let f = Self.fine, c = Self.coarse
        while j < b, j % f != 0 { s += Double(y[j]) * Double(y[j]); j += 1 }
        while j + f <= b, j % c != 0 { s += fineSums[j / f]; j += f }
        while j + c <= b { s += coarseSums[j / c]; j += c }
        while j + f <= b { s += fineSums[j / f]; j += f }
        while j < b { s += Double(y[j]) * Double(y[j]); j += 1 }
        return s
    }

    /// max |y[j]| for j in a..<b, 0 for an empty range (the signal last loaded with `peaks`).
    func peak(_ y: UnsafeBufferPointer<Float>, _ a: Int, _ b: Int) -> Float {
        var m: Float = 0, j = a
        let f = Self.fine, c = Self.coarse
        while j < b, j % f != 0 { m = max(m, abs(y[j])); j += 1 }
        while j + f <= b, j % c != 0 { m = max(m, finePeaks[j / f]); j += f }
        while j + c <= b { m = max(m, coarsePeaks[j / c]); j += c }
        while j + f <= b { m = max(m, finePeaks[j / f]); j += f }
        while j < b { m = max(m, abs(y[j])); j += 1 }
        return m
    }
}
