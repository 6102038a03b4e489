import ArgumentParser
import Foundation
import SwingCore

/// The `swingmaster` root command. Subcommands live one per file; the work they start lives in the
/// library modules so tests can call it directly.
package struct SwingmasterCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "swingmaster",
        abstract: "Tennis contact-point analytics and a composable YOLO / BlazePose vision engine.",
        version: "0.1.0",
        subcommands: SubcommandRegistry.all
    )

    package init() {}

    /// Parses `CommandLine.arguments`, runs the command, and exits with the error's status code on failure
    /// (`main.swift` calls this; a bare `SwingmasterCommand.main()` there would resolve to ArgumentParser's
    /// synchronous `ParsableCommand.main()`, which never maps errors to exit codes).
    package static func runAndExit() async {
        // A closed pipe must be a write error we report (exit 17), not a silent SIGPIPE death.
        signal(SIGPIPE, SIG_IGN)
        Foundation.exit(await run(arguments: Array(CommandLine.arguments.dropFirst())))
    }

    /// Parses `arguments`, runs the command and returns its exit status, having printed what the process would
    /// print: a ``UserFacingError`` as its one sentence and its code, help and usage errors as ArgumentParser
    /// words them (help on stdout with 0, a usage error on stderr with 64).
    package static func run(arguments: [String]) async -> Int32 {
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch let error as any UserFacingError {
            Console.err("error: \(error.description)\n")
            return error.statusCode
        } catch {
            let code = exitCode(for: error).rawValue
            let message = fullMessage(for: error)
            if !message.isEmpty {
                if code == 0 { try? Console.line(message) } else { Console.err(message + "\n") }
            }
            return code
        }
    }

    /// ``run(arguments:)`` inside this process, as a child process would run it: `environment` on top of this
    /// process's (``ProcessEnvironment``), its stdout and stderr collected in `capture` instead of printed.
    /// Tests run commands this way beside each other; what only a process shows (signals, a full stdout, the
    /// working folder, stdin) is tested on the binary.
    package static func run(arguments: [String], environment: [String: String], capture: ConsoleCapture) async -> Int32 {
        await ProcessEnvironment.$overrides.withValue(environment) {
            await Console.$capture.withValue(capture) { await run(arguments: arguments) }
        }
    }
}
