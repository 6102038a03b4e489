import Foundation
import SwingCore

/// A type-erased interpreter whose results come out as JSON-encodable values.
package struct AnyDetectionInterpreter: Sendable {
    /// The CLI name.
    package let name: String
    private let frameBody: @Sendable (InterpreterFrame) -> any Encodable & Sendable
    private let videoBody: @Sendable ([InterpreterFrame]) -> any Encodable & Sendable
    /// For an interpreter that counts tracked objects crossing a line (the counter), how to count them
    /// frame by frame on a live camera; `nil` for the others.
    package let lineCounting: LineCounting?

    /// How a live stream counts line crossings for an interpreter: a fresh counter, and the frame's
    /// tracked objects the interpreter counts.
    package struct LineCounting: Sendable {
        /// A counter for the configured line, with nothing counted yet.
        package let makeCounter: @Sendable () -> LineCrossings
        /// The frame's tracked objects that count (threshold and label filter applied).
        package let objects: @Sendable (InterpreterFrame) -> [LineCrossings.Object]
    }

    /// Wraps a concrete interpreter.
    package init<I: DetectionInterpreter>(_ interpreter: I) {
        name = interpreter.name
        frameBody = { interpreter.interpret($0) }
        videoBody = { interpreter.interpretVideo($0) }
        if let counter = interpreter as? CounterInterpreter {
            lineCounting = LineCounting(makeCounter: { counter.configuration.crossingCounter() },
                                        objects: { counter.trackedObjects($0) })
        } else {
            lineCounting = nil
        }
    }

    /// Interprets one frame.
    package func interpret(_ frame: InterpreterFrame) -> any Encodable & Sendable { frameBody(frame) }

    /// Interprets a sequence of frames with the interpreter's video-level hook.
    package func interpretVideo(_ frames: [InterpreterFrame]) -> any Encodable & Sendable { videoBody(frames) }

    /// Interprets a sequence of frames and encodes the video result as JSON (sorted keys).
    /// - Throws: ``InterpreterError/encodingFailed(_:)`` if the result cannot be encoded (e.g. NaN).
    package func interpretVideoJSON(_ frames: [InterpreterFrame], pretty: Bool = true) throws -> Data {
        let enc = JSONEncoder()
        enc.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys]
        do { return try enc.encode(AnyEncodable(interpretVideo(frames))) } catch {
            throw InterpreterError.encodingFailed(String(describing: error))
        }
    }
}

/// Encodes an existential (an interpreter's result) through its concrete type.
package struct AnyEncodable: Encodable {
    let value: any Encodable
    /// Wraps `value`.
    package init(_ value: any Encodable) { self.value = value }
    package func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

/// Picks an interpreter by its CLI name (`detect --interpret NAME`, `interpret --interpreter NAME`).
///
/// Adding an interpreter is one new ``DetectionInterpreter`` type plus one line in ``standard``.
package struct InterpreterRegistry: Sendable {
    /// One registered interpreter.
    package struct Entry: Sendable {
        /// CLI name.
        package let name: String
        /// One-line help.
        package let summary: String
        let make: @Sendable (Data?) throws -> AnyDetectionInterpreter

        /// Registers `type`, configured from an optional JSON object (missing keys take defaults).
        package static func entry<I: DetectionInterpreter>(_ type: I.Type, name: String, summary: String) -> Entry {
            Entry(name: name, summary: summary) { json in
                guard let json, !json.isEmpty else {
                    return AnyDetectionInterpreter(I(configuration: try JSONDecoder().decode(I.Configuration.self, from: Data("{}".utf8))))
                }
                do {
                    return AnyDetectionInterpreter(I(configuration: try JSONDecoder().decode(I.Configuration.self, from: json)))
                } catch let error as DecodingError {
                    throw InterpreterError.invalidConfiguration(name, InterpreterRegistry.reason(error))
                } catch {
                    throw InterpreterError.invalidConfiguration(name, String(describing: error))
                }
            }
        }
    }

    /// What is wrong with an option, in words: the option's name and the decoder's sentence, not the
    /// decoder's type dump.
    static func reason(_ error: DecodingError) -> String {
        func key(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let c):
            return c.codingPath.isEmpty ? "the options are not a JSON object" : "\(key(c.codingPath)): \(c.debugDescription)"
        case .keyNotFound(let k, let c): return "\(key(c.codingPath + [k])) is missing"
        case .typeMismatch(_, let c): return "\(key(c.codingPath)) has the wrong type"
        case .valueNotFound(_, let c): return "\(key(c.codingPath)) is null"
        @unknown default: return "the options could not be read"
        }
    }

    /// Registered entries, in help order.
    package let entries: [Entry]

    /// Creates a registry (tests and apps can add their own entries).
    package init(_ entries: [Entry]) { self.entries = entries }

    /// The built-in interpreters.
    package static let standard = InterpreterRegistry([
        .entry(PassthroughInterpreter.self, name: "passthrough",
               summary: "raw detections, boxes also normalised"),
        .entry(CounterInterpreter.self, name: "counter", summary: "counts per label per frame and over a video"),
        .entry(PokerHandInterpreter.self, name: "poker", summary: "best poker hand from card labels"),
        .entry(TennisContactInterpreter.self, name: "tennis-contact",
               summary: "racket–ball contact frames merged into events"),
    ])

    /// All CLI names.
    package var names: [String] { entries.map(\.name) }

    /// The interpreter registered under `name`.
    /// - Parameters:
    ///   - name: a CLI name such as `poker`.
    ///   - configuration: optional JSON object with the interpreter's options.
    /// - Throws: ``InterpreterError/unknownInterpreter(_:known:)`` or ``InterpreterError/invalidConfiguration(_:_:)``.
    package func interpreter(named name: String, configuration: Data? = nil) throws -> AnyDetectionInterpreter {
        guard let e = entries.first(where: { $0.name == name.lowercased() }) else {
            throw InterpreterError.unknownInterpreter(name, known: names)
        }
        return try e.make(configuration)
    }
}

/// Errors from interpreting detections (the ``CategorizedError`` shape; all exit 53).
package struct InterpreterError: CategorizedError {
    /// The category of failure.
    package enum Kind: Sendable, Equatable { case unknownInterpreter, invalidConfiguration, invalidDetections, encodingFailed }

    /// The category of failure.
    package let kind: Kind
    /// One clear sentence.
    package let message: String

    /// Creates an error of `kind` saying `message`.
    package init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }

    /// No interpreter is called `name`.
    package static func unknownInterpreter(_ name: String, known: [String]) -> InterpreterError {
        InterpreterError(.unknownInterpreter, "Unknown interpreter '\(name)'; choose one of: \(known.joined(separator: ", ")).")
    }
    /// The configuration of interpreter `name` is unusable because of `reason`.
    package static func invalidConfiguration(_ name: String, _ reason: String) -> InterpreterError {
        InterpreterError(.invalidConfiguration, "Invalid configuration for interpreter '\(name)': \(endingWithPeriod(reason))")
    }
    /// The detections document is unreadable because of `reason`.
    package static func invalidDetections(_ reason: String) -> InterpreterError {
        InterpreterError(.invalidDetections, "Cannot read detections: \(endingWithPeriod(reason))")
    }
    /// The result could not be encoded because of `reason`.
    package static func encodingFailed(_ reason: String) -> InterpreterError {
        InterpreterError(.encodingFailed, "Cannot encode the interpreter result: \(endingWithPeriod(reason))")
    }

    package var statusCode: Int32 { StatusCode.invalidInterpreterInput }
}
