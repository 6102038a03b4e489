import CFFmpeg
import SwingCore

/// Writes RGB images as an H.264 (libx264, yuv420p) video — MP4 unless the extension names
/// another container FFmpeg knows (.mov, .mkv). Falls back to MPEG-4 Part 2 without libx264.
///
/// Any frame size of at least 2×2 is accepted, by one rule for every writer: 4:2:0 chroma needs an
/// even size, so an odd-sized frame loses its last column and/or row (FFmpeg's
/// `crop=trunc(iw/2)*2:trunc(ih/2)*2`). Pixel coordinates are unchanged.
///
/// Frames are either evenly spaced at ``fps`` (``append(_:)``) or, for a writer made with `frameTimes`,
/// each shown at its own time (``append(_:at:)``), so a re-encoded phone video keeps the dropped and
/// stretched frames where the original had them.
///
/// Call ``finish(end:)`` to complete the file; a writer dropped without it leaves an unplayable file.
package final class VideoWriter {
    /// Size of the frames given to ``append(_:)``.
    package let frameSize: (width: Int, height: Int)
    /// Encoded size in pixels: ``frameSize`` rounded down to even.
    package let width: Int
    package let height: Int
    /// Frames per second.
    package let fps: Double
    /// The encoder actually used (`"libx264"` or `"mpeg4"`).
    package let encoderName: String
    /// x264 constant rate factor (lower = better; 18–23 is visually transparent for overlays).
    package static let x264CRF = "20"
    /// x264 speed preset: fast enough to write annotated clips alongside analysis.
    package static let x264Preset = "veryfast"
    /// Ticks per second of a `frameTimes` writer's timestamps (MPEG's 90 kHz clock: whole ticks for
    /// 24, 25, 30, 50, 60, 120 and 240 fps and the NTSC rates).
    package static let timestampRate: Int32 = 90_000

    private let path: String
    private let format: UnsafeMutablePointer<AVFormatContext>
    private let stream: UnsafeMutablePointer<AVStream>
    private let encoder: Encoder
    private var ioOpen = false
    private var finished = false
    private var nextPTS: Int64 = 0
    /// The sound being copied in: its source, the source's audio stream, the output's audio stream.
    private var audio: (input: InputFile, index: Int32, stream: UnsafeMutablePointer<AVStream>)?
    /// Where the copied sound ends so far (output stream ticks): a clip's first packets never go back before it.
    private var audioEnd: Int64 = Int64.min

    /// Whether the file has a sound track (`audioFrom` had one in a codec the container holds).
    package var hasAudio: Bool { audio != nil }

    /// Whether frames carry their own times (``append(_:at:)``).
    private let frameTimes: Bool
    private var lastPTS: Int64?
    /// The next frame's timestamp after each appended one, until its packet is written: the frame's
    /// duration, which the container keeps for the last frame.
    private var followingPTS: [Int64: Int64] = [:]

    /// Creates the file and its video stream.
    /// - Parameters:
    ///   - path: Output path (`.mp4` recommended); replaced if it exists.
    ///   - width: Width of the frames that will be appended (≥ 2; odd is fine, see above).
    ///   - height: Height of the frames that will be appended (≥ 2).
    ///   - fps: Frame rate (> 0): the spacing of ``append(_:)``; with `frameTimes`, the average rate the
    ///     encoder plans for.
    ///   - faststart: Put an MP4's index at the front when finishing (one more pass over the file), so a
    ///     browser starts playing and seeking before the whole file has arrived.
    ///   - frameTimes: Frames come with their own times (``append(_:at:)``), kept to 1/``timestampRate`` s.
    /// - Throws: ``MediaError`` `.encodeFailed` for a frame smaller than 2×2, a bad rate, no encoder or an unwritable path.
    ///   - chapters: Chapter marks the container keeps (MP4 and MOV: a chapter track players list; MKV:
    ///     its chapters), in order; times in seconds of this video.
    ///   - audioFrom: A media file whose sound ``appendAudio(from:to:at:)`` copies in, packet for packet (no
    ///     re-encode); ignored when it has no audio or the container cannot hold its codec (see ``hasAudio``).
    package init(path: String, width frameWidth: Int, height frameHeight: Int, fps: Double, faststart: Bool = false,
                frameTimes: Bool = false, chapters: [VideoChapter] = [], audioFrom: String? = nil) throws {
        guard frameWidth >= 2, frameHeight >= 2, frameWidth <= 16384, frameHeight <= 16384 else {
            throw MediaError(.encodeFailed, "Video frames must be between 2×2 and 16384×16384 pixels, not \(frameWidth)×\(frameHeight).")
        }
        frameSize = (frameWidth, frameHeight)
        let width = frameWidth & ~1, height = frameHeight & ~1
        guard fps.isFinite, fps > 0, fps <= 1000 else {
            throw MediaError(.encodeFailed, "The video frame rate must be between 0 and 1000 fps, not \(fps).")
        }
        _ = quietFFmpegLogs
        self.path = path; self.width = width; self.height = height; self.fps = fps; self.frameTimes = frameTimes
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        if avformat_alloc_output_context2(&ctx, nil, nil, path) < 0 || ctx == nil {
            _ = avformat_alloc_output_context2(&ctx, nil, "mp4", path)
        }
        guard let ctx else { throw MediaError(.encodeFailed, "Cannot create a video container for \(path).") }
        format = ctx
        guard let st = avformat_new_stream(ctx, nil) else {
            avformat_free_context(ctx)
            throw MediaError(.encodeFailed, "Cannot add a video stream to \(path).")
        }
        stream = st
        let rate = av_d2q(fps, 100_000)
        let timeBase = frameTimes ? AVRational(num: 1, den: Self.timestampRate) : av_inv_q(rate)
        let globalHeader = (ctx.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER) != 0
        let x264 = avcodec_find_encoder_by_name("libx264")
        do {
            encoder = try Encoder(codecID: x264 == nil ? AV_CODEC_ID_MPEG4 : AV_CODEC_ID_H264, codec: x264,
                                  width: width, height: height, pixelFormat: AV_PIX_FMT_YUV420P, timeBase: timeBase) { c in
                c.pointee.framerate = rate
                c.pointee.thread_count = 0
                if globalHeader { c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
                if x264 != nil {
                    av_opt_set(c.pointee.priv_data, "preset", Self.x264Preset, 0)
                    av_opt_set(c.pointee.priv_data, "crf", Self.x264CRF, 0)
                } else {
                    c.pointee.flags |= AV_CODEC_FLAG_QSCALE
                    c.pointee.global_quality = 3 * FF_QP2LAMBDA
                }
            }
        } catch {
            avformat_free_context(ctx)
            throw error
        }
        encoderName = x264 == nil ? "mpeg4" : "libx264"
        st.pointee.time_base = timeBase
        st.pointee.avg_frame_rate = rate
        var rc = avcodec_parameters_from_context(st.pointee.codecpar, encoder.context)
        if rc >= 0, !chapters.isEmpty { rc = Self.addChapters(chapters, to: ctx) }
        if rc >= 0, let audioFrom, let input = try? InputFile(path: audioFrom), let index = input.audioStreamIndex,
           let inStream = input.stream(index),
           avformat_query_codec(ctx.pointee.oformat, inStream.pointee.codecpar.pointee.codec_id, FF_COMPLIANCE_NORMAL) == 1,
           let out = avformat_new_stream(ctx, nil) {
            rc = avcodec_parameters_copy(out.pointee.codecpar, inStream.pointee.codecpar)
            out.pointee.codecpar.pointee.codec_tag = 0
            out.pointee.time_base = inStream.pointee.time_base
            audio = (input, index, out)
        }
        if rc >= 0 { rc = avio_open(&ctx.pointee.pb, path, AVIO_FLAG_WRITE) }
        if rc >= 0 {
            ioOpen = true
            var options: OpaquePointer?
            if faststart { av_dict_set(&options, "movflags", "+faststart", 0) }
            rc = avformat_write_header(ctx, &options)
            av_dict_free(&options)
        }
        if rc < 0 {
            closeIO()
            avformat_free_context(ctx)
            finished = true   // already released: deinit (which may run after a throwing init) must not free again
            throw MediaError(.encodeFailed, "Cannot write \(path).", underlying: ffErrorText(rc))
        }
    }

    /// Gives the container `chapters` before its header is written (the MP4 muxer makes its chapter track
    /// then); `avformat_free_context` frees them. Returns a negative FFmpeg code when memory runs out.
    private static func addChapters(_ chapters: [VideoChapter], to ctx: UnsafeMutablePointer<AVFormatContext>) -> Int32 {
        let size = MemoryLayout<UnsafeMutablePointer<AVChapter>?>.stride
        guard let raw = av_calloc(chapters.count, size) else { return -12 }   // AVERROR(ENOMEM)
        let list = raw.bindMemory(to: UnsafeMutablePointer<AVChapter>?.self, capacity: chapters.count)
        ctx.pointee.chapters = list
        for (i, chapter) in chapters.enumerated() {
            guard let c = av_mallocz(MemoryLayout<AVChapter>.size)?.bindMemory(to: AVChapter.self, capacity: 1) else { return -12 }
            c.pointee.id = Int64(i + 1)
            c.pointee.time_base = AVRational(num: 1, den: 1000)
            c.pointee.start = Int64((max(chapter.start, 0) * 1000).rounded())
            c.pointee.end = max(Int64((chapter.end * 1000).rounded()), c.pointee.start + 1)
            av_dict_set(&c.pointee.metadata, "title", chapter.title, 0)
            list[i] = c
            ctx.pointee.nb_chapters = UInt32(i + 1)
        }
        return 0
    }

    deinit {
        if !finished {
            closeIO()
            avformat_free_context(format)
        }
    }

    /// Appends one frame: on a `frameTimes` writer, shown 1/``fps`` after the previous one.
    /// - Parameter image: An RGB image of ``frameSize`` (or already of the even ``width``×``height``).
    /// - Throws: ``MediaError`` `.encodeFailed` on a size mismatch, after ``finish(end:)``, or when writing fails.
    package func append(_ image: ImageBuffer) throws {
        if frameTimes {
            try encode(image, pts: lastPTS.map { $0 + ticks(1 / fps) } ?? 0)
        } else {
            try encode(image, pts: nextPTS)
            nextPTS += 1
        }
    }

    /// Appends one frame shown from `time` until the next frame's time (or the `end` given to
    /// ``finish(end:)``).
    /// - Parameters:
    ///   - image: An RGB image of ``frameSize``.
    ///   - time: Seconds from the start of the video, after the previous frame's; a time that rounds onto
    ///     or before it moves one tick later (encoders need increasing timestamps).
    /// - Throws: ``MediaError`` `.encodeFailed` on a writer made without `frameTimes`, a time that is not
    ///   finite, a size mismatch, after ``finish(end:)``, or when writing fails.
    package func append(_ image: ImageBuffer, at time: Double) throws {
        guard frameTimes, time.isFinite else {
            throw MediaError(.encodeFailed, frameTimes ? "A video frame needs a finite time, not \(time)."
                                                       : "\(path) was opened for evenly spaced frames; open it with frame times.")
        }
        try encode(image, pts: max(ticks(time), lastPTS.map { $0 + 1 } ?? Int64.min))
    }

    private func encode(_ image: ImageBuffer, pts: Int64) throws {
        guard !finished else { throw MediaError(.encodeFailed, "Cannot add frames to \(path) after it was finished.") }
        if let last = lastPTS { followingPTS[last] = pts }
        lastPTS = pts
        try encoder.encode(image, pts: pts, slack: 1) { try write($0) }
    }

    /// `seconds` in encoder ticks.
    private func ticks(_ seconds: Double) -> Int64 {
        let t = (seconds / av_q2d(encoder.context.pointee.time_base)).rounded()
        return Int64(max(min(t, 1e15), -1e15))
    }

    /// Copies the sound of `audioFrom` between `start` and `end` (its media time, seconds) into the file from
    /// `offset` seconds on: the packets that start in the span, shifted, not re-encoded (so a cut lands on
    /// the nearest packet, about 20 ms of AAC). Does nothing on a writer without sound.
    /// - Throws: ``MediaError`` `.encodeFailed` when writing fails, `.unreadable` when the source cannot be read.
    package func appendAudio(from start: Double, to end: Double, at offset: Double) throws {
        guard let (input, index, out) = audio, !finished, end > start else { return }
        guard let inStream = input.stream(index) else { return }
        let tb = inStream.pointee.time_base
        let from = Int64((start / av_q2d(tb)).rounded(.down)), to = Int64((end / av_q2d(tb)).rounded(.up))
        let shift = Int64((offset / av_q2d(tb)).rounded()) - from
        guard av_seek_frame(input.context, index, from, AVSEEK_FLAG_BACKWARD) >= 0 else { return }
        guard let packet = av_packet_alloc() else { throw MediaError(.encodeFailed, "Out of memory copying the sound.") }
        var p: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&p) }
        while av_read_frame(input.context, packet) >= 0 {
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == index else { continue }
            let pts = packet.pointee.pts == swm_nopts() ? packet.pointee.dts : packet.pointee.pts
            if pts == swm_nopts() || pts < from { continue }
            if pts >= to { break }
            packet.pointee.pts = pts + shift
            packet.pointee.dts = pts + shift
            av_packet_rescale_ts(packet, tb, out.pointee.time_base)
            guard packet.pointee.dts > audioEnd else { continue }
            audioEnd = packet.pointee.dts
            packet.pointee.stream_index = out.pointee.index
            packet.pointee.pos = -1
            let rc = av_interleaved_write_frame(format, packet)
            if rc < 0 { throw MediaError(.encodeFailed, "Cannot write sound to \(path).", underlying: ffErrorText(rc)) }
        }
    }

    /// Flushes the encoder, writes the container index and closes the file. Calling it again does nothing.
    /// - Parameter end: On a `frameTimes` writer, when the last frame stops being shown (seconds from the
    ///   start; `nil` = 1/``fps`` after it): the video's duration.
    /// - Throws: ``MediaError`` `.encodeFailed` when the file cannot be completed.
    package func finish(end: Double? = nil) throws {
        guard !finished else { return }
        if frameTimes, let last = lastPTS {
            followingPTS[last] = max(end.map(ticks) ?? last + ticks(1 / fps), last + 1)
        }
        try encoder.finish { try write($0) }
        let rc = av_write_trailer(format)
        closeIO()
        avformat_free_context(format)
        finished = true
        if rc < 0 { throw MediaError(.encodeFailed, "Cannot complete \(path).", underlying: ffErrorText(rc)) }
    }

    private func write(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        if let next = followingPTS.removeValue(forKey: packet.pointee.pts), frameTimes {
            packet.pointee.duration = next - packet.pointee.pts
        }
        av_packet_rescale_ts(packet, encoder.context.pointee.time_base, stream.pointee.time_base)
        packet.pointee.stream_index = stream.pointee.index
        let rc = av_interleaved_write_frame(format, packet)
        if rc < 0 { throw MediaError(.encodeFailed, "Cannot write video data to \(path).", underlying: ffErrorText(rc)) }
    }

    private func closeIO() {
        if ioOpen { avio_closep(&format.pointee.pb); ioOpen = false }
    }
}

/// A chapter mark of a written video: its title and where it starts and ends (seconds).
package struct VideoChapter: Sendable, Equatable {
    package var title: String
    package var start: Double
    package var end: Double

    package init(title: String, start: Double, end: Double) { self.title = title; self.start = start; self.end = end }
}
