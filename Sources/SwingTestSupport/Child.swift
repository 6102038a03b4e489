import Foundation
import SwingCore

/// A program this test process started and owns: a server or worker that runs while a test talks to it, a
/// stand-in HTTP server, a command to interrupt, or one run of ``Subprocess``. Its end is heard by a thread of its
/// own blocked in `wait4`, so an async wait for it holds no thread of the cooperative pool; every wait with a limit
/// takes a `Clock`, so tests of the limits themselves run on a ``ManualClock`` instead of the wall clock.
///
/// Only this object signals its process, by its PID (never by name), and only while it has not ended.
package final class Child: @unchecked Sendable {   // every stored property is set in `init`, then only read
    /// How a child ended.
    package struct Termination: Sendable, Equatable {
        /// The exit status, or the signal number when ``signalled``.
        package var status: Int32
        /// Whether a signal ended it.
        package var signalled: Bool
        /// The CPU seconds the child used (user and system, from `wait4`; nil only for an end not heard from the
        /// kernel). Unlike its wall-clock time this does not grow with the load of the machine.
        package var cpuSeconds: Double?
        /// Exited by itself with status 0.
        package var succeeded: Bool { status == 0 && !signalled }

        package init(status: Int32, signalled: Bool, cpuSeconds: Double? = nil) {
            self.status = status
            self.signalled = signalled
            self.cpuSeconds = cpuSeconds
        }

        /// Equal in how it ended (the CPU time aside).
        package static func == (a: Termination, b: Termination) -> Bool { a.status == b.status && a.signalled == b.signalled }
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
        /// A pipe this object reads (standard output: ``line(within:clock:)``; standard error: ``errorsToEnd()``).
        case pipe
    }

    /// The child's process id.
    package let pid: Int32
    /// Set when the child has ended, by a thread of its own blocked in `wait4` on exactly this child.
    private let ended = Latch<Termination>()
    /// Our ends of the child's pipes.
    private let inputHandle: FileHandle?
    private let outputHandle: FileHandle?
    private let errorHandle: FileHandle?

    /// Starts `executable` (a path, or a name looked up on `PATH`) with `arguments`.
    ///
    /// Spawned with `posix_spawn` and waited for with `wait4`, not with Foundation's `Process`, whose Linux version
    /// starts children with the spawning thread's signal mask (async code's threads block SIGTERM and SIGINT:
    /// swift-corelibs-foundation #4772) and hears an end only when a socket it gave the child closes, which the
    /// child's own children keep open (#4795: a run that failed at once looked 9.6 s long in CI). Here the child
    /// starts with no signal blocked or ignored, only its three standard streams are ours, and its end, status and
    /// CPU time come from the kernel.
    /// - Parameters:
    ///   - environment: Variables set on top of this process's environment.
    ///   - currentDirectory: Where it runs (default: this process's working folder).
    /// - Throws: ``Subprocess/Failure`` when it cannot be started.
    package init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                 input: Input = .empty, output: Output = .discard, errors: Output = .discard,
                 currentDirectory: URL? = nil) throws {
        var argv = executable.contains("/") ? [executable] + arguments : ["/usr/bin/env", executable] + arguments
        if let currentDirectory {
            argv = ["/bin/sh", "-c", "cd -- \"$1\" && shift && exec \"$@\"", "sh", currentDirectory.path] + argv
        }
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }

        // Descriptors: ours are close-on-exec; each is duplicated onto the child's 0, 1 or 2, which clears that.
        var opened: [Int32] = []   // closed once the child has its copies
        defer { for fd in opened { close(fd) } }
        func devNull() throws -> Int32 {
            let fd = open("/dev/null", O_RDWR | O_CLOEXEC)
            guard fd >= 0 else { throw Subprocess.Failure(description: "cannot open /dev/null: errno \(errno)") }
            opened.append(fd)
            return fd
        }
        /// A pipe: (the child's end, ours as a handle).
        func pipeEnds(childReads: Bool) throws -> (Int32, FileHandle) {
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw Subprocess.Failure(description: "cannot make a pipe: errno \(errno)") }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            let (theirs, ours) = childReads ? (fds[0], fds[1]) : (fds[1], fds[0])
            opened.append(theirs)
            return (theirs, FileHandle(fileDescriptor: ours, closeOnDealloc: true))
        }
        func attach(_ output: Output) throws -> (Int32, FileHandle?) {
            switch output {
            case .discard: return (try devNull(), nil)
            // Foundation's `FileHandle.nullDevice` has no descriptor (-1) on Linux: it means "thrown away".
            case .handle(let h): return (h.fileDescriptor >= 0 ? h.fileDescriptor : try devNull(), nil)
            case .pipe: let (fd, h) = try pipeEnds(childReads: false); return (fd, h)
            }
        }
        let stdin: Int32
        if input == .pipe { let (fd, h) = try pipeEnds(childReads: true); stdin = fd; inputHandle = h } else { stdin = try devNull(); inputHandle = nil }
        let (stdout, outHandle) = try attach(output), (stderr, errHandle) = try attach(errors)
        outputHandle = outHandle
        errorHandle = errHandle

        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?, attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t(), attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer { posix_spawn_file_actions_destroy(&actions); posix_spawnattr_destroy(&attributes) }
        for (fd, target) in [(stdin, Int32(0)), (stdout, 1), (stderr, 2)] {
            let status = posix_spawn_file_actions_adddup2(&actions, fd, target)
            guard status == 0 else { throw Subprocess.Failure(description: "cannot give descriptor \(fd) to a child: \(String(cString: strerror(status)))") }
        }
        // Nothing else of this process's (on Darwin, POSIX_SPAWN_CLOEXEC_DEFAULT below): a pipe another part of it
        // made without close-on-exec (Foundation's, for its own children), held open by our child, would keep its
        // reader from seeing the end.
        #if !canImport(Darwin)
        _ = Self.closeFrom?(&actions, 3)
        #endif
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        #if canImport(Darwin)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_CLOEXEC_DEFAULT))
        #else
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        #endif

        let cArgs = argv.map { strdup($0) } + [nil], cEnv = env.map { strdup($0) } + [nil]
        defer { for p in cArgs + cEnv { free(p) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, argv[0], &actions, &attributes, cArgs, cEnv)
        guard status == 0 else {
            throw Subprocess.Failure(description: "cannot start \(argv[0]): \(String(cString: strerror(status)))")
        }
        pid = child
        let ended = ended, id = child
        let waiter = Thread {
            var raw: Int32 = 0, usage = rusage()
            while wait4(id, &raw, 0, &usage) == -1 && errno == EINTR {}
            let signal = raw & 0x7f
            let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
                + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
            ended.set(Termination(status: signal == 0 ? (raw >> 8) & 0xff : signal, signalled: signal != 0, cpuSeconds: cpu))
        }
        waiter.name = "swingmaster.child.wait"
        waiter.start()
    }

    /// How it ended, or nil while it runs.
    package var termination: Termination? { ended.value }

    /// Whether it is still running.
    package var isRunning: Bool { ended.value == nil }

    /// Sends `signal` to the child while it runs (never to a PID that may have been reused).
    package func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    #if !canImport(Darwin)
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which its Swift module does not show.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private nonisolated(unsafe) static let closeFrom: CloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }
    #endif

    /// Writes `data` to the child's standard input (``Input/pipe``) on a thread of its own, then closes it, so a
    /// child that prints before it has read everything cannot block us.
    package func send(_ data: Data) {
        guard let writer = inputHandle else { return }
        Thread.detachNewThread {
            try? writer.write(contentsOf: data)
            try? writer.close()
        }
    }

    /// Closes the child's standard input (``Input/pipe``): a child that reads to the end now sees it.
    package func closeInput() {
        try? inputHandle?.close()
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
        guard let reader = outputHandle else { read.set(nil); return read }
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
        guard let reader = errorHandle else { return Data() }
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
        lock.lock()
        defer { lock.unlock() }
        guard seconds.isFinite else {
            while stored == nil { lock.wait() }   // (a distant-future deadline traps in Foundation's NSCondition)
            return stored
        }
        let deadline = Date().addingTimeInterval(seconds)
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
