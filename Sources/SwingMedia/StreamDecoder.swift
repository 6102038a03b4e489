import CFFmpeg

/// Decodes one stream of an ``InputFile`` packet by packet (never the whole file in memory).
///
/// Other streams are discarded at the demuxer. Corrupt packets are skipped (counted in
/// ``badPackets``); a read error mid-file (e.g. truncation) ends the stream like EOF.
final class StreamDecoder {
    let input: InputFile
    let streamIndex: Int32
    let stream: UnsafeMutablePointer<AVStream>
    let decoder: Decoder
    let frame: Frame
    private let packet: Packet
    private var inputDone = false
    /// Packets the decoder rejected as invalid.
    private(set) var badPackets = 0
    private var consecutiveErrors = 0
    /// Another stream whose packets are handed over as they are read (e.g. audio to copy into a
    /// remuxed file) instead of being discarded. Set it before the first ``next()``.
    var passthrough: (streamIndex: Int32, handle: (UnsafeMutablePointer<AVPacket>) throws -> Void)? {
        didSet { if let p = passthrough { input.stream(p.streamIndex)?.pointee.discard = AVDISCARD_DEFAULT } }
    }
    /// Decides per packet, from its media time, whether its frame may be dropped when no other frame
    /// references it (`skip_frame = AVDISCARD_NONREF`); `nil` decodes every frame. Packets without a
    /// timestamp are always decoded.
    var mayDrop: ((Double) -> Bool)?
    /// Decode errors in a row after which the stream counts as undecodable.
    static let maxConsecutiveErrors = 50
    /// Time base of the stream in seconds per tick.
    let timeBase: Double
    /// Container time that is media time 0 (see ``InputFile/origin``).
    let origin: Double

    init(input: InputFile, streamIndex: Int32, threads: Int32) throws {
        guard let st = input.stream(streamIndex) else {
            throw MediaError(.unreadable, "\(input.path) has no stream \(streamIndex).")
        }
        self.input = input
        self.streamIndex = streamIndex
        self.stream = st
        for i in 0..<Int32(input.context.pointee.nb_streams) where i != streamIndex {
            input.stream(i)?.pointee.discard = AVDISCARD_ALL
        }
        decoder = try Decoder(stream: st, threads: threads, path: input.path)
        frame = try Frame()
        packet = try Packet()
        timeBase = av_q2d(st.pointee.time_base)
        origin = input.origin
    }

    /// Decodes the next frame into ``frame``.
    /// - Returns: `false` at the end of the stream.
    func next() throws -> Bool {
        let ctx = decoder.context
        while true {
            let r = avcodec_receive_frame(ctx, frame.pointer)
            if r == 0 { consecutiveErrors = 0; return true }
            if r == swm_averror_eof() { return false }
            if r != swm_averror_eagain() {
                // Frame-threaded decoders report a corrupt or cut-off packet here; skip it like a bad
                // packet, but give up on a stream that keeps failing.
                badPackets += 1
                consecutiveErrors += 1
                if consecutiveErrors > Self.maxConsecutiveErrors {
                    throw MediaError(.unreadable, "\(input.path) could not be decoded.", underlying: ffErrorText(r))
                }
                continue
            }
            if inputDone { return false }
            let rr = av_read_frame(input.context, packet.pointer)
            if rr < 0 {
                inputDone = true
                _ = avcodec_send_packet(ctx, nil)   // drain
                continue
            }
            defer { av_packet_unref(packet.pointer) }
            guard packet.pointer.pointee.stream_index == streamIndex else {
                if let p = passthrough, packet.pointer.pointee.stream_index == p.streamIndex { try p.handle(packet.pointer) }
                continue
            }
            if let mayDrop {
                let pts = packet.pointer.pointee.pts
                ctx.pointee.skip_frame = pts != swm_nopts() && mayDrop(Double(pts) * timeBase - origin)
                    ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
            }
            let s = avcodec_send_packet(ctx, packet.pointer)
            if s < 0 && s != swm_averror_eagain() {
                badPackets += 1
                consecutiveErrors += 1
                if consecutiveErrors > Self.maxConsecutiveErrors {
                    throw MediaError(.unreadable, "\(input.path) could not be decoded.", underlying: ffErrorText(s))
                }
            }
        }
    }

    /// Media time (seconds from the origin) of the frame in ``frame``, or `nil` without a timestamp.
    var frameTime: Double? {
        let ts = frame.pointer.pointee.best_effort_timestamp
        let t = ts != swm_nopts() ? ts : frame.pointer.pointee.pts
        guard t != swm_nopts() else { return nil }
        return Double(t) * timeBase - origin
    }

    /// Seeks to the last keyframe at or before media time `seconds` and resets the decoder.
    /// - Returns: `false` if the demuxer could not seek (the caller may decode from the start).
    @discardableResult
    func seek(to seconds: Double) -> Bool {
        let target = Int64(((seconds + origin) / timeBase).rounded(.down))
        let rc = avformat_seek_file(input.context, streamIndex, Int64.min, target, target, 0)
        avcodec_flush_buffers(decoder.context)
        inputDone = false
        return rc >= 0
    }

    /// Rewinds to the very start (used when a keyframe seek fails or lands after the target).
    func rewind() {
        let start = stream.pointee.start_time
        let rc = av_seek_frame(input.context, streamIndex, start == swm_nopts() ? 0 : start, AVSEEK_FLAG_BACKWARD)
        if rc < 0 { _ = av_seek_frame(input.context, -1, 0, AVSEEK_FLAG_BYTE) }
        avcodec_flush_buffers(decoder.context)
        inputDone = false
    }
}
