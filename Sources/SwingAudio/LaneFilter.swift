/// Four-lane SIMD execution of up to four fused sections for long signals.
///
/// A causal IIR pass is one long dependency chain, so a scalar core leaves most of its arithmetic units
/// idle. We split the pass into four contiguous segments and run them as the lanes of `SIMD4<Float>`.
/// Lanes 1–3 start `warmUp` samples early from a zero state and discard those outputs: the filter's
/// slowest pole (radius ≈ 0.96 for the default band) forgets the missing history as `0.96^2048 ≈ 1e-36`,
/// far below Float resolution, so the output equals a single sequential pass to rounding. Lane 0 starts
/// at the true beginning with the `sosfilt_zi` state, so edge handling is unchanged.
struct LaneFilter {
    static let lanes = 4
    static let warmUp = 2048

    typealias V = SIMD4<Float>
    private let group: [Biquad]

    /// `group` holds 1…4 sections.
    init(group: ArraySlice<Biquad>) { self.group = Array(group) }

    /// Whether a buffer is long enough for the lane split.
    static func worthIt(count: Int) -> Bool { count >= 16 * warmUp }

    /// Runs the group over `count` samples at `base` (walking backwards when `reverse`), lane 0 seeded
    /// with `initial` (one state pair per real section of the group), or, when `lead` is given, warmed up
    /// on those `warmUp` samples (the ones just before `base` in pass order, copied by the caller) like
    /// lanes 1–3: a later piece of a pass split between threads.
    ///
    /// Butterworth band-pass sections (`b1 = 0`, `b2 = −b0`, which ``Butterworth/bandPass(order:lowHz:highHz:sampleRate:)``
    /// gives exactly) run a kernel that skips the products with 0 and reuses `b0·x`: the same Float
    /// operations on the same values, so the same output bit for bit, in two thirds of the arithmetic.
    /// `general` forces the kernel for any sections (tests compare the two).
    func run(_ base: UnsafeMutablePointer<Float>, count: Int, reverse: Bool, initial: [(Double, Double)],
             lead: [Float]? = nil, general: Bool = false, progress: (Double) -> Void) {
        if !general, group.allSatisfy({ $0.b1 == 0 && $0.b2 == -$0.b0 }) {
            if group.count == 4 {
                var k = BandPassQuad(group)
                Self.drive(&k, base, count: count, reverse: reverse, initial: initial, lead: lead, progress: progress)
                return
            }
            if group.count == 2 {
                var k = BandPassPair(group)
                Self.drive(&k, base, count: count, reverse: reverse, initial: initial, lead: lead, progress: progress)
                return
            }
        }
        var k = GeneralQuad(group)
        Self.drive(&k, base, count: count, reverse: reverse, initial: initial, lead: lead, progress: progress)
    }

    private static func drive<K: LaneKernel>(_ kernel: inout K, _ base: UnsafeMutablePointer<Float>, count: Int,
                                             reverse: Bool, initial: [(Double, Double)], lead: [Float]?,
                                             progress: (Double) -> Void) {
        let seg = (count + 3) / 4
        let lastLen = count - 3 * seg
        let dir = reverse ? -1 : 1
        func ptr(_ passIndex: Int) -> UnsafeMutablePointer<Float> { reverse ? base + (count - 1 - passIndex) : base + passIndex }

        // Phase A: lanes 1–3 warm up on the samples before their segment; lane 0 idles on zeros (or
        // warms up on `lead`).
        var p1 = ptr(seg - Self.warmUp), p2 = ptr(2 * seg - Self.warmUp), p3 = ptr(3 * seg - Self.warmUp)
        for t in 0..<Self.warmUp {
            _ = kernel.step(V(lead?[t] ?? 0, p1.pointee, p2.pointee, p3.pointee))
            p1 += dir; p2 += dir; p3 += dir
        }
        kernel.seed(initial)
        // Phase B: all four lanes on their segments; phase C: lane 3 has run out (it is the shortest).
        var p0 = ptr(0)
        p1 = ptr(seg); p2 = ptr(2 * seg); p3 = ptr(3 * seg)
        let block = 1 << 16
        var j = 0
        while j < seg {
            let end = min(seg, j + block)
            if j < lastLen {
                let e = min(end, lastLen)
                for _ in j..<e {
                    let y = kernel.step(V(p0.pointee, p1.pointee, p2.pointee, p3.pointee))
                    p0.pointee = y[0]; p1.pointee = y[1]; p2.pointee = y[2]; p3.pointee = y[3]
                    p0 += dir; p1 += dir; p2 += dir; p3 += dir
                }
                j = e
            } else {
                for _ in j..<end {
                    let y = kernel.step(V(p0.pointee, p1.pointee, p2.pointee, 0))
                    p0.pointee = y[0]; p1.pointee = y[1]; p2.pointee = y[2]
                    p0 += dir; p1 += dir; p2 += dir
                }
                j = end
            }
            progress(Double(j) / Double(seg))
        }
    }
}

