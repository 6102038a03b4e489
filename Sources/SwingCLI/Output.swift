import Foundation
import SwingCore

/// Small helpers shared by the subcommands for writing to stdout/stderr.
///
/// Every byte for stdout goes through ``out(_:newline:)`` (commands do not call `print`), which uses
/// Foundation's throwing `write(contentsOf:)`: a failed write (a full disk, a closed pipe) becomes an
/// error with the output-error code instead of the trap of the non-throwing `FileHandle.write(_:)`.
enum Console {
    /// Where a command run inside another process writes instead of the process's stdout and stderr
    /// (``SwingmasterCommand/run(arguments:environment:capture:)``); `nil`: the process's own.
    @TaskLocal static var capture: ConsoleCapture?

    /// Writes `data` (and a newline) to standard output.
    /// - Throws: `CLIError` with the output-error code when the bytes could not be written.
    static func out(_ data: Data, newline: Bool = false) throws {
        let bytes = newline ? data + Data([0x0A]) : data
        if let capture {
            capture.append(bytes, error: false)
            return
        }
        do {
            try FileHandle.standardOutput.write(contentsOf: bytes)
        } catch {
            throw outputError(error)
        }
    }

    /// Writes `text` and a newline (unless `terminator` says otherwise) to standard output.
    /// - Throws: `CLIError` with the output-error code when the text could not be written.
    static func line(_ text: String, terminator: String = "\n") throws {
        try out(Data((text + terminator).utf8))
    }

    /// Writes text to standard error (to `capture` when given, else to the bound ``capture`` or the process's).
    /// A failure there has nowhere to be reported, so it is ignored.
    static func err(_ text: String, to capture: ConsoleCapture? = Console.capture) {
        if let capture {
            capture.append(Data(text.utf8), error: true)
            return
        }
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }

    private static func outputError(_ error: any Error) -> CLIError {
        let reason = (error as NSError).localizedDescription
        return CLIError(.outputWriteFailed, "Cannot write to standard output (\(reason)); the output is incomplete.")
    }

    /// Writes a line to standard error.
    static func warn(_ message: String) {
        Console.err(message + "\n")
    }

    /// Encodes `value` as pretty, key-sorted JSON (dates as ISO 8601) and prints it to stdout.
    static func printJSON<T: Encodable>(_ value: T) throws {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        enc.dateEncodingStrategy = .iso8601   // model usage dates, detection sessions
        let data = try enc.encode(value)
        try Console.out(data, newline: true)
            }
}

/// What a command run in-process printed (``Console/capture``): the bytes for stdout and the text for stderr,
/// appended from any thread.
package final class ConsoleCapture: @unchecked Sendable {   // `out` and `err` guarded by `lock`
    private let lock = NSLock()
    private var out = Data(), err = Data()

    /// Nothing printed yet.
    package init() {}

    func append(_ data: Data, error: Bool) {
        lock.lock(); defer { lock.unlock() }
        if error { err.append(data) } else { out.append(data) }
    }

    /// Everything printed to standard output so far.
    package var standardOutput: Data { lock.lock(); defer { lock.unlock() }; return out }
    /// Everything printed to standard error so far, as text.
    package var standardError: String { lock.lock(); defer { lock.unlock() }; return String(decoding: err, as: UTF8.self) }
}

/// A throttled single-line progress bar on stderr, one line per stage; silent when stderr is not a
/// terminal unless `SWINGMASTER_PROGRESS=1`.
final class ProgressBar: @unchecked Sendable {
    private let enabled: Bool
    /// The stderr it draws on, taken where it was made (it is drawn from the workers' threads).
    private let capture = Console.capture
    private let lock = NSLock()
    private var stage = ""
    private var lastDrawn = -1

    private let fixedLabel: String

    init(label: String = "", force: Bool = false) {
        self.fixedLabel = label
        self.enabled = force || (Console.capture == nil && isatty(2) != 0) || ProcessEnvironment.current["SWINGMASTER_PROGRESS"] == "1"
    }

    /// Draws `fraction` for the bar's own label (single-stage use).
    func update(_ fraction: Double) { update(stage: fixedLabel, fraction) }

    /// Completes the single-stage bar.
    func finish() { update(stage: fixedLabel, 1) }

    /// A `ProgressHandler` that draws one bar per stage.
    static func stagedHandler() -> ProgressHandler {
        let bar = ProgressBar()
        return { stage, fraction in bar.update(stage: stage, fraction) }
    }

    /// Draws `fraction` (0…1) for `stage`; redraws only when the stage or whole percentage changes.
    func update(stage newStage: String, _ fraction: Double) {
        guard enabled else { return }
        let pct = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        lock.lock(); defer { lock.unlock() }
        if newStage != stage {
            if !stage.isEmpty { Console.err("\n", to: capture) }
            stage = newStage
            lastDrawn = -1
        }
        guard pct != lastDrawn else { return }
        lastDrawn = pct
        let width = 30
        let filled = pct * width / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let label = stage.padding(toLength: max(20, stage.count), withPad: " ", startingAt: 0)
        Console.err("\r\(label) [\(bar)] \(pct)%", to: capture)
        if pct == 100 { Console.err("\n", to: capture); stage = "" }
    }
}

