import Foundation
import SwingCore

/// Small helpers shared by the subcommands for writing to stdout/stderr.
enum Console {
    /// Writes a line to standard error.
    static func warn(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// Encodes `value` as pretty, key-sorted JSON (dates as ISO 8601) and prints it to stdout.
    static func printJSON<T: Encodable>(_ value: T) throws {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        enc.dateEncodingStrategy = .iso8601   // model usage dates, detection sessions
        let data = try enc.encode(value)
        FileHandle.standardOutput.write(data)
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
}

/// A throttled single-line progress bar on stderr, one line per stage; silent when stderr is not a
/// terminal unless `SWINGMASTER_PROGRESS=1`.
final class ProgressBar: @unchecked Sendable {
    private let enabled: Bool
    private let lock = NSLock()
    private var stage = ""
    private var lastDrawn = -1

    private let fixedLabel: String

    init(label: String = "", force: Bool = false) {
        self.fixedLabel = label
        self.enabled = force || isatty(2) != 0 || ProcessInfo.processInfo.environment["SWINGMASTER_PROGRESS"] == "1"
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
            if !stage.isEmpty { FileHandle.standardError.write(Data("\n".utf8)) }
            stage = newStage
            lastDrawn = -1
        }
        guard pct != lastDrawn else { return }
        lastDrawn = pct
        let width = 30
        let filled = pct * width / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let label = stage.padding(toLength: max(20, stage.count), withPad: " ", startingAt: 0)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(pct)%".utf8))
        if pct == 100 { FileHandle.standardError.write(Data("\n".utf8)); stage = "" }
    }
}

extension Console {
    /// Writes `data` to `path`, or to stdout when `path` is "-".
    /// - Throws: `CLIError` when the file cannot be written.
    static func write(_ data: Data, to path: String) throws {
        if path == "-" {
            FileHandle.standardOutput.write(data)
            FileHandle.standardOutput.write(Data("\n".utf8))
            return
        }
        do { try data.write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw CLIError(statusCode: StatusCode.outputWriteFailed, description: "cannot write \(path): \(error.localizedDescription)")
        }
    }
}

/// An error raised by the command layer itself.
struct CLIError: UserFacingError {
    var statusCode: Int32
    var description: String
}

/// Cancels work on Ctrl-C (SIGINT) instead of killing the process, so nothing is half-written.
final class InterruptWatcher: @unchecked Sendable {
    private let source: DispatchSourceSignal

    init(_ onInterrupt: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            FileHandle.standardError.write(Data("\ninterrupted — stopping, nothing will be stored\n".utf8))
            onInterrupt()
        }
        source.resume()
    }

    func stop() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}

/// Remembers a cancellation request that may arrive before the work to cancel exists.
final class CancellationBox: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var action: (@Sendable () -> Void)?

    var isCancelled: Bool { lock.lock(); defer { lock.unlock() }; return cancelled }

    func cancel() {
        lock.lock(); cancelled = true; let a = action; lock.unlock()
        a?()
    }

    /// Runs `action` on cancellation (immediately if already cancelled).
    func attach(_ action: @escaping @Sendable () -> Void) {
        lock.lock(); self.action = action; let c = cancelled; lock.unlock()
        if c { action() }
    }
}
