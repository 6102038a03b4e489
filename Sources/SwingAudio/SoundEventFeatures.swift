import Foundation

extension SoundEvents {
    /// The features of the events at samples `index` (sorted, each at least 0.15 s from the start and
    /// 0.1 s from the end), from the broadband signal `wide[wideRange]` (freed once read) and each octave
    /// band filtered in turn into `work`. `ratios` are each event's three envelope ratios.
    static func features(_ x: UnsafeBufferPointer<Float>, _ fs: Double, index: [Int], wide: inout [Float],
                         wideRange: Range<Int>, work: inout [Float], ratios: [[Float]]) -> [SoundEvent] {
        var sums = WindowSums()
        func meanSquare(_ y: UnsafeBufferPointer<Float>, _ i: Int, _ w: (Double, Double)) -> Double {
            Self.meanSquare(sums, y, i, w, fs)
        }
        // The high-passed samples' peak and the broadband event, each over its background.
        let broadband: [(peak: Double, event: Double)] = wide.withUnsafeBufferPointer { w in
            let y = UnsafeBufferPointer(rebasing: w[wideRange])
            sums.load(y, peaks: true)
            return index.map { i in
                let ev = (i + Int(-0.012 * fs))..<(i + Int(0.020 * fs)), bg = (i + Int(-0.130 * fs))..<(i + Int(-0.030 * fs))
                let peak = 20 * log10((Double(sums.peak(y, ev.lowerBound, ev.upperBound)) + 1e-12)
                                      / (Double(sums.peak(y, bg.lowerBound, bg.upperBound)) + 1e-12))
                return (peak, 10 * log10(meanSquare(y, i, event) / meanSquare(y, i, background)))
            }
        }
        wide = []

        var rows = [[Double]](repeating: [], count: index.count)
        var levels = [[Double]](repeating: [], count: index.count)
        for b in bands {
            let r = bandPass(x, bandFilter(fs, b.low, b.high, order: 4), into: &work)
            work.withUnsafeBufferPointer { w in
                let y = UnsafeBufferPointer(rebasing: w[r])
                sums.load(y, peaks: false)
                // Each event's four windows (event, attack, after, background) are its own: the events
                // are shared between threads.
                let loaded = sums, windows = [event, attack, after, background]
                var ms = [Double](repeating: 0, count: 4 * index.count)
                ms.withUnsafeMutableBufferPointer { out in
                    let target = SendableBuffer(out), source = SendableBuffer(UnsafeMutableBufferPointer(mutating: y))
                    Split.ranges(index.count, pieces: index.count >= 256 ? Split.pieces : 1) { r in
                        for k in r {
                            for (j, w) in windows.enumerated() {
                                target.buffer[4 * k + j] = Self.meanSquare(loaded, UnsafeBufferPointer(source.buffer), index[k], w, fs)
                            }
                        }
                    }
                }
                for k in index.indices {
                    let ev = ms[4 * k], bg = ms[4 * k + 3]
                    rows[k] += [10 * log10(ev / bg), 10 * log10(ms[4 * k + 1] / bg), 10 * log10(ms[4 * k + 2] / bg)]
                    levels[k].append(10 * log10(ev))
                }
            }
        }
        for k in index.indices {
            let loudest = levels[k].max() ?? 0
            rows[k] += levels[k].map { $0 - loudest }
            rows[k] += [broadband[k].peak, broadband[k].event]
            rows[k] += ratios[k].map { log(Double($0) + 1e-6) }
        }
        // The recording's own ranking of its events (ties by time), 0 = lowest, 1 = highest.
        let wideContrast = 4 * bands.count + 1, wideRatio = 4 * bands.count + 4
        for column in [wideContrast, wideRatio] {
            let order = rows.indices.sorted { (rows[$0][column], $0) < (rows[$1][column], $1) }
            var rank = [Double](repeating: 0, count: rows.count)
            for (r, k) in order.enumerated() { rank[k] = Double(r) / Double(max(1, rows.count - 1)) }
            for k in rows.indices { rows[k].append(rank[k]) }
        }
        return zip(index, rows).map { i, row in
            SoundEvent(time: Double(i) / fs, features: row.map { $0.isFinite ? Float($0) : 0 })
        }
    }

    /// Mean square of `y` over the window `w` (ms) around sample `i`, plus 1e-20 (so a silent band is 0 dB).
    static func meanSquare(_ sums: WindowSums, _ y: UnsafeBufferPointer<Float>, _ i: Int, _ w: (Double, Double),
                           _ fs: Double) -> Double {
        let a = i + Int(w.0 / 1000 * fs), b = i + Int(w.1 / 1000 * fs)
        return sums.sumOfSquares(y, a, b) / Double(b - a) + 1e-20
    }
}
