import Foundation
import SwingCore

/// A program this test process started and owns: a server or worker that runs while a test talks to it, a
/// stand-in HTTP server, a command to interrupt, or one run of ``Subprocess``. Its end is observed through
/// Foundation's termination handler, so waiting for it holds no thread; every wait with a limit takes a
/// `Clock`, so tests of the limits themselves run on a ``ManualClock`` instead of the wall clock.
///
/// Only this object signals its process, by its PID (never by name).
package final class Child: @unchecked Sendable {   // `process` is configured before `run()`, then only read
    /// How a child ended.
    package struct Termination: Sendable, Equatable {
        /// The exit status, or the signal number when ``signalled``.
        package var status: Int32
        /// Whether a signal ended it.
        package var signalled: Bool
        /// Exited by itself with status 0.
        package var succeeded: Bool { status == 0 && !signalled }

        package init(status: Int32, signalled: Bool) {
            self.status = status
            self.signalled = signalled
        }
    }

    /// What the child reads.
    package enum Input: Sendable {
        /// An empty standard input (`/dev/null`).
        case empty
        /// A pipe this object holds open until ``closeInput()``: a server that exits on end of input ends with it.
        case pipe
    }

    /// Where one of the child's output streams goes.
    package enum Output: @unchecked Sendable {   // FileHandle is not Sendable on every platform
        /// Thrown away.
        case discard
        /// Written to this handle (a file, `/dev/full`).
        case handle(FileHandle)
        /// A pipe this object reads (``line(within:clock:)``, ``readToEnd()``).
        case pipe
    }

    private let process = Process()
    private let ended = Latch<Termination>()
    private let inputPipe: Pipe?
    private let outputPipe: Pipe?
    private let errorPipe: Pipe?

    /// Starts `executable` (a path, or a name looked up on `PATH`) with `arguments`.
    /// - Parameters:
    ///   - environment: Variables set on top of this process's environment.
    ///   - currentDirectory: Where it runs (default: this process's working folder).
    /// - Throws: When it cannot be started.
    package init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                 input: Input = .empty, output: Output = .discard, errors: Output = .discard,
                 currentDirectory: URL? = nil) throws {
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        inputPipe = input == .pipe ? Pipe() : nil
        process.standardInput = inputPipe ?? FileHandle.nullDevice
        func attach(_ output: Output) -> (Any, Pipe?) {
            switch output {
            case .discard: return (FileHandle.nullDevice, nil)
            case .handle(let h): return (h, nil)
            case .pipe: let p = Pipe(); return (p, p)
            }
        }
        let (out, outPipe) = attach(output), (err, errPipe) = attach(errors)
        process.standardOutput = out
        process.standardError = err
        outputPipe = outPipe
        errorPipe = errPipe
        let latch = ended
        process.terminationHandler = { p in
            latch.set(Termination(status: p.terminationStatus, signalled: p.terminationReason == .uncaughtSignal))
        }
        try Self.withSignalsUnblocked { try process.run() }
    }

    /// Runs `body` (a spawn) with no signal blocked on this thread. A child inherits its parent thread's signal
    /// mask, and the threads async code runs on block SIGTERM, SIGINT and most others: a child spawned from one
    /// would never feel the SIGTERM of a time limit or a stop (`ChildTests` caught exactly that).
    private static func withSignalsUnblocked<T>(_ body: () throws -> T) rethrows -> T {
        var none = sigset_t(), previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// The child's process id.
    package var pid: Int32 { process.processIdentifier }

    /// How it ended, or nil while it runs.
    package var termination: Termination? { ended.value }

    /// Whether it is still running.
    package var isRunning: Bool { ended.value == nil }

    /// Sends `signal` to the child while it runs (never to a PID that may have been reused).
    package func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Writes `data` to the child's standard input (``Input/pipe``) on a thread of its own, then closes it, so a
    /// child that prints before it has read everything cannot block us.
    package func send(_ data: Data) {
        guard let writer = inputPipe?.fileHandleForWriting else { return }
        Thread.detachNewThread {
            try? writer.write(contentsOf: data)
            try? writer.close()
        }
    }

    /// Closes the child's standard input (``Input/pipe``): a child that reads to the end now sees it.
    package func closeInput() {
        try? inputPipe?.fileHandleForWriting.close()
    }

    /// Waits for the end.
    package func exit() async -> Termination {
        if let t = await ended.wait() { return t }
        // Cancelled: the end still comes (after the caller's signal, or by itself); wait on a thread of its own.
        let late = try? await BlockingWork.run("swingmaster.child") { [ended] in ended.waitBlocking(seconds: .infinity) }
        return (late ?? nil) ?? Termination(status: -1, signalled: false)
    }

    /// Waits for the end until `limit` has passed on `clock`; nil when it still runs then.
    package func exit<C: Clock>(within limit: Duration, clock: C = ContinuousClock()) async -> Termination?
        where C.Duration == Duration {
        await withTaskGroup(of: Termination?.self) { group in
            group.addTask { [ended] in await ended.wait() }
            group.addTask { try? await clock.sleep(for: limit); return nil }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? ended.value
        }
    }

    /// Waits for the end, blocking the calling thread, for at most `seconds`; nil when it still runs then.
    /// For synchronous callers only: async code uses ``exit(within:clock:)``.
    package func waitBlocking(seconds: Double) -> Termination? {
        ended.waitBlocking(seconds: seconds)
    }

    /// Ends the child: sends `signal` (after SIGCONT, in case it was stopped), waits `grace` on `clock`, then
    /// SIGKILL; returns how it ended.
    @discardableResult
    package func stop<C: Clock>(_ signal: Int32 = SIGTERM, grace: Duration = .seconds(30), clock: C = ContinuousClock()) async
        -> Termination where C.Duration == Duration {
        self.signal(SIGCONT)
        self.signal(signal)
        if let t = await exit(within: grace, clock: clock) { return t }
        self.signal(SIGKILL)
        return await exit()
    }

    /// The first line the child prints on its standard output (``Output/pipe``), without its newline; nil when
    /// the output ends first or `limit` passes on `clock` (a server that never says its port).
    package func line<C: Clock>(within limit: Duration, clock: C = ContinuousClock()) async -> String?
        where C.Duration == Duration {
        let read = readLine()
        return await withTaskGroup(of: String??.self) { group in
            group.addTask { await read.wait() }
            group.addTask { try? await clock.sleep(for: limit); return .some(nil) }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? nil
        }
    }

    /// ``line(within:clock:)`` for synchronous callers (a fixture made in a test's `init`), blocking for at most
    /// `seconds`.
    package func lineBlocking(seconds: Double) -> String? {
        readLine().waitBlocking(seconds: seconds) ?? nil
    }

    /// Reads the first line of the standard output on a thread of its own.
    private func readLine() -> Latch<String?> {
        let read = Latch<String?>()
        guard let reader = outputPipe?.fileHandleForReading else { read.set(nil); return read }
        let handle = Subprocess.SendableHandle(handle: reader)
        Thread.detachNewThread {
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = handle.handle.availableData
                if chunk.isEmpty { break }   // it exited
                line.append(chunk)
            }
            let text = String(decoding: line, as: UTF8.self)
            read.set(text.contains("\n") ? String(text.prefix { $0 != "\n" }) : nil)
        }
        return read
    }

    /// Ends a child that exits at the end of its input (a stand-in server): closes the input, waits up to
    /// `seconds` (blocking: for a fixture's synchronous teardown), then SIGKILL.
    package func closeInputAndEnd(seconds: Double = 5) {
        closeInput()
        if waitBlocking(seconds: seconds) == nil {
            signal(SIGKILL)
            _ = waitBlocking(seconds: .infinity)
        }
    }

    /// Everything the child writes on its standard error (``Output/pipe``) until it closes it, read on a
    /// thread of its own.
    package func errorsToEnd() async -> Data {
        guard let reader = errorPipe?.fileHandleForReading else { return Data() }
        let handle = Subprocess.SendableHandle(handle: reader)
        return (try? await BlockingWork.run("swingmaster.child.stderr") { handle.handle.readDataToEndOfFile() }) ?? Data()
    }
}

