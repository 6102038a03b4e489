import Foundation

/// Runs one piece of work per item on a few threads of its own while the caller produces the next items,
/// and hands the results back in the order the items were submitted.
///
/// `detect` on a video uses it so that decoding and colour conversion of the next frames (on the caller's
/// thread) overlap with inference, and so that several frames infer at once, each on a single-threaded
/// ONNX Runtime session: on 2 cores two such sessions do more frames a second than one session with two
/// threads (bench/results/detect_video.txt), as the pose workers found for BlazePose.
///
/// At most `workers + 2` items are held (submitted and not handed back) between a ``submit(_:)`` and the
/// ``ready()`` that follows it, so memory stays bounded however fast the caller produces, even behind one
/// slow item: ``submit(_:)`` waits for room. The threads keep the object alive until
/// ``finish()`` or ``close()``: call one of them on every path (a `defer { close() }`).
final class OrderedWorkers<Input: Sendable, Output: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [(seq: Int, item: Input)] = []
    private var done: [Int: Result<Output, any Error>] = [:]
    private var submitted = 0
    private var delivered = 0
    private var closed = false
    private var running = 0
    private let capacity: Int
    private let work: @Sendable (Input, Int) throws -> Output

    /// Starts `workers` threads (at least 1).
    /// - Parameters:
    ///   - workers: Threads running `work` at once.
    ///   - work: Runs one item; its second argument is the worker's number (0…workers-1), so each worker
    ///     can own a resource (a session) no other worker touches.
    init(workers: Int, work: @escaping @Sendable (Input, Int) throws -> Output) {
        let n = max(1, workers)
        capacity = n + 1
        self.work = work
        running = n
        for w in 0..<n {
            let thread = Thread { [self] in self.loop(worker: w) }
            thread.name = "swingmaster.frames.\(w)"
            thread.qualityOfService = .userInitiated
            thread.start()
        }
    }

    private func loop(worker: Int) {
        while true {
            condition.lock()
            while queue.isEmpty && !closed { condition.wait() }
            if queue.isEmpty {   // closed and nothing left
                running -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let next = queue.removeFirst()
            condition.unlock()
            let result = Result { try work(next.item, worker) }
            condition.lock()
            done[next.seq] = result
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Queues `item`, first waiting while `workers + 1` items are held (submitted and not handed back) and
    /// the oldest of them is not finished yet: once it is, the caller's next ``ready()`` makes room.
    func submit(_ item: Input) {
        condition.lock()
        while submitted - delivered >= capacity && done[delivered] == nil && !closed { condition.wait() }
        queue.append((submitted, item))
        submitted += 1
        condition.broadcast()
        condition.unlock()
    }

    /// The results ready in submission order, without waiting (an empty array while the oldest item runs).
    /// - Throws: The first error a worker threw, in submission order.
    func ready() throws -> [Output] { try take(waitingForAll: false) }

    /// Waits for every submitted item, stops the threads and returns the remaining results in order.
    /// - Throws: The first error a worker threw, in submission order.
    func finish() throws -> [Output] {
        defer { close() }
        return try take(waitingForAll: true)
    }

    /// Stops the threads once the queued items are done (their results are dropped). Safe to call twice.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    private func take(waitingForAll: Bool) throws -> [Output] {
        condition.lock()
        defer { condition.unlock() }
        var out: [Output] = []
        while delivered < submitted {
            guard let result = done.removeValue(forKey: delivered) else {
                if waitingForAll { condition.wait(); continue }
                break
            }
            delivered += 1
            condition.broadcast()
            out.append(try result.get())
        }
        return out
    }
}
