import CFFmpeg
import Foundation
import SwingCore

/// A browser-playable copy of a video that browsers cannot play as it is.
///
/// iPhones record HEVC in `.mov`, which Chromium and Firefox do not play. The copy is H.264 (8-bit
/// 4:2:0, libx264) in an MP4 with its index at the front (`+faststart`, so playback and seeking start
/// before the whole file has arrived), with **the same frames at the same timestamps** as the
/// original and its rotation, so times measured on the original (contacts, poses) point at the same
/// pictures in the copy. AAC and MP3 audio is copied packet for packet; other audio is left out.
/// The analysis always reads the original.
package enum PlaybackCopy {
    /// Whether browsers play `path` as it is: H.264 (8-bit 4:2:0) in MP4, or VP9 / AV1 in MP4 or
    /// WebM, judged by the container FFmpeg finds and the file's extension (browsers go by both).
    /// - Throws: ``MediaError`` when the file cannot be read or has no video.
    package static func isBrowserPlayable(_ path: String) throws -> Bool {
        let input = try InputFile(path: path)
        guard let index = input.videoStreamIndex, let par = input.stream(index)?.pointee.codecpar else {
            throw MediaError(.noVideoTrack, "\(path) has no video.")
        }
        let ext = (path as NSString).pathExtension.lowercased()
        let mp4 = input.formatName.contains("mp4") && ["mp4", "m4v"].contains(ext)
        let webm = input.formatName.contains("webm") && ext == "webm"
        let format = AVPixelFormat(rawValue: par.pointee.format)
        switch par.pointee.codec_id {
        case AV_CODEC_ID_H264: return mp4 && (format == AV_PIX_FMT_YUV420P || format == AV_PIX_FMT_YUVJ420P)
        case AV_CODEC_ID_VP9, AV_CODEC_ID_AV1: return mp4 || webm
        default: return false
        }
    }

    /// Writes the H.264 MP4 copy of `source` to `destination`, through a temporary file in the
    /// same folder that is renamed into place only when complete (a failure leaves nothing).
    /// - Parameters:
    ///   - source: The original video.
    ///   - destination: Where the copy goes (`.mp4`); replaced if it exists.
    ///   - isCancelled: Asked before every frame; `true` stops the copy with a `CancellationError`.
    ///   - progress: Fraction of the video copied, 0…1.
    /// - Throws: ``MediaError`` for an unreadable source or a failed write; `CancellationError`.
    package static func make(from source: String, to destination: String,
                            isCancelled: () -> Bool = { false }, progress: ((Double) -> Void)? = nil) throws {
        let temporary = (destination as NSString).deletingLastPathComponent + "/."
            + (destination as NSString).lastPathComponent + ".part-\(UUID().uuidString.prefix(8)).mp4"
        do {
            try write(from: source, to: temporary, isCancelled: isCancelled, progress: progress)
            if FileManager.default.fileExists(atPath: destination) { try FileManager.default.removeItem(atPath: destination) }
            try FileManager.default.moveItem(atPath: temporary, toPath: destination)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    private static func write(from source: String, to path: String,
                              isCancelled: () -> Bool, progress: ((Double) -> Void)?) throws {
        let input = try InputFile(path: source)
        guard let videoIndex = input.videoStreamIndex, let inVideo = input.stream(videoIndex),
              let par = inVideo.pointee.codecpar else {
            throw MediaError(.noVideoTrack, "\(source) has no video to make a playable copy of.")
        }
        let decoder = try StreamDecoder(input: input, streamIndex: videoIndex, threads: 0)
        // 4:2:0 needs even sizes: the odd last column / row is dropped, as every writer does.
        let width = Int(par.pointee.width) & ~1, height = Int(par.pointee.height) & ~1
        guard width >= 2, height >= 2 else {
            throw MediaError(.unreadable, "\(source) has a \(par.pointee.width)×\(par.pointee.height) picture, too small to play.")
        }
        let output = try OutputFile(path: path)

        // Video: libx264 in the source's own time base, so every timestamp is kept as it is.
        let timeBase = inVideo.pointee.time_base
        guard let x264 = avcodec_find_encoder_by_name("libx264") else {
            throw MediaError(.encodeFailed, "This FFmpeg build has no libx264 encoder to make a playable copy with.")
        }
        let rate = inVideo.pointee.avg_frame_rate.num > 0 ? inVideo.pointee.avg_frame_rate : inVideo.pointee.r_frame_rate
        let encoder = try Encoder(codecID: AV_CODEC_ID_H264, codec: x264, width: width, height: height,
                                  pixelFormat: AV_PIX_FMT_YUV420P, timeBase: timeBase) { c in
            if rate.num > 0 { c.pointee.framerate = rate }
            c.pointee.thread_count = 0
            if output.needsGlobalHeader { c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
            av_opt_set(c.pointee.priv_data, "preset", VideoWriter.x264Preset, 0)
            av_opt_set(c.pointee.priv_data, "crf", VideoWriter.x264CRF, 0)
        }
        let outVideo = try output.addStream(parameters: nil, encoder: encoder.context, timeBase: timeBase)
        if swm_stream_copy_display_matrix(inVideo, outVideo) < 0 {
            throw MediaError(.encodeFailed, "Out of memory copying the rotation of \(source).")
        }

        // Audio: copied as it is when MP4 holds it and browsers play it.
        if let audioIndex = input.audioStreamIndex, let inAudio = input.stream(audioIndex),
           let codec = inAudio.pointee.codecpar?.pointee.codec_id, codec == AV_CODEC_ID_AAC || codec == AV_CODEC_ID_MP3 {
            let outAudio = try output.addStream(parameters: inAudio.pointee.codecpar, encoder: nil, timeBase: inAudio.pointee.time_base)
            let from = inAudio.pointee.time_base
            decoder.passthrough = (audioIndex, { packet in
                try output.write(packet, from: from, to: outAudio)
            })
        }
        try output.begin(faststart: true)

        let source = decoder.frame.pointer
        var scaler: OpaquePointer?
        defer { sws_freeContext(scaler) }
        var scalerFormat: Int32 = -1
        var lastPTS = Int64.min
        let duration = input.duration
        while try decoder.next() {
            if isCancelled() { throw CancellationError() }
            // Decoders may change pixel format mid-stream (rare); rebuild the converter then.
            if scaler == nil || source.pointee.format != scalerFormat {
                sws_freeContext(scaler)
                scaler = sws_getContext(Int32(width), Int32(height), AVPixelFormat(rawValue: source.pointee.format),
                                        Int32(width), Int32(height), AV_PIX_FMT_YUV420P, SWS_BILINEAR, nil, nil, nil)
                scalerFormat = source.pointee.format
            }
            guard let scaler, Int(source.pointee.width) >= width, Int(source.pointee.height) >= height else {
                throw MediaError(.encodeFailed, "The pictures of \(source) cannot be converted for H.264.")
            }
            let picture = encoder.frame.pointer
            if av_frame_make_writable(picture) < 0 { throw MediaError(.encodeFailed, "Out of memory preparing a picture.") }
            guard swm_sws_scale_frame(scaler, source, Int32(height), picture) > 0 else {
                throw MediaError(.encodeFailed, "A picture of \(source) could not be converted for H.264.")
            }
            // The source's own timestamp; x264 needs them strictly increasing.
            let stamp = source.pointee.best_effort_timestamp != swm_nopts() ? source.pointee.best_effort_timestamp : source.pointee.pts
            let pts = stamp == swm_nopts() ? lastPTS &+ 1 : max(stamp, lastPTS &+ 1)
            picture.pointee.pts = pts
            lastPTS = pts
            try encoder.encode(frame: picture) { try output.write($0, from: timeBase, to: outVideo) }
            if let progress, duration > 0, let t = decoder.frameTime { progress(min(max(t / duration, 0), 1)) }
        }
        try encoder.finish { try output.write($0, from: timeBase, to: outVideo) }
        try output.end()
        progress?(1)
    }
}

/// Owns an output container being written: streams are added, then ``begin(faststart:)`` writes
/// the header, packets are interleaved in, and ``end()`` writes the index.
final class OutputFile {
    let context: UnsafeMutablePointer<AVFormatContext>
    let path: String
    private var ioOpen = false
    private var ended = false

    init(path: String) throws {
        _ = quietFFmpegLogs
        self.path = path
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        if avformat_alloc_output_context2(&ctx, nil, "mp4", path) < 0 || ctx == nil {
            throw MediaError(.encodeFailed, "Cannot create an MP4 container for \(path).")
        }
        guard let ctx else { throw MediaError(.encodeFailed, "Cannot create an MP4 container for \(path).") }
        context = ctx
    }

    deinit {
        if ioOpen { avio_closep(&context.pointee.pb) }
        avformat_free_context(context)
    }

    /// Whether encoders must put their headers in extradata (MP4 does).
    var needsGlobalHeader: Bool { (context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER) != 0 }

    /// Adds a stream described by an encoder's settings or by copied codec parameters.
    func addStream(parameters: UnsafePointer<AVCodecParameters>?, encoder: UnsafeMutablePointer<AVCodecContext>?,
                   timeBase: AVRational) throws -> UnsafeMutablePointer<AVStream> {
        guard let st = avformat_new_stream(context, nil) else {
            throw MediaError(.encodeFailed, "Cannot add a stream to \(path).")
        }
        var rc: Int32 = 0
        if let encoder { rc = avcodec_parameters_from_context(st.pointee.codecpar, encoder) }
        if let parameters { rc = avcodec_parameters_copy(st.pointee.codecpar, parameters); st.pointee.codecpar.pointee.codec_tag = 0 }
        if rc < 0 { throw MediaError(.encodeFailed, "Cannot describe a stream of \(path).", underlying: ffErrorText(rc)) }
        st.pointee.time_base = timeBase
        return st
    }

    /// Opens the file and writes the header.
    func begin(faststart: Bool) throws {
        var rc = avio_open(&context.pointee.pb, path, AVIO_FLAG_WRITE)
        if rc >= 0 {
            ioOpen = true
            var options: OpaquePointer?
            if faststart { av_dict_set(&options, "movflags", "+faststart", 0) }
            rc = avformat_write_header(context, &options)
            av_dict_free(&options)
        }
        if rc < 0 { throw MediaError(.encodeFailed, "Cannot write \(path).", underlying: ffErrorText(rc)) }
    }

    /// Interleaves one packet (timestamps in `from`) into `stream`.
    func write(_ packet: UnsafeMutablePointer<AVPacket>, from: AVRational, to stream: UnsafeMutablePointer<AVStream>) throws {
        av_packet_rescale_ts(packet, from, stream.pointee.time_base)
        packet.pointee.stream_index = stream.pointee.index
        packet.pointee.pos = -1
        let rc = av_interleaved_write_frame(context, packet)
        if rc < 0 { throw MediaError(.encodeFailed, "Cannot write to \(path).", underlying: ffErrorText(rc)) }
    }

    /// Writes the index (moved to the front with faststart) and closes the file.
    func end() throws {
        guard !ended else { return }
        ended = true
        let rc = av_write_trailer(context)
        if ioOpen { avio_closep(&context.pointee.pb); ioOpen = false }
        if rc < 0 { throw MediaError(.encodeFailed, "Cannot complete \(path).", underlying: ffErrorText(rc)) }
    }
}
