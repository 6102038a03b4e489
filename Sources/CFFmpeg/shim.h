// Umbrella header for the FFmpeg libraries SwingMedia uses, plus tiny inline
// helpers for what Swift cannot import (function-like macros) or handles clumsily
// (fixed-size C arrays of plane pointers).
#ifndef SWINGMASTER_CFFMPEG_SHIM_H
#define SWINGMASTER_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/opt.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/error.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
#include <math.h>

/// AVERROR(EAGAIN) as a value Swift can see.
static inline int swm_averror_eagain(void) { return AVERROR(EAGAIN); }
/// AVERROR_EOF as a value Swift can see.
static inline int swm_averror_eof(void) { return AVERROR_EOF; }
/// AV_NOPTS_VALUE as a value Swift can see.
static inline int64_t swm_nopts(void) { return AV_NOPTS_VALUE; }
/// Human readable text for an FFmpeg error code.
static inline void swm_strerror(int code, char *buf, size_t size) { av_strerror(code, buf, size); }

/// Counter-clockwise rotation in degrees stored in the stream's display matrix
/// (the value ffprobe prints as `rotation`), or 0 when the stream has none.
static inline double swm_stream_display_rotation(const AVStream *st) {
    size_t size = 0;
    const uint8_t *sd = av_stream_get_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (!sd || size < 9 * sizeof(int32_t)) return 0;
    double r = av_display_rotation_get((const int32_t *)sd);
    return isnan(r) ? 0 : r;
}

/// Whether a packet carries AV_PKT_DATA_SKIP_SAMPLES (encoder priming / padding to drop).
static inline int swm_packet_has_skip_samples(const AVPacket *pkt) {
    size_t size = 0;
    return av_packet_get_side_data(pkt, AV_PKT_DATA_SKIP_SAMPLES, &size) != NULL;
}

/// Scales/converts a decoded picture into one packed plane (e.g. RGB24) at `dst`.
static inline int swm_sws_scale_to_packed(struct SwsContext *c, const AVFrame *src,
                                          uint8_t *dst, int dst_stride) {
    uint8_t *d[4] = { dst, NULL, NULL, NULL };
    int ls[4] = { dst_stride, 0, 0, 0 };
    return sws_scale(c, (const uint8_t * const *)src->data, src->linesize, 0, src->height, d, ls);
}

/// Converts one packed plane (e.g. RGB24) of height `h` into the planes of `dst`.
static inline int swm_sws_scale_from_packed(struct SwsContext *c, const uint8_t *src,
                                            int src_stride, int h, AVFrame *dst) {
    const uint8_t *s[4] = { src, NULL, NULL, NULL };
    int ls[4] = { src_stride, 0, 0, 0 };
    return sws_scale(c, s, ls, 0, h, dst->data, dst->linesize);
}

/// Resamples `in` (or flushes when NULL) into one packed float plane; returns samples written.
static inline int swm_swr_convert_to_float(struct SwrContext *s, float *out, int out_count,
                                           const AVFrame *in) {
    uint8_t *o[1] = { (uint8_t *)out };
    return swr_convert(s, o, out_count,
                       in ? (const uint8_t **)in->extended_data : NULL,
                       in ? in->nb_samples : 0);
}

#endif
