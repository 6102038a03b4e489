import Dispatch

/// Work over long arrays split between threads. Always ``pieces`` pieces whatever the machine, so a
/// result never depends on its core count; on one core the pieces simply run one after the other.
enum Split {
    /// Pieces a long pass is split into (one per core on the two-core machines we measure on).
    static let pieces = 2

    /// Runs `body` on `pieces` contiguous ranges covering `0..<count`, concurrently.
    static func ranges(_ count: Int, pieces: Int = Split.pieces, _ body: @Sendable (Range<Int>) -> Void) {
        let p = max(1, min(pieces, count))
        guard p > 1 else { body(0..<count); return }
        DispatchQueue.concurrentPerform(iterations: p) { k in body((count * k / p)..<(count * (k + 1) / p)) }
    }
}

/// A buffer handed to worker threads that each touch only their own range of it.
struct SendableBuffer<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>
    init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}
