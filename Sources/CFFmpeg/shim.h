// Umbrella header for the FFmpeg libraries SwingMedia uses, plus tiny inline
// helpers for what Swift cannot import (function-like macros).
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

/// AVERROR(EAGAIN) as a value Swift can see.
static inline int swm_averror_eagain(void) { return AVERROR(EAGAIN); }
/// AVERROR_EOF as a value Swift can see.
static inline int swm_averror_eof(void) { return AVERROR_EOF; }
/// AV_NOPTS_VALUE as a value Swift can see.
static inline int64_t swm_nopts(void) { return AV_NOPTS_VALUE; }
/// Human readable text for an FFmpeg error code.
static inline void swm_strerror(int code, char *buf, size_t size) { av_strerror(code, buf, size); }

#endif
