import ArgumentParser
import Foundation

/// Range checks for numeric options, called from `validate()` so that a bad value stops the command
/// before any file is opened, model loaded or session stored (exit 64 with one sentence). Every bound is
/// named here, so `--help` text, docs and tests can cite it.
enum OptionCheck {
    /// Longest time any time option may name, seconds (about 11.6 days — longer than any video; it keeps
    /// sample and frame arithmetic far inside `Int`).
    static let maxSeconds = 1_000_000.0
    /// Upper bound of thread and worker counts: more than 4 per core only adds contention.
    static var maxThreads: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) * 4 }
    /// Upper bound of frame counts and strides.
    static let maxFrames = 100_000
    /// Upper bound of image sides, pixels.
    static let maxImageSide = 16_384

    /// Throws unless `value` is nil or a finite number in `range` (and, with `positive`, above 0).
    static func number(_ value: Double?, _ flag: String, _ range: ClosedRange<Double>, positive: Bool = false) throws {
        guard let value else { return }
        let ok = value.isFinite && range.contains(value) && (!positive || value > 0)
        guard ok else {
            let lower = positive ? "above \(format(range.lowerBound))" : "from \(format(range.lowerBound))"
            throw ValidationError("\(flag) must be a number \(lower) to \(format(range.upperBound)) (got \(value)).")
        }
    }

    /// Throws unless `value` is nil or in `range`.
    static func integer(_ value: Int?, _ flag: String, _ range: ClosedRange<Int>) throws {
        guard let value, !range.contains(value) else { return }
        throw ValidationError("\(flag) must be a whole number from \(range.lowerBound) to \(range.upperBound) (got \(value)).")
    }

    /// Thread / worker counts: 0 (automatic) up to ``maxThreads``.
    static func threads(_ value: Int?, _ flag: String) throws { try integer(value, flag, 0...maxThreads) }

    private static func format(_ v: Double) -> String { String(format: "%g", v) }
}
