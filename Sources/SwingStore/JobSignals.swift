import Foundation

/// What a job signal is about: the queue (a job was queued or released) or one job (it changed).
package enum JobTopic: Hashable, Sendable {
    case queue
    case job(Int64)
}

/// Wakes tasks waiting on a ``JobTopic`` within this process. Each store owns one: ``AppDatabase`` signals
/// it as it writes; `PostgresStore` from the notifications PostgreSQL sends (`LISTEN`), so a job queued by
/// another machine wakes this one's workers too. A wait also ends after its timeout, so a missed signal
/// costs at most one timeout (the polling fallback).
package final class JobSignals: @unchecked Sendable {   // state guarded by `lock`
    private enum Waiter {
        /// Registered, not yet suspended.
        case pending
        /// Woken before it suspended: it returns at once.
        case fired
        case waiting(CheckedContinuation<Void, Never>)
    }
    private let lock = NSLock()
    private var waiters: [UInt64: (topic: JobTopic, state: Waiter)] = [:]
    private var nextId: UInt64 = 0

    package init() {}

    /// Wakes every task waiting on `topic`.
    package func signal(_ topic: JobTopic) {
        lock.lock()
        var woken: [CheckedContinuation<Void, Never>] = []
        for (id, w) in waiters where w.topic == topic {
            switch w.state {
            case .waiting(let c): woken.append(c); waiters[id] = nil
            case .pending: waiters[id]?.state = .fired
            case .fired: break
            }
        }
        lock.unlock()
        for c in woken { c.resume() }
    }

    /// Returns on a ``signal(_:)`` of `topic`, after `timeout`, or when the task is cancelled.
    package func wait(for topic: JobTopic, upTo timeout: Duration) async {
        let id = lock.withLock { nextId &+= 1; waiters[nextId] = (topic, .pending); return nextId }
        let timer = Task { [self] in
            if (try? await Task.sleep(for: timeout)) != nil { fire(id) }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                lock.lock()
                if case .pending? = waiters[id]?.state {
                    waiters[id]?.state = .waiting(c)
                    lock.unlock()
                } else {
                    waiters[id] = nil
                    lock.unlock()
                    c.resume()
                }
            }
        } onCancel: { fire(id) }
        timer.cancel()
        lock.withLock { waiters[id] = nil }
    }

    /// Wakes the one waiter `id` (or marks it woken if it has not suspended yet).
    private func fire(_ id: UInt64) {
        lock.lock()
        switch waiters[id]?.state {
        case .waiting(let c)?:
            waiters[id] = nil
            lock.unlock()
            c.resume()
        case .pending?:
            waiters[id]?.state = .fired
            lock.unlock()
        default:
            lock.unlock()
        }
    }
}
