import Foundation

/// The 5-frame Gaussian display smoothing of the swing arc.
///
/// Weights w_k = exp(−k² / 2σ²) for k = −(taps/2)…taps/2 (σ = 1 frame by default: 0.054, 0.244, 0.403,
/// 0.244, 0.054 after normalising). Near the ends the taps that fall outside the sequence are dropped
/// and the remaining weights renormalised, so a constant stays constant and the arc keeps its endpoints'
/// neighbourhood instead of being pulled toward zero. Neighbours are by frame, not by time.
package enum GaussianSmoother {
    /// Smooths `values` with an odd-length Gaussian kernel.
    /// - Parameters:
    ///   - values: The sequence (one value per frame).
    ///   - taps: Kernel length (odd, ≥ 1; even values are rounded up).
    ///   - sigma: Standard deviation in frames (> 0).
    package static func smooth(_ values: [Double], taps: Int = 5, sigma: Double = 1.0) -> [Double] {
        let half = max(taps, 1) / 2
        guard half > 0, sigma > 0, values.count > 1 else { return values }
        let weights = (-half...half).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        return values.indices.map { i in
            var sum = 0.0, norm = 0.0
            for k in -half...half {
                let j = i + k
                guard j >= 0, j < values.count else { continue }
                let w = weights[k + half]
                sum += w * values[j]
                norm += w
            }
            return sum / norm
        }
    }
}
