import ArgumentParser
import Foundation
import SwingVision

/// `swingmaster interpret NAME --detections DETECTIONS.json` — runs an interpreter on saved
/// `detect --json` output and prints its video-level result as JSON.
struct InterpretCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "interpret",
        abstract: "Run a detection interpreter (passthrough, counter, poker, tennis-contact) on saved detections.",
        discussion: """
        DETECTIONS.json is the output of `swingmaster detect … --json` (use `-` for stdin). Options for the
        interpreter go in --config as a JSON object, e.g. '{"minimumConfidence": 0.5}'.
        """
    )

    @Argument(help: "Interpreter name: \(InterpreterRegistry.standard.names.joined(separator: ", ")).")
    var name: String

    @Option(name: .long, help: "Path to a `detect --json` file, or - for stdin.")
    var detections: String

    @Option(name: .long, help: "Interpreter options as a JSON object (missing keys keep their defaults).")
    var config: String?

    func validate() throws {
        guard InterpreterRegistry.standard.names.contains(name.lowercased()) else {
            throw ValidationError("Unknown interpreter '\(name)'; choose one of: "
                                  + InterpreterRegistry.standard.names.joined(separator: ", "))
        }
    }

    func run() throws {
        let data: Data
        if detections == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let d = FileManager.default.contents(atPath: detections) else {
                throw InterpreterError.invalidDetections("cannot read the file \(detections)")
            }
            data = d
        }
        let frames = try DetectionsDocument.frames(from: data)
        let interpreter = try InterpreterRegistry.standard.interpreter(named: name, configuration: config.map { Data($0.utf8) })
        try Console.out(try interpreter.interpretVideoJSON(frames), newline: true)
            }
}
