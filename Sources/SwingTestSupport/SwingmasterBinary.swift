import Foundation
import SwingCore

/// Runs the real `swingmaster` binary: `SWINGMASTER_BIN` when set, else the one built beside this test
/// executable (so `swift test` and `--build-path .build-asan` each run the binary of their own build,
/// never a stale one from another), else `<package>/.build/debug/swingmaster`.
package enum SwingmasterBinary {
    static let packageRoot = TestFiles.packageRoot

    /// The binary the tests run.
    package static let path: String = {
        if let p = ProcessInfo.processInfo.environment["SWINGMASTER_BIN"], !p.isEmpty { return p }
        // The test executable is `<build>/debug/SwingmasterPackageTests.xctest` (Linux) or inside that
        // bundle (macOS): look beside it and one level up from the bundle.
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("swingmaster").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir.deleteLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/swingmaster").path
    }()

    /// What a run printed and how it ended.
    package struct Output: Sendable {
        package var status: Int32; package var stdout: String; package var stderr: String; package var data: Data
        /// Wall-clock seconds from the binary's start to its exit (not counting a wait for a free slot).
        package var seconds: Double

        /// An outcome (what a command run inside the test process gave, too).
        package init(status: Int32, stdout: Data, stderr: String, seconds: Double) {
            self.status = status; self.stdout = String(decoding: stdout, as: UTF8.self); self.stderr = stderr
            self.data = stdout; self.seconds = seconds
        }
    }

    /// Runs the binary with `arguments` (the test's environment plus `environment`) to its end, through
    /// ``Subprocess`` (the one runner: output to files, stdin empty, killed after `timeout` seconds).
    package static func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 600) throws -> Output {
        let o = try Subprocess.run(path, arguments, environment: environment, timeout: timeout)
        return Output(status: o.status, stdout: o.stdout, stderr: o.stderr, seconds: o.seconds)
    }

    /// ``run(_:environment:timeout:)`` from async code, through the async ``Subprocess`` (no thread of the
    /// cooperative pool held while the binary runs).
    package static func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 600) async throws -> Output {
        let o = try await Subprocess.run(path, arguments, environment: environment, timeout: timeout)
        return Output(status: o.status, stdout: o.stdout, stderr: o.stderr, seconds: o.seconds)
    }

    /// Runs the binary with `arguments` in `home` (as `SWINGMASTER_HOME` and the working folder), its output
    /// thrown away, killed after `timeout` seconds: what hostile-input sweeps run, thousands of times.
    package static func run(_ arguments: [String], home: URL, timeout: Double = 60) throws -> Subprocess.Outcome {
        try Subprocess.run(path, arguments, environment: ["SWINGMASTER_HOME": home.path],
                           standardOutput: FileHandle.nullDevice, timeout: timeout, currentDirectory: home)
    }

    /// ``run(_:home:timeout:)`` from async code, through the async ``Subprocess``.
    package static func run(_ arguments: [String], home: URL, timeout: Double = 60) async throws -> Subprocess.Outcome {
        try await Subprocess.run(path, arguments, environment: ["SWINGMASTER_HOME": home.path],
                                 standardOutput: FileHandle.nullDevice, timeout: timeout, currentDirectory: home)
    }

    /// What an interrupted run left: its status and stderr, and whether it was still running when the
    /// interrupt came (a run that ended first proves nothing about Ctrl-C).
    package struct Interrupted: Sendable { package var status: Int32; package var stderr: String; package var wasRunning: Bool }

    /// Runs the binary with `arguments` and sends it SIGINT (Ctrl-C) once `ready()` holds (polled every
    /// 50 ms for up to 60 s) and `delay` seconds more have passed — the one way the tests press Ctrl-C.
    package static func interrupt(_ arguments: [String], environment: [String: String] = [:], delay: Double = 0,
                          ready: () -> Bool = { true }) throws -> Interrupted {
        let (p, stderr) = try launch(arguments, environment: environment, stdout: FileHandle.nullDevice)
        let deadline = Date().addingTimeInterval(60)
        while !ready(), p.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        let wasRunning = p.isRunning
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        return Interrupted(status: p.terminationStatus, stderr: String(decoding: stderr.wait(), as: UTF8.self),
                           wasRunning: wasRunning)
    }

    /// ``interrupt(_:environment:delay:ready:)`` from async code: the run waits its turn among the async
    /// ``Subprocess`` runs and holds a thread of its own, never one of the cooperative pool's.
    package static func interrupt(_ arguments: [String], environment: [String: String] = [:], delay: Double = 0,
                                  ready: @escaping @Sendable () -> Bool = { true }) async throws -> Interrupted {
        try await Subprocess.slots.holding {
            try await BlockingWork.run("swingmaster.interrupt") {
                try interrupt(arguments, environment: environment, delay: delay, ready: ready)
            }
        }
    }

    /// Starts the binary with `arguments` (the test's environment plus `environment`) for ``interrupt``, which
    /// must signal it while it runs; its stderr is read on a background thread.
    private static func launch(_ arguments: [String], environment: [String: String], stdout: Any) throws -> (Process, StderrReader) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let err = Pipe()
        p.standardOutput = stdout
        p.standardError = err
        try p.run()
        return (p, StderrReader(err.fileHandleForReading))
    }

    /// Reads a pipe to its end on its own thread.
    final class StderrReader: @unchecked Sendable {   // `data` is written before `done` is signalled, read after
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)
        init(_ handle: FileHandle) {
            Thread { [self] in
                data = handle.readDataToEndOfFile()
                done.signal()
            }.start()
        }
        func wait() -> Data {
            done.wait()
            return data
        }
    }
}
