import CFFmpeg
import SwingCore

/// Decodes the primary video track into upright RGB frames, sequentially or by time window.
///
/// Frame times are the frames' presentation timestamps minus the media origin (the same origin
/// ``AudioExtractor`` uses, so a contact heard at t is seen at t). Frame indices count the decoded
/// frames from the start (0-based, presentation order; see ``FrameTimeline``), never `time × fps`:
/// phone footage drops and stretches frames. Not `Sendable`: use one reader per task; decoding itself
/// runs on FFmpeg's threads (by default `thread_count = 0`, one per core).
package final class VideoFrameReader {
    /// The stream being decoded (coded size, frame rate, rotation).
    package private(set) var info: VideoStreamInfo
    /// Size of the frames returned (after rotation and optional resize).
    package let outputSize: (width: Int, height: Int)
    private let decoder: StreamDecoder
    private let converter = PictureConverter()
    private var lastTime: Double?
    /// Every frame's time, which numbers the frames after a seek (given, or read on the first seek).
    package private(set) var timeline: FrameTimeline?
    private let path: String
    /// Frames decoded since the start of the stream while no seek intervened (`nil` after a seek).
    private var decodedSinceStart: Int? = 0
    /// Timestamps closer than this to a window edge count as inside (float noise, far below a frame).
    package static let timeEpsilon = 1e-4
    /// Longest gap (seconds) between windows that is decoded through rather than seeked over:
    /// about one phone-camera GOP, i.e. what a keyframe seek would decode anyway.
    package static let maxForwardDecode = 1.0

    /// The frame that ended the last window (decoded, not delivered) and that window's end.
    private struct Pending { let time: Double; let previousEnd: Double }
    private var pending: Pending?
    /// Time spent decoding (seeks included) and converting to RGB since the reader was opened, and the
    /// frames decoded: what `analyze` reports for its pose stage.
    package private(set) var decodeTime = StageTime()
    package private(set) var conversionTime = StageTime()
    package private(set) var framesDecoded = 0
    /// Lets the decoder drop frames that no window needs (FFmpeg's `skip_frame`, non-reference frames
    /// only, so every other frame decodes to the same pixels): with it set, a frame before the window
    /// being read, or inside it where this returns `false` for its (time, index), is dropped unless other
    /// frames reference it. It must agree with the `select` given to ``frames(from:to:where:body:)``;
    /// `nil` (default) decodes every frame.
    package var wanted: ((Double, Int) -> Bool)?
    /// Skips H.264's and HEVC's deblocking (loop) filter (FFmpeg's `skip_loop_filter`): about a fifth of
    /// H.264's decoding time, at the price of blockier pixels in every frame, which drift further from the
    /// encoder's until the next keyframe. Off by default; `analyze --skip-deblocking` measures what it
    /// costs in docs/analysis.md. Set it before the first frame.
    package var skipDeblocking = false {
        didSet { decoder.decoder.context.pointee.skip_loop_filter = skipDeblocking ? AVDISCARD_ALL : AVDISCARD_DEFAULT }
    }

    /// Opens `path` for decoding.
    /// - Parameters:
    ///   - path: A media file with a video track.
    ///   - targetSize: Optional output (width, height) of the upright frames; `nil` keeps the display size.
    ///   - decoderThreads: FFmpeg decoding threads; 0 (default) = one per core. Use 1 when several
    ///     readers decode in parallel, so they don't oversubscribe the cores.
    ///   - timeline: The file's ``FrameTimeline`` when the caller already has it (several readers of one
    ///     file share one); otherwise it is read the first time a window starts after a seek.
    /// - Throws: ``MediaError`` `.fileNotFound`, `.unreadable`, `.noVideoTrack`.
    package init(path: String, targetSize: (Int, Int)? = nil, decoderThreads: Int = 0, timeline: FrameTimeline? = nil) throws {
        self.path = path
        self.timeline = timeline
        let input = try InputFile(path: path)
        guard let index = input.videoStreamIndex, let st = input.stream(index) else {
            throw MediaError(.noVideoTrack, "\(path) has no video track; the analysis needs the player on video.")
        }
        info = MediaProbe.videoInfo(st)
        guard info.width > 0, info.height > 0 else {
            throw MediaError(.unreadable, "\(path) has a video track without a picture size.")
        }
        if let t = targetSize, t.0 <= 0 || t.1 <= 0 {
            throw MediaError(.unreadable, "Cannot resize video frames to \(t.0)×\(t.1).")
        }
        outputSize = targetSize.map { ($0.0, $0.1) } ?? info.displaySize
        decoder = try StreamDecoder(input: input, streamIndex: index, threads: Int32(clamping: max(0, decoderThreads)))
    }

    /// Decodes the next frame in presentation order.
    /// - Returns: The frame, or `nil` at the end of the video.
    /// - Throws: ``MediaError`` `.unreadable` when a frame cannot be decoded or converted.
    package func nextFrame() throws -> VideoFrame? {
        if let p = pending {
            pending = nil
            return try convertCurrent(time: p.time)
        }
        guard try decodeNext() else { return nil }
        return try convertCurrent(time: currentTime())
    }

    /// Seeks to (at or before) `start`, decodes forward and hands each frame with time in
    /// [`start`, `end`] to `body`.
    /// - Parameters:
    ///   - start: Window start, seconds of media time.
    ///   - end: Window end (inclusive), seconds.
    ///   - stride: Deliver every `stride`-th frame of the window (others are decoded, not converted).
    ///   - body: Receives frames in order; return `false` to stop early.
    /// - Throws: ``MediaError`` `.invalidTimeRange` for a bad window, `.unreadable` for decode
    ///   failures, and anything `body` throws.
    package func frames(from start: Double, to end: Double, stride: Int = 1,
                       body: (VideoFrame) throws -> Bool) throws {
        guard stride >= 1 else {
            throw MediaError(.invalidTimeRange, "The frame stride must be at least 1, not \(stride).")
        }
        var inWindow = 0
        try frames(from: start, to: end, where: { _, _ in
            defer { inWindow += 1 }
            return inWindow % stride == 0
        }, body: body)
    }

    /// Seeks to (at or before) `start`, decodes forward and hands the frames in [`start`, `end`] that
    /// `select` accepts to `body`. Rejected frames are decoded (the codec needs them) but never converted
    /// to RGB, which is most of a skipped frame's cost at 1080p.
    /// - Parameters:
    ///   - start: Window start, seconds of media time.
    ///   - end: Window end (inclusive), seconds.
    ///   - select: Called for every frame of the window in order with its (time, index); `true` = deliver.
    ///   - body: Receives the selected frames in order; return `false` to stop early.
    /// - Throws: ``MediaError`` `.invalidTimeRange` for a bad window, `.unreadable` for decode
    ///   failures, and anything `select` or `body` throws.
    package func frames(from start: Double, to end: Double, where select: (Double, Int) throws -> Bool,
                       body: (VideoFrame) throws -> Bool) throws {
        guard start.isFinite, end.isFinite, start >= 0, end >= start else {
            throw MediaError(.invalidTimeRange, "The frame window \(start)–\(end) s is not a valid time range.")
        }
        let eps = Self.timeEpsilon
        // Windows read in time order (swing windows around successive contacts) continue decoding
        // from the frame that ended the previous window when the gap is short, instead of seeking
        // back to a keyframe and decoding the same frames again.
        var held: Double?   // time of the undelivered frame still in the decoder's frame buffer
        if let p = pending, start > p.previousEnd + eps, start - p.time <= Self.maxForwardDecode {
            held = p.time
        } else if start <= eps {
            decoder.rewind()
            lastTime = nil
            decodedSinceStart = 0
        } else {
            if timeline == nil { timeline = try FrameTimeline(path: path) }
            decodeTime.measure { if !decoder.seek(to: start) { decoder.rewind() } }
            lastTime = nil
            decodedSinceStart = nil
        }
        pending = nil
        if wanted != nil, timeline == nil { timeline = try FrameTimeline(path: path) }
        if let wanted {
            decoder.mayDrop = { [unowned self] t in t < start - eps || (t <= end + eps && !wanted(t, self.frameIndex(time: t))) }
        }
        defer { decoder.mayDrop = nil }
        var first = held == nil
        while true {
            var t: Double
            if let h = held {
                t = h
                held = nil
            } else {
                guard try decodeNext() else { return }
                t = currentTime()
            }
            if first {
                first = false
                // A seek that lands after the target (sparse or wrong index) would skip frames.
                if t > start + eps && start > 0 {
                    decodeTime.measure { decoder.rewind() }
                    lastTime = nil
                    decodedSinceStart = 0
                    guard try decodeNext() else { return }
                    t = currentTime()
                }
            }
            if t < start - eps { continue }
            if t > end + eps {
                pending = Pending(time: t, previousEnd: end)
                return
            }
            guard try select(t, frameIndex(time: t)) else { continue }
            if try !body(convertCurrent(time: t)) { return }
        }
    }

    /// Decodes the next frame, timed, and counted (also from the start while that count is known).
    private func decodeNext() throws -> Bool {
        let decoded = try decodeTime.measure { try decoder.next() }
        guard decoded else { return false }
        framesDecoded += 1
        decodedSinceStart = decodedSinceStart.map { $0 + 1 }
        return true
    }

    /// Time of the decoded frame; frames without a timestamp follow the previous one by 1/fps.
    private func currentTime() -> Double {
        let step = info.frameRate > 0 ? 1 / info.frameRate : 0
        let t = decoder.frameTime ?? ((lastTime ?? -step) + step)
        lastTime = t
        return t
    }

    private func convertCurrent(time: Double) throws -> VideoFrame {
        let (w, h) = info.isQuarterTurn ? (outputSize.height, outputSize.width) : (outputSize.width, outputSize.height)
        let image = try conversionTime.measure {
            try converter.image(from: decoder.frame.pointer, width: w, height: h, rotation: info.rotation)
        }
        return VideoFrame(image: image, time: time, index: frameIndex(time: time))
    }

    /// The number of the frame just decoded (at `time`): counted since the start, or after a seek its
    /// place on the timeline.
    private func frameIndex(time: Double) -> Int {
        // While the decoder may drop frames (``wanted``), counting decoded frames would miss the dropped
        // ones: the numbers come from the file's frame times instead.
        if wanted == nil, let n = decodedSinceStart { return max(n - 1, 0) }
        return timeline?.frame(nearest: time) ?? 0
    }
}
