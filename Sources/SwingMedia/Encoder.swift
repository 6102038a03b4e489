import CFFmpeg
import Foundation
import SwingCore

/// Owns an encoder context, its reusable frame/packet and the RGB→encoder-format scaler.
final class Encoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    /// The reusable picture handed to the encoder (its format and size).
    let frame: Frame
    private let packet: Packet
    private let scaler: OpaquePointer
    let width: Int
    let height: Int

    /// Opens an encoder.
    /// - Parameters:
    ///   - codecID: Codec to encode with (ignored when `codec` is given).
    ///   - codec: A specific encoder (e.g. libx264 by name).
    ///   - configure: Last chance to set options before `avcodec_open2`.
    init(codecID: AVCodecID, codec: UnsafePointer<AVCodec>? = nil, width: Int, height: Int,
         pixelFormat: AVPixelFormat, timeBase: AVRational,
         configure: (UnsafeMutablePointer<AVCodecContext>) -> Void = { _ in }) throws {
        guard width > 0, height > 0 else { throw MediaError(.encodeFailed, "Cannot encode an empty \(width)×\(height) picture.") }
        guard let found = codec ?? avcodec_find_encoder(codecID) else {
            throw MediaError(.encodeFailed, "This FFmpeg build has no \(String(cString: avcodec_get_name(codecID))) encoder.")
        }
        guard let ctx = avcodec_alloc_context3(found) else { throw MediaError(.encodeFailed, "Out of memory allocating an encoder.") }
        context = ctx
        self.width = width; self.height = height
        ctx.pointee.width = Int32(width)
        ctx.pointee.height = Int32(height)
        ctx.pointee.pix_fmt = pixelFormat
        ctx.pointee.time_base = timeBase
        configure(ctx)
        let rc = avcodec_open2(ctx, found, nil)
        if rc < 0 {
            throw MediaError(.encodeFailed, "The \(String(cString: found.pointee.name)) encoder rejected a \(width)×\(height) picture.",
                             underlying: ffErrorText(rc))
        }
        frame = try Frame()
        packet = try Packet()
        let f = frame.pointer
        f.pointee.format = pixelFormat.rawValue
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        if av_frame_get_buffer(f, 0) < 0 { throw MediaError(.encodeFailed, "Out of memory allocating a picture.") }
        guard let sws = sws_getContext(Int32(width), Int32(height), AV_PIX_FMT_RGB24, Int32(width), Int32(height),
                                       pixelFormat, SWS_BILINEAR, nil, nil, nil) else {
            throw MediaError(.encodeFailed, "RGB pictures cannot be converted for the encoder.")
        }
        scaler = sws
    }

    deinit {
        sws_freeContext(scaler)
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&c)
    }

    /// Encodes one RGB image with presentation time `pts` (encoder time base); hands finished packets to `sink`.
    func encodeData(_ image: ImageBuffer, pts: Int64, sink: (Data) throws -> Void) throws {
        try encode(image, pts: pts) { p in try sink(Data(bytes: p.pointee.data, count: Int(p.pointee.size))) }
    }

    /// As above, handing the raw packet (valid only during the call).
    ///
    /// `image` may be larger than the encoder by at most `slack` pixels per side: its top-left
    /// `width`×`height` is encoded (how ``VideoWriter`` drops the odd last column or row).
    func encode(_ image: ImageBuffer, pts: Int64, slack: Int = 0,
                packets: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        guard (width...width + slack).contains(image.width), (height...height + slack).contains(image.height) else {
            throw MediaError(.encodeFailed, "A \(image.width)×\(image.height) picture cannot go into a \(width)×\(height) output.")
        }
        let f = frame.pointer
        if av_frame_make_writable(f) < 0 { throw MediaError(.encodeFailed, "Out of memory preparing a picture.") }
        let rows = image.pixels.withUnsafeBufferPointer { buf in
            swm_sws_scale_from_packed(scaler, buf.baseAddress, Int32(image.width * 3), Int32(width * 3), Int32(height), f)
        }
        guard rows > 0 else { throw MediaError(.encodeFailed, "A picture could not be converted for the encoder.") }
        f.pointee.pts = pts
        try send(f, packets: packets)
    }

    /// Encodes a frame already in the encoder's pixel format and size (its `pts` set by the caller).
    func encode(frame f: UnsafeMutablePointer<AVFrame>, packets: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        try send(f, packets: packets)
    }

    /// Flushes delayed packets.
    func finishData(sink: (Data) throws -> Void) throws {
        try send(nil) { p in try sink(Data(bytes: p.pointee.data, count: Int(p.pointee.size))) }
    }

    /// Flushes delayed packets, handing each raw packet to `packets`.
    func finish(packets: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        try send(nil, packets: packets)
    }

    private func send(_ f: UnsafeMutablePointer<AVFrame>?, packets: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        let rc = avcodec_send_frame(context, f)
        if rc < 0 && rc != swm_averror_eof() {
            throw MediaError(.encodeFailed, "The encoder rejected a picture.", underlying: ffErrorText(rc))
        }
        while true {
            let r = avcodec_receive_packet(context, packet.pointer)
            if r == swm_averror_eagain() || r == swm_averror_eof() { return }
            if r < 0 { throw MediaError(.encodeFailed, "Encoding failed.", underlying: ffErrorText(r)) }
            defer { av_packet_unref(packet.pointer) }
            try packets(packet.pointer)
        }
    }
}
