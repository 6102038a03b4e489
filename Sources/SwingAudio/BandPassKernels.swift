/// ``LaneKernel``s for Butterworth band-pass sections, `b = b0·[1, 0, −1]`.
///
/// ``GeneralQuad`` computes `s_a ← b1·x − a1·y + s_b` and `s_b ← b2·x − a2·y`. With `b1 = 0` the first
/// product is ±0 and `±0 − p + s_b` is `s_b − p` exactly; with `b2 = −b0`, `b2·x` is `−(b0·x)` exactly and
/// `−m − p` is `−(m + p)` exactly (round-to-nearest is symmetric). So these kernels give the same Float
/// values (at most the sign of a zero differs) with 6 operations per section instead of 9. They keep the
/// states negated, `v = −s_a` and `u = −s_b`, so no negation is left: `y = m − v`, `v ← u + a1·y`,
/// `u ← m + a2·y` (negation is exact). Identity sections padding a pair to four add ±0: the pair kernel
/// leaves them out.
struct BandPassQuad: LaneKernel {
    typealias V = LaneFilter.V
    private let b0: V, a10: V, a20: V, b1: V, a11: V, a21: V, b2: V, a12: V, a22: V, b3: V, a13: V, a23: V
    private var v0 = V.zero, u0 = V.zero, v1 = V.zero, u1 = V.zero
    private var v2 = V.zero, u2 = V.zero, v3 = V.zero, u3 = V.zero

    init(_ s: [Biquad]) {
        func v(_ x: Double) -> V { V(repeating: Float(x)) }
        (b0, a10, a20) = (v(s[0].b0), v(s[0].a1), v(s[0].a2))
        (b1, a11, a21) = (v(s[1].b0), v(s[1].a1), v(s[1].a2))
        (b2, a12, a22) = (v(s[2].b0), v(s[2].a1), v(s[2].a2))
        (b3, a13, a23) = (v(s[3].b0), v(s[3].a1), v(s[3].a2))
    }

    mutating func seed(_ initial: [(Double, Double)]) {
        func seed(_ k: Int, _ v: inout V, _ u: inout V) {
            if k < initial.count { v[0] = -Float(initial[k].0); u[0] = -Float(initial[k].1) }
        }
        seed(0, &v0, &u0); seed(1, &v1, &u1); seed(2, &v2, &u2); seed(3, &v3, &u3)
    }

    @inline(__always)
    mutating func step(_ x: V) -> V {
        let m0 = b0 * x, y0 = m0 - v0
        v0 = u0 + a10 * y0
        u0 = m0 + a20 * y0
        let m1 = b1 * y0, y1 = m1 - v1
        v1 = u1 + a11 * y1
        u1 = m1 + a21 * y1
        let m2 = b2 * y1, y2 = m2 - v2
        v2 = u2 + a12 * y2
        u2 = m2 + a22 * y2
        let m3 = b3 * y2, y3 = m3 - v3
        v3 = u3 + a13 * y3
        u3 = m3 + a23 * y3
        return y3
    }
}

/// Two band-pass sections (an order-2 Butterworth band-pass).
struct BandPassPair: LaneKernel {
    typealias V = LaneFilter.V
    private let b0: V, a10: V, a20: V, b1: V, a11: V, a21: V
    private var v0 = V.zero, u0 = V.zero, v1 = V.zero, u1 = V.zero

    init(_ s: [Biquad]) {
        func v(_ x: Double) -> V { V(repeating: Float(x)) }
        (b0, a10, a20) = (v(s[0].b0), v(s[0].a1), v(s[0].a2))
        (b1, a11, a21) = (v(s[1].b0), v(s[1].a1), v(s[1].a2))
    }

    mutating func seed(_ initial: [(Double, Double)]) {
        func seed(_ k: Int, _ v: inout V, _ u: inout V) {
            if k < initial.count { v[0] = -Float(initial[k].0); u[0] = -Float(initial[k].1) }
        }
        seed(0, &v0, &u0); seed(1, &v1, &u1)
    }

    @inline(__always)
    mutating func step(_ x: V) -> V {
        let m0 = b0 * x, y0 = m0 - v0
        v0 = u0 + a10 * y0
        u0 = m0 + a20 * y0
        let m1 = b1 * y0, y1 = m1 - v1
        v1 = u1 + a11 * y1
        u1 = m1 + a21 * y1
        return y1
    }
}
