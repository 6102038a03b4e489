import Foundation
import SwingCore

/// The one way tests and benchmarks run another program to its end (ffmpeg, Python, our own binary), on
/// ``Child``: output goes to temporary files, so a chatty child can never fill a pipe and deadlock us, and a
/// time limit kills a hang.
package enum Subprocess {
    /// How a run ended and what it printed.
    package struct Outcome: Sendable {
        /// The exit status, or the signal number when ``signalled``.
        package var status: Int32
        /// Whether a signal ended it (a crash, or our kill after ``timedOut``).
        package var signalled: Bool
        /// Whether it outlived its time limit and was killed.
        package var timedOut: Bool
        /// Its standard output (empty when it was sent elsewhere).
        package var stdout: Data
        /// Its standard error, as text.
        package var stderr: String
        /// Wall-clock seconds from start to exit.
        package var seconds: Double
        /// CPU seconds it used (``Child/Termination/cpuSeconds``): nil where the system does not say.
        package var cpuSeconds: Double? = nil

        /// Exited by itself with status 0.
        package var succeeded: Bool { status == 0 && !signalled && !timedOut }
    }

    /// Why a run that had to succeed did not: the command and its stderr.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Runs `executable` (a path, or a name looked up on `PATH`) with `arguments`, blocking the calling
    /// thread: for synchronous callers (sweeps run on threads of their own); async code uses the async form.
    /// - Parameters:
    ///   - environment: Variables to set on top of this process's environment.
    ///   - input: Bytes for its standard input (none: it reads an empty stdin).
    ///   - standardOutput: Where its stdout goes instead of being collected (e.g. `/dev/full`).
    ///   - timeout: Seconds before it is sent SIGTERM, then (5 s later) SIGKILL.
    ///   - currentDirectory: Where it runs (default: this process's), so relative outputs land there.
    /// - Throws: When it cannot be started.
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           input: Data? = nil, standardOutput: FileHandle? = nil,
                           timeout: Double = 600, currentDirectory: URL? = nil) throws -> Outcome {
        let files = try Captured()
        defer { files.remove() }
        let start = Date()
        let child = try files.start(executable, arguments, environment: environment, input: input,
                                    standardOutput: standardOutput, currentDirectory: currentDirectory)
        if let end = child.waitBlocking(seconds: timeout) { return files.outcome(end, timedOut: false, since: start) }
        child.signal(SIGTERM)
        if let end = child.waitBlocking(seconds: 5) { return files.outcome(end, timedOut: true, since: start) }
        child.signal(SIGKILL)
        let end = child.waitBlocking(seconds: .infinity) ?? Child.Termination(status: SIGKILL, signalled: true)
        return files.outcome(end, timedOut: true, since: start)
    }

    /// ``run(_:_:environment:input:standardOutput:timeout:currentDirectory:)`` from async code: waiting holds
    /// no thread (``Child`` hears the end from Foundation), the time limit runs on `clock` (a ``ManualClock`` in
    /// the tests of the limit itself), and at most ``concurrentChildren`` programs run at once this way, so a
    /// suite of parallel tests cannot start dozens of analyses together.
    package static func run<C: Clock>(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                                      input: Data? = nil, standardOutput: FileHandle? = nil,
                                      timeout: Double = 600, currentDirectory: URL? = nil,
                                      clock: C = ContinuousClock()) async throws -> Outcome where C.Duration == Duration {
        let output = standardOutput.map(SendableHandle.init)
        return try await slots.holding {
            let files = try Captured()
            defer { files.remove() }
            let start = Date()
            let child = try files.start(executable, arguments, environment: environment, input: input,
                                        standardOutput: output?.handle, currentDirectory: currentDirectory)
            if let end = await child.exit(within: .seconds(timeout), clock: clock) {
                return files.outcome(end, timedOut: false, since: start)
            }
            let end = await child.stop(SIGTERM, grace: .seconds(5), clock: clock)
            return files.outcome(end, timedOut: true, since: start)
        }
    }

    /// The temporary files a run's stdout and stderr go to (a chatty child never fills a pipe), removed after.
    private struct Captured {
        let folder: URL, out: URL, err: URL
        let outHandle: FileHandle, errHandle: FileHandle

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("swingmaster-subprocess-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            out = folder.appendingPathComponent("stdout")
            err = folder.appendingPathComponent("stderr")
            // A file that cannot be made fails just below, where it is opened.
            _ = FileManager.default.createFile(atPath: out.path, contents: nil)
            _ = FileManager.default.createFile(atPath: err.path, contents: nil)
            outHandle = try FileHandle(forWritingTo: out)
            errHandle = try FileHandle(forWritingTo: err)
        }

        func start(_ executable: String, _ arguments: [String], environment: [String: String], input: Data?,
                   standardOutput: FileHandle?, currentDirectory: URL?) throws -> Child {
            let child = try Child(executable, arguments, environment: environment, input: input == nil ? .empty : .pipe,
                                  output: .handle(standardOutput ?? outHandle), errors: .handle(errHandle),
                                  currentDirectory: currentDirectory)
            if let input { child.send(input) }
            return child
        }

        func outcome(_ end: Child.Termination, timedOut: Bool, since start: Date) -> Outcome {
            Outcome(status: end.status, signalled: end.signalled, timedOut: timedOut,
                    stdout: (try? Data(contentsOf: out)) ?? Data(),
                    stderr: String(decoding: (try? Data(contentsOf: err)) ?? Data(), as: UTF8.self),
                    seconds: Date().timeIntervalSince(start), cpuSeconds: end.cpuSeconds)
        }

        func remove() {
            try? outHandle.close()
            try? errHandle.close()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// Runs `work` (e.g. a command run inside the test process) once one of the child processes' slots is free,
    /// so it counts among the ``concurrentChildren`` heavy runs at once.
    package static func holdingSlot<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        try await slots.holding(work)
    }

    /// Programs the async ``run(_:_:environment:input:standardOutput:timeout:currentDirectory:clock:)`` runs at
    /// once: one per core.
    package static let concurrentChildren = max(2, ProcessInfo.processInfo.activeProcessorCount)
    static let slots = Slots(concurrentChildren)

    /// A file handle passed to the thread that waits (`FileHandle` is not `Sendable` on every platform).
    struct SendableHandle: @unchecked Sendable { let handle: FileHandle }

    /// At most `count` holders at once; the others wait their turn, in order.
    actor Slots {
        private var free: Int
        private var waiting: [CheckedContinuation<Void, Never>] = []
        init(_ count: Int) { free = count }

        /// Runs `work` once a slot is free, and frees it after.
        func holding<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
            if free > 0 { free -= 1 } else { await withCheckedContinuation { waiting.append($0) } }
            defer { release() }
            return try await work()
        }

        private func release() {
            if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
        }
    }

    /// Runs a program that must succeed and returns its standard output.
    /// - Throws: ``Failure`` with the command and its stderr when it fails.
    package static func output(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                              input: Data? = nil, timeout: Double = 600) throws -> Data {
        try succeeded(try run(executable, arguments, environment: environment, input: input, timeout: timeout), executable, arguments)
    }

    /// ``output(_:_:environment:input:timeout:)`` from async code, through the async ``run(_:_:environment:input:standardOutput:timeout:currentDirectory:clock:)``.
    package static func output(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                              input: Data? = nil, timeout: Double = 600) async throws -> Data {
        try succeeded(try await run(executable, arguments, environment: environment, input: input, timeout: timeout), executable, arguments)
    }

    /// `outcome`'s standard output when it succeeded.
    private static func succeeded(_ outcome: Outcome, _ executable: String, _ arguments: [String]) throws -> Data {
        guard outcome.succeeded else {
            let command = ([executable] + arguments).joined(separator: " ").prefix(300)
            throw Failure(description: "\(command) failed (status \(outcome.status)\(outcome.timedOut ? ", timed out" : "")): \(outcome.stderr)")
        }
        return outcome.stdout
    }
}