/// A value set once, which any number of tasks (or, for synchronous callers, threads) wait for. A waiting
/// task that is cancelled stops waiting and gets nil.
package final class Latch<Value: Sendable>: @unchecked Sendable {   // state guarded by `lock`
    private let lock = NSCondition()
    private var stored: Value?
    private var waiters: [UUID: CheckedContinuation<Value?, Never>] = [:]

    package init() {}

    /// The value, or nil before it is set.
    package var value: Value? { lock.withLock { stored } }

    /// Sets the value (the first call wins) and wakes every waiter.
    package func set(_ value: Value) {
        lock.lock()
        guard stored == nil else { lock.unlock(); return }
        stored = value
        let woken = waiters
        waiters = [:]
        lock.broadcast()
        lock.unlock()
        for continuation in woken.values { continuation.resume(returning: value) }
    }

    /// Waits for the value; nil when the task is cancelled first.
    package func wait() async -> Value? {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                lock.lock()
                if let stored {
                    lock.unlock()
                    continuation.resume(returning: stored)
                } else if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(returning: nil)
                } else {
                    waiters[id] = continuation
                    lock.unlock()
                }
            }
        } onCancel: {
            let continuation = lock.withLock { waiters.removeValue(forKey: id) }
            continuation?.resume(returning: nil)
        }
    }

    /// Waits for the value, blocking the calling thread, for at most `seconds`; nil when it is not set by then.
    package func waitBlocking(seconds: Double) -> Value? {
        let deadline = seconds.isFinite ? Date().addingTimeInterval(seconds) : Date.distantFuture
        lock.lock()
        defer { lock.unlock() }
        while stored == nil, lock.wait(until: deadline) {}
        return stored
    }
}

/// Polls until a condition holds: the one way the tests wait for something outside them (a server to answer, a
/// job to start, a log line). Every wait has a limit, on a clock the caller may inject.
package enum Poll {
    /// Evaluates `check` every `interval` until it returns a value or `limit` has passed on `clock`; returns
    /// the value, or nil when the limit passed first. `check` runs at least once, and once more at the limit.
    package static func until<T: Sendable, C: Clock>(within limit: Duration, every interval: Duration = .milliseconds(50),
                                                     clock: C = ContinuousClock(),
                                                     _ check: () async throws -> T?) async rethrows -> T?
        where C.Duration == Duration {
        let deadline = clock.now.advanced(by: limit)
        while true {
            if let value = try await check() { return value }
            let left = clock.now.duration(to: deadline)
            if left <= .zero || Task.isCancelled { return nil }
            try? await clock.sleep(for: min(interval, left))
        }
    }

    /// ``until(within:every:clock:_:)`` for a condition with no value: whether it held within the limit.
    package static func holds<C: Clock>(within limit: Duration, every interval: Duration = .milliseconds(50),
                                        clock: C = ContinuousClock(), _ check: () async throws -> Bool) async rethrows -> Bool
        where C.Duration == Duration {
        try await until(within: limit, every: interval, clock: clock) { try await check() ? true : nil } ?? false
    }
}