/// One step of a section group on four lanes, and lane 0's seeding.
protocol LaneKernel {
    mutating func step(_ x: LaneFilter.V) -> LaneFilter.V
    /// Lane 0's states from `sosfilt_zi` (one pair per real section).
    mutating func seed(_ initial: [(Double, Double)])
}

/// Any 1…4 sections (missing ones are identity sections).
struct GeneralQuad: LaneKernel {
    typealias V = LaneFilter.V
    // Explicit stored coefficients and states (no arrays) so the whole cascade lives in registers.
    private let c0b0: V, c0b1: V, c0b2: V, c0a1: V, c0a2: V
    private let c1b0: V, c1b1: V, c1b2: V, c1a1: V, c1a2: V
    private let c2b0: V, c2b1: V, c2b2: V, c2a1: V, c2a2: V
    private let c3b0: V, c3b1: V, c3b2: V, c3a1: V, c3a2: V
    private var s0a = V.zero, s0b = V.zero, s1a = V.zero, s1b = V.zero
    private var s2a = V.zero, s2b = V.zero, s3a = V.zero, s3b = V.zero

    init(_ group: [Biquad]) {
        var s = group
        while s.count < 4 { s.append(Biquad(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)) }
        func v(_ x: Double) -> V { V(repeating: Float(x)) }
        (c0b0, c0b1, c0b2, c0a1, c0a2) = (v(s[0].b0), v(s[0].b1), v(s[0].b2), v(s[0].a1), v(s[0].a2))
        (c1b0, c1b1, c1b2, c1a1, c1a2) = (v(s[1].b0), v(s[1].b1), v(s[1].b2), v(s[1].a1), v(s[1].a2))
        (c2b0, c2b1, c2b2, c2a1, c2a2) = (v(s[2].b0), v(s[2].b1), v(s[2].b2), v(s[2].a1), v(s[2].a2))
        (c3b0, c3b1, c3b2, c3a1, c3a2) = (v(s[3].b0), v(s[3].b1), v(s[3].b2), v(s[3].a1), v(s[3].a2))
    }

    mutating func seed(_ initial: [(Double, Double)]) {
        func seed(_ k: Int, _ a: inout V, _ b: inout V) {
            if k < initial.count { a[0] = Float(initial[k].0); b[0] = Float(initial[k].1) }
        }
        seed(0, &s0a, &s0b); seed(1, &s1a, &s1b); seed(2, &s2a, &s2b); seed(3, &s3a, &s3b)
    }

    @inline(__always)
    mutating func step(_ x: V) -> V {
        let y0 = c0b0 * x + s0a
        s0a = c0b1 * x - c0a1 * y0 + s0b
        s0b = c0b2 * x - c0a2 * y0
        let y1 = c1b0 * y0 + s1a
        s1a = c1b1 * y0 - c1a1 * y1 + s1b
        s1b = c1b2 * y0 - c1a2 * y1
        let y2 = c2b0 * y1 + s2a
        s2a = c2b1 * y1 - c2a1 * y2 + s2b
        s2b = c2b2 * y1 - c2a2 * y2
        let y3 = c3b0 * y2 + s3a
        s3a = c3b1 * y2 - c3a1 * y3 + s3b
        s3b = c3b2 * y2 - c3a2 * y3
        return y3
    }
}
