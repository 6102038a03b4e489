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
#include <string.h>

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

/// Copies the display matrix (rotation) of `src` to `dst`, so a remuxed or re-encoded copy of a
/// phone video shows upright as the original does. Returns 0, or a negative AVERROR.
static inline int swm_stream_copy_display_matrix(const AVStream *src, AVStream *dst) {
    size_t size = 0;
    const uint8_t *sd = av_stream_get_side_data(src, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (!sd || size == 0) return 0;
    uint8_t *copy = av_stream_new_side_data(dst, AV_PKT_DATA_DISPLAYMATRIX, size);
    if (!copy) return AVERROR(ENOMEM);
    memcpy(copy, sd, size);
    return 0;
}

/// Converts the top-left `w`×`h` of a decoded frame into `dst` (both FFmpeg-allocated, so aligned
/// and padded as swscale requires; the context is made for `w`×`h`). Returns rows or a negative AVERROR.
static inline int swm_sws_scale_frame(struct SwsContext *c, const AVFrame *src, int h, AVFrame *dst) {
    return sws_scale(c, (const uint8_t * const *)src->data, src->linesize, 0, h, dst->data, dst->linesize);
}

/// Whether a packet carries AV_PKT_DATA_SKIP_SAMPLES (encoder priming / padding to drop).
static inline int swm_packet_has_skip_samples(const AVPacket *pkt) {
    size_t size = 0;
    return av_packet_get_side_data(pkt, AV_PKT_DATA_SKIP_SAMPLES, &size) != NULL;
}

/// Bytes between rows of a scratch plane handed to libswscale: its SIMD paths read and write whole
/// vector blocks per row, so rows start on 64-byte boundaries (FFmpeg's own buffers do the same).
static inline int swm_aligned_stride(int row_bytes) { return FFALIGN(row_bytes, 64); }

/// A scratch plane of `h` rows of `stride` bytes with FFmpeg's tail padding (the padding zeroed;
/// the rows are written before they are read, so a 1080p frame is not zero-filled), or NULL.
static inline uint8_t *swm_alloc_plane(int stride, int h) {
    size_t size = (size_t)stride * (size_t)h;
    uint8_t *plane = av_malloc(size + AV_INPUT_BUFFER_PADDING_SIZE);
    if (plane) memset(plane + size, 0, AV_INPUT_BUFFER_PADDING_SIZE);
    return plane;
}

/// Scales/converts a decoded picture into one tightly packed plane (e.g. RGB24) of `dst_h` rows of
/// `row_bytes` at `dst`. libswscale writes into an aligned, padded scratch plane; only the packed
/// rows are copied out, so `dst` needs exactly `row_bytes * dst_h` bytes. Returns rows written or
/// a negative AVERROR.
static inline int swm_sws_scale_to_packed(struct SwsContext *c, const AVFrame *src,
                                          uint8_t *dst, int row_bytes, int dst_h) {
    int stride = swm_aligned_stride(row_bytes);
    uint8_t *plane = swm_alloc_plane(stride, dst_h);
    if (!plane) return AVERROR(ENOMEM);
    uint8_t *d[4] = { plane, NULL, NULL, NULL };
    int ls[4] = { stride, 0, 0, 0 };
    int rows = sws_scale(c, (const uint8_t * const *)src->data, src->linesize, 0, src->height, d, ls);
    if (rows > dst_h) rows = dst_h;
    for (int y = 0; y < rows; y++) memcpy(dst + (size_t)y * row_bytes, plane + (size_t)y * stride, row_bytes);
    av_free(plane);
    return rows;
}

/// Converts `h` rows of `row_bytes` from a packed plane (e.g. RGB24) whose rows are `src_stride`
/// bytes apart (`src_stride >= row_bytes`, so the left part of a wider picture can be taken) into
/// the planes of `dst` (allocated by av_frame_get_buffer). The rows are first copied into an
/// aligned, padded scratch plane so libswscale never reads past them. Returns rows or a negative AVERROR.
static inline int swm_sws_scale_from_packed(struct SwsContext *c, const uint8_t *src, int src_stride,
                                            int row_bytes, int h, AVFrame *dst) {
    int stride = swm_aligned_stride(row_bytes);
    uint8_t *plane = swm_alloc_plane(stride, h);
    if (!plane) return AVERROR(ENOMEM);
    for (int y = 0; y < h; y++) memcpy(plane + (size_t)y * stride, src + (size_t)y * src_stride, row_bytes);
    const uint8_t *s[4] = { plane, NULL, NULL, NULL };
    int ls[4] = { stride, 0, 0, 0 };
    int rows = sws_scale(c, s, ls, 0, h, dst->data, dst->linesize);
    av_free(plane);
    return rows;
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
