import Foundation
import SwingCore

/// The one way tests and benchmarks run another program (ffmpeg, Python, our own binary): output goes to
/// temporary files, so a chatty child can never fill a pipe and deadlock us, and a time limit kills a hang.
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

        /// Exited by itself with status 0.
        package var succeeded: Bool { status == 0 && !signalled && !timedOut }
    }

    /// Why a run that had to succeed did not: the command and its stderr.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Runs `executable` (a path, or a name looked up on `PATH`) with `arguments`.
    /// - Parameters:
    ///   - environment: Variables to set on top of this process's environment.
    ///   - input: Bytes for its standard input (none: it reads an empty stdin).
    ///   - standardOutput: Where its stdout goes instead of being collected (e.g. `/dev/full`).
    ///   - timeout: Seconds before it is sent SIGTERM, then SIGKILL.
    ///   - currentDirectory: Where it runs (default: this process's), so relative outputs land there.
    /// - Throws: When it cannot be started.
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           input: Data? = nil, standardOutput: FileHandle? = nil,
                           timeout: Double = 600, currentDirectory: URL? = nil) throws -> Outcome {
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("swingmaster-subprocess-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout"), errURL = scratch.appendingPathComponent("stderr")
        // A file that cannot be made fails just below, where it is opened.
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL), errHandle = try FileHandle(forWritingTo: errURL)
        defer { try? outHandle.close(); try? errHandle.close() }

        let process = Process()
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
        process.standardOutput = standardOutput ?? outHandle
        process.standardError = errHandle
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let start = Date()
        try process.run()
        if let input {
            // A writer thread, so a child that prints before it has read everything cannot block us.
            let writer = stdin.fileHandleForWriting
            Thread.detachNewThread {
                try? writer.write(contentsOf: input)
                try? writer.close()
            }
        }
        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            process.terminate()
            if exited.wait(timeout: .now() + 5) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                exited.wait()
            }
        }
        return Outcome(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                       timedOut: timedOut, stdout: (try? Data(contentsOf: outURL)) ?? Data(),
                       stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self),
                       seconds: Date().timeIntervalSince(start))
    }

    /// ``run(_:_:environment:input:standardOutput:timeout:currentDirectory:)`` from async code: the wait
    /// holds a thread of its own, never one of the cooperative pool's (one per core, shared by every test
    /// of the process), and at most ``concurrentChildren`` programs run at once this way, so a suite of
    /// parallel tests cannot start dozens of analyses together.
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           input: Data? = nil, standardOutput: FileHandle? = nil,
                           timeout: Double = 600, currentDirectory: URL? = nil) async throws -> Outcome {
        let output = standardOutput.map(SendableHandle.init)
        return try await slots.holding {
            try await BlockingWork.run("swingmaster.subprocess") {
                try run(executable, arguments, environment: environment, input: input, standardOutput: output?.handle,
                        timeout: timeout, currentDirectory: currentDirectory)
            }
        }
    }

    /// Runs `work` (e.g. a command run inside the test process) once one of the child processes' slots is free,
    /// so it counts among the ``concurrentChildren`` heavy runs at once.
    package static func holdingSlot<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        try await slots.holding(work)
    }

    /// Programs the async ``run(_:_:environment:input:standardOutput:timeout:currentDirectory:)`` runs at
    /// once: one per core, as many as the blocking waits it replaced could hold.
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

    /// ``output(_:_:environment:input:timeout:)`` from async code, through the async ``run(_:_:environment:input:standardOutput:timeout:currentDirectory:)``.
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
