import SwingCore

/// A constant-velocity Kalman filter on a box's centre, aspect ratio and height — ByteTrack's motion model
/// (Ultralytics' `KalmanFilterXYAH`).
///
/// The state is `(cx, cy, a, h, vcx, vcy, va, vh)` with `a = width / height`; one ``predict(_:)`` is one frame.
/// Process and measurement noise scale with the box height, so a near (tall) object may move more pixels per
/// frame than a far one for the same uncertainty. The aspect ratio gets a tiny, fixed noise: boxes keep their shape.
struct KalmanBoxFilter: Sendable, Equatable {
    /// Standard deviation of the position per frame, as a fraction of the box height (Ultralytics: 1/20).
    var positionWeight: Double
    /// Standard deviation of the velocity per frame, as a fraction of the box height (Ultralytics: 1/160).
    var velocityWeight: Double

    /// Mean (8) and covariance (8×8, row-major) of one track.
    struct State: Sendable, Equatable {
        var mean: [Double]
        var covariance: [Double]

        /// The box the mean describes (pixels); the aspect ratio times the height gives the width.
        var box: Rect {
            let w = mean[2] * mean[3], h = mean[3]
            return Rect(cx: mean[0], cy: mean[1], w: w, h: h)
        }

        var isFinite: Bool { mean.allSatisfy(\.isFinite) && covariance.allSatisfy(\.isFinite) }
    }

    /// The measurement `(cx, cy, a, h)` of a box; the caller ensures a positive height.
    static func measurement(_ box: Rect) -> [Double] {
        let w = box.x2 - box.x1, h = box.y2 - box.y1
        return [(box.x1 + box.x2) / 2, (box.y1 + box.y2) / 2, w / h, h]
    }

    /// A new track's state: the measured box, zero velocity, and an uncertainty that scales with its height.
    func initiate(_ z: [Double]) -> State {
        let h = z[3]
        let std = [2 * positionWeight * h, 2 * positionWeight * h, 1e-2, 2 * positionWeight * h,
                   10 * velocityWeight * h, 10 * velocityWeight * h, 1e-5, 10 * velocityWeight * h]
        var p = [Double](repeating: 0, count: 64)
        for i in 0..<8 { p[i * 9] = std[i] * std[i] }
        return State(mean: z + [0, 0, 0, 0], covariance: p)
    }

    /// One frame ahead: `x ← F x`, `P ← F P Fᵀ + Q` with `F = [[I, I], [0, I]]`.
    func predict(_ s: inout State) {
        let h = s.mean[3]
        let qp = positionWeight * h, qv = velocityWeight * h
        let q = [qp * qp, qp * qp, 1e-4, qp * qp, qv * qv, qv * qv, 1e-10, qv * qv]
        for i in 0..<4 { s.mean[i] += s.mean[i + 4] }
        // (F P): row i gains row i+4 for the position rows; then (F P) Fᵀ: column j gains column j+4.
        var fp = s.covariance
        for i in 0..<4 { for j in 0..<8 { fp[i * 8 + j] += s.covariance[(i + 4) * 8 + j] } }
        var out = fp
        for i in 0..<8 { for j in 0..<4 { out[i * 8 + j] += fp[i * 8 + j + 4] } }
        for i in 0..<8 { out[i * 9] += q[i] }
        s.covariance = out
    }

    /// Corrects `s` with a measured box `z = (cx, cy, a, h)`.
    /// - Returns: `false` (and leaves `s` unchanged) when the innovation covariance cannot be inverted.
    @discardableResult
    func update(_ s: inout State, with z: [Double]) -> Bool {
        let r = positionWeight * s.mean[3]
        let noise = [r * r, r * r, 1e-2, r * r]
        // S = H P Hᵀ + R (the top-left 4×4 block plus measurement noise); PHᵀ = the first four columns of P.
        var sMatrix = [Double](repeating: 0, count: 16)
        for i in 0..<4 { for j in 0..<4 { sMatrix[i * 4 + j] = s.covariance[i * 8 + j] } }
        for i in 0..<4 { sMatrix[i * 5] += noise[i] }
        // K = P Hᵀ S⁻¹: solve S Xᵀ = (P Hᵀ)ᵀ for the 4×8 matrix Xᵀ (S is symmetric).
        var rhs = [Double](repeating: 0, count: 32)
        for i in 0..<4 { for j in 0..<8 { rhs[i * 8 + j] = s.covariance[j * 8 + i] } }
        guard Self.solve4(&sMatrix, &rhs, columns: 8) else { return false }
        // rhs now holds Kᵀ (4×8): K[j][i] = rhs[i * 8 + j].
        var innovation = [Double](repeating: 0, count: 4)
        for i in 0..<4 { innovation[i] = z[i] - s.mean[i] }
        var mean = s.mean
        for j in 0..<8 {
            var d = 0.0
            for i in 0..<4 { d += rhs[i * 8 + j] * innovation[i] }
            mean[j] += d
        }
        // P ← P − K S Kᵀ = P − K (P Hᵀ)ᵀ.
        var p = s.covariance
        for a in 0..<8 {
            for b in 0..<8 {
                var d = 0.0
                for i in 0..<4 { d += rhs[i * 8 + a] * s.covariance[b * 8 + i] }
                p[a * 8 + b] -= d
            }
        }
        s.mean = mean
        s.covariance = p
        return true
    }

    /// Solves `A X = B` in place for a 4×4 `A` and a 4×`columns` `B` (Gaussian elimination, partial pivoting).
    /// - Returns: `false` when `A` is singular (a pivot is not a positive finite number above 1e-300).
    static func solve4(_ a: inout [Double], _ b: inout [Double], columns: Int) -> Bool {
        for col in 0..<4 {
            var pivot = col
            for r in (col + 1)..<4 where abs(a[r * 4 + col]) > abs(a[pivot * 4 + col]) { pivot = r }
            let pv = a[pivot * 4 + col]
            guard pv.isFinite, abs(pv) > 1e-300 else { return false }
            if pivot != col {
                for k in 0..<4 { a.swapAt(col * 4 + k, pivot * 4 + k) }
                for k in 0..<columns { b.swapAt(col * columns + k, pivot * columns + k) }
            }
            for r in 0..<4 where r != col {
                let f = a[r * 4 + col] / pv
                guard f != 0 else { continue }
                for k in col..<4 { a[r * 4 + k] -= f * a[col * 4 + k] }
                for k in 0..<columns { b[r * columns + k] -= f * b[col * columns + k] }
            }
        }
        for r in 0..<4 {
            let d = a[r * 4 + r]
            for k in 0..<columns { b[r * columns + k] /= d }
        }
        return true
    }
}
