import CFFmpeg
import Foundation

// Swift owners for FFmpeg allocations: each class frees exactly what it allocated in `deinit`,
// so every exit path (including thrown errors) releases the C memory once.

/// FFmpeg's text for an error code.
func ffErrorText(_ code: Int32) -> String {
    var buf = [CChar](repeating: 0, count: 128)
    swm_strerror(code, &buf, buf.count)
    return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Keeps FFmpeg from printing demuxer/decoder chatter on stderr; SwingMedia reports problems itself.
let quietFFmpegLogs: Void = { av_log_set_level(AV_LOG_FATAL) }()

/// Owns an `AVPacket`.
final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>
    init() throws {
        guard let p = av_packet_alloc() else { throw MediaError(.unreadable, "Out of memory allocating an FFmpeg packet.") }
        pointer = p
    }
    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&p)
    }
}

/// Owns an `AVFrame`.
final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>
    init() throws {
        guard let f = av_frame_alloc() else { throw MediaError(.unreadable, "Out of memory allocating an FFmpeg frame.") }
        pointer = f
    }
    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&f)
    }
}

/// Owns an `AVCodecContext` opened for decoding one stream.
final class Decoder {
    let context: UnsafeMutablePointer<AVCodecContext>

    /// Opens a decoder for `stream`.
    /// - Parameters:
    ///   - stream: The stream whose parameters configure the decoder.
    ///   - threads: Decoder threads; 0 lets FFmpeg pick (one per core).
    ///   - path: For error messages.
    init(stream: UnsafeMutablePointer<AVStream>, threads: Int32, path: String) throws {
        let par = stream.pointee.codecpar
        let name = par.map { String(cString: avcodec_get_name($0.pointee.codec_id)) } ?? "unknown"
        guard let par, let codec = avcodec_find_decoder(par.pointee.codec_id) else {
            throw MediaError(.unreadable, "\(path) uses the \(name) codec, which this FFmpeg build cannot decode.")
        }
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw MediaError(.unreadable, "Out of memory allocating an FFmpeg decoder.")
        }
        context = ctx
        var rc = avcodec_parameters_to_context(ctx, par)
        if rc >= 0 {
            // The packet time base lets the decoder shift timestamps when it drops priming samples.
            ctx.pointee.pkt_timebase = stream.pointee.time_base
            ctx.pointee.thread_count = threads
            rc = avcodec_open2(ctx, codec, nil)
        }
        if rc < 0 {
            throw MediaError(.unreadable, "\(path) could not be decoded (\(name) decoder failed to open).",
                             underlying: ffErrorText(rc))
        }
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&c)
    }
}

/// Owns an opened input file (`AVFormatContext`) with its stream information read.
final class InputFile {
    let context: UnsafeMutablePointer<AVFormatContext>
    let path: String

    /// Opens and probes `path`.
    /// - Throws: ``MediaError`` `.fileNotFound` for a missing path, `.unreadable` for a directory,
    ///   an empty file or anything FFmpeg cannot parse.
    init(path: String) throws {
        _ = quietFFmpegLogs
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw MediaError(.fileNotFound, "No file at \(path).")
        }
        if isDirectory.boolValue { throw MediaError(.unreadable, "\(path) is a folder, not a media file.") }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if size == 0 { throw MediaError(.unreadable, "\(path) is empty (0 bytes).") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw MediaError(.unreadable, "\(path) cannot be read (permission denied).")
        }
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        let rc = avformat_open_input(&ctx, path, nil, nil)
        guard rc >= 0, let opened = ctx else {
            throw MediaError(.unreadable, "\(path) is not a readable audio or video file (it may be truncated or not media at all).",
                             underlying: ffErrorText(rc))
        }
        context = opened
        let info = avformat_find_stream_info(opened, nil)
        if info < 0 {
            throw MediaError(.unreadable, "\(path) is not a readable audio or video file (its streams cannot be parsed).",
                             underlying: ffErrorText(info))
        }
        if videoStreamIndex == nil && audioStreamIndex == nil {
            throw MediaError(.unreadable, "\(path) contains no audio or video stream.")
        }
    }

    deinit {
        var c: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&c)
    }

    /// The stream at `index`.
    func stream(_ index: Int32) -> UnsafeMutablePointer<AVStream>? {
        guard index >= 0, index < Int32(context.pointee.nb_streams) else { return nil }
        return context.pointee.streams[Int(index)]
    }

    /// The primary video stream (attached cover pictures excluded), if any.
    var videoStreamIndex: Int32? {
        let i = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard i >= 0, let st = stream(i), st.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 else { return nil }
        return i
    }

    /// The primary audio stream, if any.
    var audioStreamIndex: Int32? {
        let i = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        return i >= 0 ? i : nil
    }

    /// Short demuxer name(s).
    var formatName: String { context.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "unknown" }

    /// Encoder priming samples at the start of the audio stream that the stream's start time does not
    /// already account for. libavformat folds `AV_PKT_DATA_SKIP_SAMPLES` (MP4/MOV edit lists, MP3 LAME
    /// headers, Ogg Opus) into `start_time`; Matroska/WebM instead signal Opus pre-skip as
    /// `initial_padding`, and store nothing at all for AAC, whose encoders (FFmpeg's, FDK, phones)
    /// prime with ``AudioExtractor/assumedAACPrimingSamples``.
    func unsignalledPriming(audioStream index: Int32) -> Int {
        guard let par = stream(index)?.pointee.codecpar, formatName.contains("matroska") else { return 0 }
        if par.pointee.initial_padding > 0 { return Int(par.pointee.initial_padding) }
        return par.pointee.codec_id == AV_CODEC_ID_AAC ? AudioExtractor.assumedAACPrimingSamples : 0
    }

    /// Start time of a stream in seconds (container units), including unsignalled priming for audio.
    private func contentStart(_ index: Int32, audio: Bool) -> Double? {
        guard let st = stream(index), st.pointee.start_time != swm_nopts() else { return nil }
        var t = Double(st.pointee.start_time) * av_q2d(st.pointee.time_base)
        if audio, st.pointee.codecpar.pointee.sample_rate > 0 {
            t += Double(unsignalledPriming(audioStream: index)) / Double(st.pointee.codecpar.pointee.sample_rate)
        }
        return t
    }

    /// The container time (seconds) that SwingMedia calls 0: the earliest start of the primary
    /// audio/video content, never negative (negative times hold codec pre-roll, not content).
    /// Audio and video use the same origin so that their times stay in sync.
    var origin: Double {
        var starts: [Double] = []
        if let v = videoStreamIndex, let t = contentStart(v, audio: false) { starts.append(t) }
        if let a = audioStreamIndex, let t = contentStart(a, audio: true) { starts.append(t) }
        if let t = starts.min() { return max(0, t) }
        let s = context.pointee.start_time
        return s == swm_nopts() ? 0 : max(0, Double(s) / Double(AV_TIME_BASE))
    }

    /// Duration in seconds (container's, or the longest stream's), 0 if unknown.
    var duration: Double {
        let d = context.pointee.duration
        if d != swm_nopts(), d > 0 { return Double(d) / Double(AV_TIME_BASE) }
        var best = 0.0
        for i in 0..<Int32(context.pointee.nb_streams) {
            guard let st = stream(i), st.pointee.duration != swm_nopts() else { continue }
            best = max(best, Double(st.pointee.duration) * av_q2d(st.pointee.time_base))
        }
        return best
    }
}
