import Foundation

/// Small helpers shared by the subcommands for writing to stdout/stderr.
enum Console {
    /// Writes a line to standard error.
    static func warn(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// Encodes `value` as pretty, key-sorted JSON and prints it to stdout.
    static func printJSON<T: Encodable>(_ value: T) throws {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try enc.encode(value)
        FileHandle.standardOutput.write(data)
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
}

/// A throttled single-line progress bar on stderr; silent when stderr is not a terminal
/// unless `force` is set.
final class ProgressBar: @unchecked Sendable {
    private let label: String
    private let enabled: Bool
    private let lock = NSLock()
    private var lastDrawn = -1

    init(label: String, force: Bool = false) {
        self.label = label
        self.enabled = force || isatty(2) != 0
    }

    /// Draws `fraction` (0…1); redraws only when the whole percentage changes.
    func update(_ fraction: Double) {
        guard enabled else { return }
        let pct = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        lock.lock(); defer { lock.unlock() }
        guard pct != lastDrawn else { return }
        lastDrawn = pct
        let width = 30
        let filled = pct * width / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(pct)%".utf8))
    }

    /// Finishes the line.
    func finish() {
        guard enabled else { return }
        update(1)
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
