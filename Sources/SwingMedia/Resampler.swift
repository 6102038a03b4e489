import CFFmpeg

/// Owns a libswresample context converting one input format/layout/rate to mono Float32.
///
/// libswresample keeps the output aligned with the input (its filter delay is compensated and
/// released by ``flush()``), so output sample `k` is at input time `k / outRate`.
final class Resampler {
    private let context: OpaquePointer
    private let inRate: Int32
    private let inFormat: Int32
    private let inChannels: Int32

    /// Creates a resampler for frames shaped like `frame`.
    /// - Throws: ``MediaError`` `.unreadable` when libswresample rejects the input layout.
    init(like frame: UnsafePointer<AVFrame>, outRate: Int) throws {
        inRate = frame.pointee.sample_rate
        inFormat = frame.pointee.format
        inChannels = frame.pointee.ch_layout.nb_channels
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, 1)
        var inLayout = AVChannelLayout()
        // Streams without a channel layout (e.g. some PCM in AVI) get the default for their count.
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || av_channel_layout_copy(&inLayout, &UnsafeMutablePointer(mutating: frame).pointee.ch_layout) < 0 {
            av_channel_layout_default(&inLayout, max(1, inChannels))
        }
        defer { av_channel_layout_uninit(&inLayout) }
        var ctx: OpaquePointer?
        var rc = swr_alloc_set_opts2(&ctx, &outLayout, AV_SAMPLE_FMT_FLT, Int32(outRate),
                                     &inLayout, AVSampleFormat(rawValue: inFormat), inRate, 0, nil)
        if rc >= 0, let ctx { rc = swr_init(ctx) }
        guard rc >= 0, let ctx else {
            var c = ctx
            swr_free(&c)
            throw MediaError(.unreadable, "The audio track's format (\(inChannels) channels at \(inRate) Hz) cannot be converted.",
                             underlying: ffErrorText(rc))
        }
        context = ctx
    }

    deinit {
        var c: OpaquePointer? = context
        swr_free(&c)
    }

    /// Whether `frame` has the format this resampler was built for.
    func matches(_ frame: UnsafePointer<AVFrame>) -> Bool {
        frame.pointee.sample_rate == inRate && frame.pointee.format == inFormat
            && frame.pointee.ch_layout.nb_channels == inChannels
    }

    /// Converts one decoded frame.
    func convert(_ frame: UnsafePointer<AVFrame>) throws -> [Float] {
        try run(frame, capacity: swr_get_out_samples(context, frame.pointee.nb_samples))
    }

    /// Returns the samples still buffered in the filter.
    func flush() throws -> [Float] {
        try run(nil, capacity: swr_get_out_samples(context, 0) + 32)
    }

    private func run(_ frame: UnsafePointer<AVFrame>?, capacity: Int32) throws -> [Float] {
        guard capacity > 0 else { return [] }
        var out = [Float](repeating: 0, count: Int(capacity))
        let n = out.withUnsafeMutableBufferPointer { buf in
            swm_swr_convert_to_float(context, buf.baseAddress, capacity, frame)
        }
        guard n >= 0 else {
            throw MediaError(.unreadable, "Audio resampling failed.", underlying: ffErrorText(n))
        }
        out.removeLast(out.count - Int(n))
        return out
    }
}
