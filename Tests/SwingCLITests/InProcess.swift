import Foundation
import SwingCLI
import SwingTestSupport

/// Runs `swingmaster` commands inside the test process (``SwingmasterCommand/run(arguments:environment:capture:)``):
/// the status, stdout and stderr a child process gives, without starting one, `environment` on top of this
/// process's as a child would get it. One of ``Subprocess``'s slots is held while it runs, so in-process
/// analyses and child processes together stay at one per core.
///
/// What only a process shows — signals, a full or closed stdout, the working folder, stdin, two processes on
/// one store — is tested on the binary (``SwingmasterBinary``; the SwingBinaryTests target and the suites
/// here that say so).
enum InProcess {
    /// Runs `arguments` (without the program's name) and returns how it ended and what it printed.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> SwingmasterBinary.Output {
        try await Subprocess.holdingSlot {
            let capture = ConsoleCapture()
            let started = Date()
            let status = await SwingmasterCommand.run(arguments: arguments, environment: environment, capture: capture)
            return SwingmasterBinary.Output(status: status, stdout: capture.standardOutput, stderr: capture.standardError,
                                            seconds: Date().timeIntervalSince(started))
        }
    }
}
