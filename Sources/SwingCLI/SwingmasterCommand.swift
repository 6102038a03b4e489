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
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as any UserFacingError {
            Console.err("error: \(error.description)\n")
            Foundation.exit(error.statusCode)
        } catch {
            exit(withError: error)
        }
    }
}
