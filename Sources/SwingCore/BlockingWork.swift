import Foundation

/// A request to stop that work on a thread of its own reads between frames (the thread has no Swift task
/// whose `Task.isCancelled` it could ask).
///
/// Work started with ``BlockingWork/run(_:cancellation:_:)`` runs under one; long loops ask
/// ``isRequested`` (their task's cancellation or their thread's `Cancellation`) instead of `Task.isCancelled`.
package final class Cancellation: @unchecked Sendable {   // `cancelled` guarded by `lock`
    private let lock = NSLock()
    private var cancelled = false
    private var actions: [@Sendable () -> Void] = []
    private let parent: Cancellation?

    /// A request not made yet; one under `parent` is requested when `parent` is.
    package init(parent: Cancellation? = nil) { self.parent = parent }

    /// The `Cancellation` the current thread's work runs under (bound by ``BlockingWork``), if any.
    @TaskLocal package static var current: Cancellation?

    /// Whether the calling work should stop: its Swift task is cancelled, or the ``current`` request is made.
    package static var isRequested: Bool { Task.isCancelled || (current?.isCancelled ?? false) }

    /// Whether the request was made (on this one or its parent).
    package var isCancelled: Bool {
        lock.lock(); let c = cancelled; lock.unlock()
        return c || (parent?.isCancelled ?? false)
    }

    /// Makes the request (once; later calls do nothing) and runs what was attached with ``onCancel(_:)``.
    package func cancel() {
        lock.lock()
        guard !cancelled else { lock.unlock(); return }
        cancelled = true
        let run = actions
        actions = []
        lock.unlock()
        for action in run { action() }
    }

    /// Runs `action` when the request is made (at once when it already was).
    package func onCancel(_ action: @escaping @Sendable () -> Void) {
        lock.lock()
        if cancelled { lock.unlock(); action(); return }
        actions.append(action)
        lock.unlock()
    }
}

/// Runs work that holds a thread for long — decoding, inference, an analysis, a file copy — on a thread of its
/// own, never on Swift concurrency's cooperative pool, whose few threads (one per core) every request, socket and
/// job of the process shares: a minutes-long analysis there leaves a 2-core server one thread for everyone else.
package enum BlockingWork {
    /// The stack of each thread (the main thread's usual size: decoders and inference run deep).
    package static let stackSize = 8 << 20

    /// Runs `work` on a new thread and waits for it without holding a thread of the caller's.
    ///
    /// Cancelling the calling task makes `cancellation`'s request, which `work` sees as
    /// ``Cancellation/isRequested`` (bound as ``Cancellation/current`` on its thread). Whatever `work` throws
    /// is rethrown; it is never abandoned: the call returns when `work` does.
    /// - Parameters:
    ///   - name: The thread's name (in debuggers and crash reports).
    ///   - cancellation: The request `work` runs under (a new one under the caller's ``Cancellation/current`` by
    ///     default); give one to cancel from elsewhere, e.g. on Ctrl-C.
    package static func run<T: Sendable>(_ name: String = "swingmaster.work",
                                        cancellation: Cancellation = Cancellation(parent: Cancellation.current),
                                        _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withTaskCancellationHandler {
            let environment = ProcessEnvironment.overrides
            return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let thread = Thread {
                    continuation.resume(with: Result {
                        try ProcessEnvironment.$overrides.withValue(environment) {
                            try Cancellation.$current.withValue(cancellation) { try work() }
                        }
                    })
                }
                thread.name = name
                thread.stackSize = stackSize
                thread.start()
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}
