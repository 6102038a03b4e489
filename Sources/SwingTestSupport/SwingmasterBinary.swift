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
        /// CPU seconds the binary used, where the system says (``Child/Termination/cpuSeconds``): what a test that
        /// compares two runs' costs compares, since wall-clock time grows with whatever else the machine runs.
        package var cpuSeconds: Double?

        /// An outcome (what a command run inside the test process gave, too).
        package init(status: Int32, stdout: Data, stderr: String, seconds: Double, cpuSeconds: Double? = nil) {
            self.status = status; self.stdout = String(decoding: stdout, as: UTF8.self); self.stderr = stderr
            self.data = stdout; self.seconds = seconds; self.cpuSeconds = cpuSeconds
        }
    }

    /// Runs the binary with `arguments` (the test's environment plus `environment`) to its end, through
    /// ``Subprocess`` (the one runner: output to files, stdin empty, killed after `timeout` seconds).
    package static func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 600) throws -> Output {
        let o = try Subprocess.run(path, arguments, environment: environment, timeout: timeout)
        return Output(status: o.status, stdout: o.stdout, stderr: o.stderr, seconds: o.seconds, cpuSeconds: o.cpuSeconds)
    }

    /// ``run(_:environment:timeout:)`` from async code, through the async ``Subprocess`` (no thread of the
    /// cooperative pool held while the binary runs).
    package static func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 600) async throws -> Output {
        let o = try await Subprocess.run(path, arguments, environment: environment, timeout: timeout)
        return Output(status: o.status, stdout: o.stdout, stderr: o.stderr, seconds: o.seconds, cpuSeconds: o.cpuSeconds)
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
    /// 50 ms for up to 60 s) and `delay` seconds more have passed — the one way the tests press Ctrl-C. The
    /// run waits its turn among the async ``Subprocess`` runs; waiting holds no thread.
    package static func interrupt(_ arguments: [String], environment: [String: String] = [:], delay: Double = 0,
                                  ready: @escaping @Sendable () -> Bool = { true }) async throws -> Interrupted {
        try await Subprocess.holdingSlot {
            let child = try Child(path, arguments, environment: environment, errors: .pipe)
            async let stderr = child.errorsToEnd()
            _ = await Poll.holds(within: .seconds(60)) { ready() || !child.isRunning }
            if delay > 0 { try? await Task.sleep(for: .seconds(delay)) }
            let wasRunning = child.isRunning
            child.signal(SIGINT)
            let end = await child.exit()
            return Interrupted(status: end.status, stderr: String(decoding: await stderr, as: UTF8.self), wasRunning: wasRunning)
        }
    }
}