extension Console {
    /// Writes `data` to `path`, or to stdout when `path` is "-".
    /// - Throws: `CLIError` when the file cannot be written.
    static func write(_ data: Data, to path: String) throws {
        if path == "-" {
            try Console.out(data, newline: true)
            return
        }
        do { try data.write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw CLIError.cannotWrite(path, error.localizedDescription)
        }
    }
}

/// An error raised by the command layer itself (the engine's modules have their own).
struct CLIError: CategorizedError {
    enum Kind: Sendable, Equatable {
        /// An input file named on the command line is missing or unreadable.
        case fileNotFound
        /// An output (a file or standard output) could not be written.
        case outputWriteFailed
        /// A value is out of range or does not fit the model it is used with.
        case invalidParameter
        /// `--classes` names a class the model does not have.
        case invalidClassFilter
        /// Ctrl-C stopped the command.
        case cancelled
    }

    let kind: Kind
    let message: String

    init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }

    var statusCode: Int32 {
        switch kind {
        case .fileNotFound: StatusCode.fileNotFound
        case .outputWriteFailed: StatusCode.outputWriteFailed
        case .invalidParameter: StatusCode.invalidParameter
        case .invalidClassFilter: StatusCode.invalidClassFilter
        case .cancelled: StatusCode.cancelled
        }
    }

    /// `path` (named by `flag`, when there is one) cannot be written, because `reason`.
    static func cannotWrite(_ path: String, flag: String? = nil, _ reason: String) -> CLIError {
        CLIError(.outputWriteFailed, "Cannot write \(flag.map { "\($0) " } ?? "")\(path): \(reason).")
    }

    /// Reads an input file named on the command line.
    /// - Throws: ``Kind/fileNotFound`` (status 10) when it is missing or unreadable.
    /// At most ``maximumInputBytes`` are read: a 10-minute pose track at 60 fps is about 150 MB, and an
    /// endless input (`/dev/zero`, a pipe that never closes its end) must not fill memory.
    static func read(_ path: String) throws -> Data {
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIError(.fileNotFound, "The file \(path) does not exist.")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CLIError(.fileNotFound, "The file \(path) could not be read.")
        }
        defer { try? handle.close() }
        var data = Data()
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                data.append(chunk)
                guard data.count <= maximumInputBytes else {
                    throw CLIError(.fileNotFound, "The file \(path) is larger than \(maximumInputBytes / 1_000_000) MB, more than any pose track or contacts file; it was not read.")
                }
            }
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError(.fileNotFound, "The file \(path) could not be read: \(endingWithPeriod(error.localizedDescription))")
        }
        return data
    }

    /// The largest input file ``read(_:)`` accepts.
    static let maximumInputBytes = 512_000_000
}

extension Console {
    /// ``BlockingWork/run(_:cancellation:_:)`` with this task's ``capture`` bound on the work's thread too, so what
    /// the work prints goes where the command's own output goes.
    static func blocking<T: Sendable>(_ name: String, cancellation: Cancellation,
                                      _ work: @escaping @Sendable () throws -> T) async throws -> T {
        let capture = Console.capture
        return try await BlockingWork.run(name, cancellation: cancellation) { try Console.$capture.withValue(capture) { try work() } }
    }
}

/// Cancels work on Ctrl-C (SIGINT) instead of killing the process, so nothing is half-written.
final class InterruptWatcher: @unchecked Sendable {
    private let source: DispatchSourceSignal

    init(_ onInterrupt: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            Console.err("\nInterrupted; stopping.\n")
            onInterrupt()
        }
        source.resume()
    }

    func stop() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}

extension InterruptWatcher {
    /// The sentence (and exit code 130) of a command stopped by Ctrl-C.
    static func cancelled(_ what: String) -> CLIError {
        CLIError(.cancelled, cancelledSentence(what, nothing: "written"))
    }

    /// Runs `work` on a thread of its own (``BlockingWork``) that Ctrl-C cancels (the work asks
    /// `Cancellation.isRequested` between frames and stops), so an interrupted command removes its temporary
    /// output instead of being killed with it half-written.
    /// - Throws: What `work` throws, or ``cancelled(_:)`` when interrupted.
    static func cancellable<T: Sendable>(_ what: String, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        let cancellation = Cancellation()
        let watcher = InterruptWatcher { cancellation.cancel() }
        defer { watcher.stop() }
        do {
            let value = try await Console.blocking("swingmaster.\(what)", cancellation: cancellation, work)
            if cancellation.isCancelled { throw cancelled(what) }
            return value
        } catch where cancellation.isCancelled {
            throw cancelled(what)
        }
    }
}

