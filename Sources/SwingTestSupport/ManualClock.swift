import Foundation

/// A clock that moves only when a test moves it: the limits of ``Child``, ``Subprocess`` and ``Poll`` are
/// tested on it, so "killed after ten minutes" takes no ten minutes and cannot fail on a slow machine.
package final class ManualClock: Clock, @unchecked Sendable {   // state guarded by `lock`
    /// A point on a ``ManualClock``: the time moved since it was made.
    package struct Instant: InstantProtocol {
        package var offset: Duration
        package func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        package func duration(to other: Instant) -> Duration { other.offset - offset }
        package static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [UUID: (deadline: Instant, continuation: CheckedContinuation<Void, any Error>)] = [:]

    package init() {}

    package var now: Instant { lock.withLock { current } }
    package var minimumResolution: Duration { .nanoseconds(1) }

    /// How many tasks are asleep on this clock.
    package var sleeping: Int { lock.withLock { sleepers.count } }

    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.lock()
                if deadline <= current {
                    lock.unlock()
                    continuation.resume()
                } else if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                } else {
                    sleepers[id] = (deadline, continuation)
                    lock.unlock()
                }
            }
        } onCancel: {
            let sleeper = lock.withLock { sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on by `duration` and wakes the sleepers whose time has come.
    package func advance(by duration: Duration) {
        let woken: [CheckedContinuation<Void, any Error>] = lock.withLock {
            current = current.advanced(by: duration)
            let due = sleepers.filter { $0.value.deadline <= current }
            for id in due.keys { sleepers.removeValue(forKey: id) }
            return due.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Waits (on the real clock, at most `seconds`) until at least `count` tasks sleep on this clock, so that
    /// an ``advance(by:)`` after it reaches them; false when they never came.
    package func waitForSleepers(_ count: Int = 1, seconds: Double = 30) async -> Bool {
        await Poll.holds(within: .seconds(seconds), every: .milliseconds(5)) { sleeping >= count }
    }
}
