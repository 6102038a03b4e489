import ArgumentParser
import SwingMedia

/// `--start` / `--duration`: the part of a video a command reads (`analyze`, `contacts`, `pose`).
struct TimeRangeOptions: ParsableArguments {
    @Option(help: "Start of the part to read, in seconds from the beginning of the file.")
    var start: Double?

    @Option(help: "Length of the part to read, in seconds (default: to the end).")
    var duration: Double?

    func validate() throws {
        try OptionCheck.number(start, "--start", 0...OptionCheck.maxSeconds)
        try OptionCheck.number(duration, "--duration", 0...OptionCheck.maxSeconds, positive: true)
    }

    /// The requested time range, or `nil` for the whole file.
    var range: TimeRange? {
        guard start != nil || duration != nil else { return nil }
        return TimeRange(start: start ?? 0, duration: duration)
    }
}

/// Flags shared by every command that reads a session video: trimming and the duration limits.
struct MediaRangeOptions: ParsableArguments {
    @OptionGroup var time: TimeRangeOptions

    @Option(name: .customLong("min-duration"), help: "Shortest accepted input, in seconds.")
    var minDuration: Double = MediaLimits().minDuration

    @Option(name: .customLong("max-duration"), help: "Longest accepted input, in seconds (use --start/--duration to trim longer files).")
    var maxDuration: Double = MediaLimits().maxDuration

    func validate() throws {
        try OptionCheck.number(minDuration, "--min-duration", 0...OptionCheck.maxSeconds)
        try OptionCheck.number(maxDuration, "--max-duration", 0...OptionCheck.maxSeconds, positive: true)
        if minDuration > maxDuration {
            throw ValidationError("--min-duration must be ≥ 0 and not above --max-duration.")
        }
    }

    /// The requested time range, or `nil` for the whole file.
    var range: TimeRange? { time.range }

    /// The duration limits with the user's overrides.
    var limits: MediaLimits {
        var l = MediaLimits()
        l.minDuration = minDuration
        l.maxDuration = maxDuration
        return l
    }
}
