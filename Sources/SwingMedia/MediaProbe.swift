import Foundation
import CFFmpeg

/// Reads a media file's container and stream parameters without decoding it.
package enum MediaProbe {
    /// Probes `path`.
    /// - Parameter path: A local media file (any container/codec FFmpeg reads).
    /// - Returns: Duration, start, and the primary video/audio streams' parameters.
    /// - Throws: ``MediaError`` `.fileNotFound`, or `.unreadable` for empty, truncated or non-media files.
    package static func probe(_ path: String) throws -> MediaInfo {
        let input = try InputFile(path: path)
        let video = input.videoStreamIndex.flatMap { input.stream($0) }.map { st in
            var info = videoInfo(st)
            info.captureFrameRate = captureFrameRate(st, format: input.context)
            return info
        }
        let audio = input.audioStreamIndex.flatMap { input.stream($0) }.map(audioInfo)
        let start = input.context.pointee.start_time
        return MediaInfo(
            path: path, formatName: input.formatName, duration: input.duration,
            startTime: start == swm_nopts() ? 0 : Double(start) / Double(AV_TIME_BASE),
            video: video, audio: audio)
    }

    /// The capture-rate tags a phone writes on a slow-motion (or any) video, in the order they are read.
    static let captureRateKeys = ["com.android.capture.fps"]

    /// The capture rate the file states (stream tags first, then the container's), when it is a positive number.
    static func captureFrameRate(_ st: UnsafeMutablePointer<AVStream>, format: UnsafeMutablePointer<AVFormatContext>) -> Double? {
        for dict in [st.pointee.metadata, format.pointee.metadata] {
            for key in captureRateKeys {
                guard let entry = av_dict_get(dict, key, nil, 0), let value = entry.pointee.value else { continue }
                if let rate = Double(String(cString: value).trimmingCharacters(in: .whitespaces)), rate.isFinite, rate > 0 {
                    return rate
                }
            }
        }
        return nil
    }

    static func videoInfo(_ st: UnsafeMutablePointer<AVStream>) -> VideoStreamInfo {
        let par = st.pointee.codecpar.pointee
        var fps = av_q2d(st.pointee.avg_frame_rate)
        if !fps.isFinite || fps <= 0 { fps = av_q2d(st.pointee.r_frame_rate) }
        if !fps.isFinite || fps <= 0 { fps = 0 }
        let frames = st.pointee.nb_frames > 0 ? Int(st.pointee.nb_frames) : nil
        return VideoStreamInfo(
            codec: String(cString: avcodec_get_name(par.codec_id)),
            width: Int(par.width), height: Int(par.height), frameRate: fps,
            rotation: normalisedRotation(swm_stream_display_rotation(st)), frameCount: frames)
    }

    static func audioInfo(_ st: UnsafeMutablePointer<AVStream>) -> AudioStreamInfo {
        let par = st.pointee.codecpar.pointee
        return AudioStreamInfo(
            codec: String(cString: avcodec_get_name(par.codec_id)),
            sampleRate: Int(par.sample_rate), channels: Int(par.ch_layout.nb_channels))
    }

    /// Snaps a display-matrix angle to the nearest quarter turn in [0, 360); phones only write those.
    static func normalisedRotation(_ degrees: Double) -> Double {
        let quarter = (degrees / 90).rounded() * 90
        let r = quarter.truncatingRemainder(dividingBy: 360)
        return r < 0 ? r + 360 : r
    }
}
