/// Limits a session video must meet (the README's exit codes 13 and 14); all configurable.
package struct MediaLimits: Sendable, Equatable {
    /// Shortest accepted media (or selected range), seconds. Spec: 5 s.
    package var minDuration: Double
    /// Longest accepted media (or selected range), seconds. Spec: 10 min.
    package var maxDuration: Double
    /// Video height (displayed, after rotation: the shorter side) below which a warning is given. Spec: 720.
    package var minHeight: Int

    /// Creates limits with the documented defaults (5 s … 10 min, 720p).
    package init(minDuration: Double = 5, maxDuration: Double = 600, minHeight: Int = 720) {
        self.minDuration = minDuration; self.maxDuration = maxDuration; self.minHeight = minHeight
    }
}

/// Checks probed media against ``MediaLimits`` before any heavy work starts.
package enum MediaValidator {
    /// Validates `info` for a run over `range`.
    /// - Parameters:
    ///   - info: From ``MediaProbe/probe(_:)``.
    ///   - limits: Duration and resolution limits.
    ///   - requireAudio: Throw `.noAudioTrack` when the file has no audio.
    ///   - requireVideo: Throw `.noVideoTrack` when the file has no video.
    ///   - range: Optional trim; its length is what the duration limits apply to.
    /// - Returns: Warnings a user should see (e.g. resolution below 720p).
    /// - Throws: ``MediaError`` `.noAudioTrack`, `.noVideoTrack`, `.invalidTimeRange`, `.tooShort`, `.tooLong`.
    package static func validate(_ info: MediaInfo, limits: MediaLimits = MediaLimits(), requireAudio: Bool,
                                requireVideo: Bool, range: TimeRange? = nil) throws -> [String] {
        if requireAudio && info.audio == nil {
            throw MediaError(.noAudioTrack, "\(info.path) has no audio track; Swingmaster finds contacts from the sound of the ball.")
        }
        if requireVideo && info.video == nil { throw noVideoTrack(info) }
        let length = try selectedLength(info, range: range)
        if length < limits.minDuration {
            let what = range == nil ? "The video is" : "The selected range is"
            throw MediaError(.tooShort, "\(what) \(formatDuration(length)) long; Swingmaster needs at least \(formatDuration(limits.minDuration)).")
        }
        if length > limits.maxDuration {
            let what = range == nil ? "The video is" : "The selected range is"
            throw MediaError(.tooLong, "\(what) \(formatDuration(length)) long (limit \(formatDuration(limits.maxDuration))); trim it with --start and --duration or raise --max-duration.")
        }
        var warnings: [String] = []
        if let v = info.video {
            let shorter = min(v.width, v.height)
            if shorter < limits.minHeight {
                warnings.append("video is \(v.displaySize.width)×\(v.displaySize.height), below \(limits.minHeight)p; pose accuracy may suffer")
            }
        }
        return warnings
    }

    /// Validates a session video — sound (for the contacts) and picture (for the pose) both required — and
    /// hands back its video stream, so callers need no check of their own.
    /// - Parameters: as ``validate(_:limits:requireAudio:requireVideo:range:)``.
    /// - Returns: The video stream, and warnings a user should see.
    /// - Throws: ``MediaError`` `.noAudioTrack`, `.noVideoTrack`, `.invalidTimeRange`, `.tooShort`, `.tooLong`.
    package static func validateSession(_ info: MediaInfo, limits: MediaLimits = MediaLimits(),
                                       range: TimeRange? = nil) throws -> (video: VideoStreamInfo, warnings: [String]) {
        let warnings = try validate(info, limits: limits, requireAudio: true, requireVideo: true, range: range)
        guard let video = info.video else { throw noVideoTrack(info) }   // refused above; unwrapped once, here
        return (video, warnings)
    }

    private static func noVideoTrack(_ info: MediaInfo) -> MediaError {
        MediaError(.noVideoTrack, "\(info.path) has no video track; the analysis needs the player on video.")
    }

    /// Checks the span that actually decoded against the span the container states, since a file cut
    /// short (an interrupted copy or upload) still carries its full duration in the header.
    ///
    /// A shortfall of more than ``decodedShortfallTolerance(stated:)`` is reported as a warning; when the
    /// decoded span is below `limits.minDuration` the run is refused, as a short file would be.
    /// - Parameters:
    ///   - decoded: Seconds that decoded (e.g. ``AudioPCM/duration``).
    ///   - info: From ``MediaProbe/probe(_:)``.
    ///   - limits: The duration limits of ``validate(_:limits:requireAudio:requireVideo:range:)``.
    ///   - range: The run's trim, as given to `validate`.
    /// - Returns: A warning sentence when less decoded than stated.
    /// - Throws: ``MediaError`` `.tooShort` when less than `limits.minDuration` decoded.
    package static func checkDecoded(_ decoded: Double, info: MediaInfo, limits: MediaLimits = MediaLimits(),
                                    range: TimeRange? = nil) throws -> [String] {
        let stated = try selectedLength(info, range: range)
        guard stated.isFinite, decoded < stated - decodedShortfallTolerance(stated: stated) else { return [] }
        let what = range == nil ? "\(info.path) says it is \(formatDuration(stated)) long" : "The selected range is \(formatDuration(stated)) long"
        let but = "but only \(formatDuration(decoded)) could be decoded (the file is probably cut short)"
        if decoded < limits.minDuration {
            throw MediaError(.tooShort, "\(what) \(but); Swingmaster needs at least \(formatDuration(limits.minDuration)).")
        }
        return ["\(what) \(but); only that part was analysed"]
    }

    /// How much shorter than stated a decode may end without a warning: audio and video tracks and the
    /// container's duration commonly differ by a frame or an AAC packet, and encoders trim the end.
    package static func decodedShortfallTolerance(stated: Double) -> Double { max(0.5, 0.02 * stated) }

    /// Length in seconds of the part of the media a run will use, as the container states it.
    /// - Throws: ``MediaError`` `.invalidTimeRange` for a range outside the media.
    package static func selectedLength(_ info: MediaInfo, range: TimeRange?) throws -> Double {
        guard let range else { return info.duration }
        guard range.start.isFinite, range.start >= 0 else {
            throw MediaError(.invalidTimeRange, "--start must be zero or positive, not \(range.start).")
        }
        if let d = range.duration, !(d.isFinite && d > 0) {
            throw MediaError(.invalidTimeRange, "--duration must be positive, not \(d).")
        }
        guard range.start < info.duration else {
            throw MediaError(.invalidTimeRange, "--start \(formatDuration(range.start)) is past the end of the media (\(formatDuration(info.duration)) long).")
        }
        let available = info.duration - range.start
        return min(range.duration ?? available, available)
    }
}
