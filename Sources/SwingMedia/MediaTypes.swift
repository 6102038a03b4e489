import SwingCore

/// What ``MediaProbe`` learned about a media file.
package struct MediaInfo: Sendable, Codable, Equatable {
    /// The path that was probed.
    package var path: String
    /// FFmpeg's demuxer name(s), e.g. `"mov,mp4,m4a,3gp,3g2,mj2"` or `"wav"`.
    package var formatName: String
    /// Duration in seconds (container duration, or the longest stream's).
    package var duration: Double
    /// The container's start time in seconds as stored in the file. SwingMedia's times are
    /// measured from `max(0, startTime)`, so audio and video times share one origin.
    package var startTime: Double
    /// The primary video stream, if any (cover-art pictures are ignored).
    package var video: VideoStreamInfo?
    /// The primary audio stream, if any.
    package var audio: AudioStreamInfo?

    package init(path: String, formatName: String, duration: Double, startTime: Double,
                video: VideoStreamInfo?, audio: AudioStreamInfo?) {
        self.path = path; self.formatName = formatName; self.duration = duration
        self.startTime = startTime; self.video = video; self.audio = audio
    }
}

/// The primary video stream of a file.
package struct VideoStreamInfo: Sendable, Codable, Equatable {
    /// Codec short name, e.g. `"h264"`, `"hevc"`, `"vp9"`.
    package var codec: String
    /// Coded width in pixels (before rotation).
    package var width: Int
    /// Coded height in pixels (before rotation).
    package var height: Int
    /// Average frame rate in frames per second.
    package var frameRate: Double
    /// Counter-clockwise rotation in degrees, normalised to [0, 360), that a player applies to show
    /// the picture upright (from the display matrix: ffprobe's `rotation`, so a portrait phone video
    /// that ffprobe reports as -90 gives 270). Decoded ``VideoFrame``s already have it applied.
    package var rotation: Double
    /// Number of frames when the container states it.
    package var frameCount: Int?
    /// The rate the camera filmed at, frames per second, when the file says so (Android's
    /// `com.android.capture.fps`): a slow-motion file films at 120–960 and plays at ``frameRate``.
    package var captureFrameRate: Double?

    package init(codec: String, width: Int, height: Int, frameRate: Double, rotation: Double, frameCount: Int?,
                captureFrameRate: Double? = nil) {
        self.codec = codec; self.width = width; self.height = height
        self.frameRate = frameRate; self.rotation = rotation; self.frameCount = frameCount
        self.captureFrameRate = captureFrameRate
    }

    /// How many times slower than it was filmed the video plays (capture rate ÷ playback rate), when the file
    /// says it was filmed faster than it plays by at least ``slowMotionMinimum``; `nil` for real-time video.
    package var slowMotion: Double? {
        guard let capture = captureFrameRate, capture.isFinite, frameRate > 0 else { return nil }
        let factor = capture / frameRate
        return factor >= Self.slowMotionMinimum ? factor : nil
    }

    /// Below this capture ÷ playback ratio a file is real time (phones write their nominal rate, e.g. 30
    /// for a 29.97 fps stream).
    package static let slowMotionMinimum = 1.5

    /// Width and height of the picture as displayed (after rotation).
    package var displaySize: (width: Int, height: Int) {
        isQuarterTurn ? (height, width) : (width, height)
    }

    /// Whether the rotation swaps width and height.
    var isQuarterTurn: Bool { rotation == 90 || rotation == 270 }
}

/// The primary audio stream of a file.
package struct AudioStreamInfo: Sendable, Codable, Equatable {
    /// Codec short name, e.g. `"aac"`, `"opus"`, `"mp3"`, `"pcm_s16le"`.
    package var codec: String
    /// Sample rate in Hz.
    package var sampleRate: Int
    /// Number of channels.
    package var channels: Int

    package init(codec: String, sampleRate: Int, channels: Int) {
        self.codec = codec; self.sampleRate = sampleRate; self.channels = channels
    }
}

/// A part of the media timeline: `start` seconds from the media start, `duration` seconds long
/// (`nil` = to the end).
package struct TimeRange: Sendable, Equatable, Codable {
    /// Start in seconds from the media start.
    package var start: Double
    /// Length in seconds, or `nil` for "until the end".
    package var duration: Double?

    package init(start: Double, duration: Double? = nil) {
        self.start = start; self.duration = duration
    }

    /// End of the range, if bounded.
    package var end: Double? { duration.map { start + $0 } }
}

/// Mono Float32 audio samples placed on the media timeline.
package struct AudioPCM: Sendable, Equatable {
    /// Samples, nominally in [-1, 1] (not clipped).
    package var samples: [Float]
    /// Samples per second.
    package var sampleRate: Int
    /// Media time in seconds of `samples[0]`.
    package var startTime: Double

    package init(samples: [Float], sampleRate: Int, startTime: Double) {
        self.samples = samples; self.sampleRate = sampleRate; self.startTime = startTime
    }

    /// Length in seconds.
    package var duration: Double { sampleRate > 0 ? Double(samples.count) / Double(sampleRate) : 0 }

    /// Media time in seconds of sample `index`.
    package func time(ofSample index: Int) -> Double { startTime + Double(index) / Double(sampleRate) }
}

/// One decoded, upright RGB video frame.
package struct VideoFrame: Sendable {
    /// The picture, rotation applied, resized if the reader was given a target size.
    package var image: ImageBuffer
    /// Presentation time in seconds from the media start.
    package var time: Double
    /// The frame's number: decoded frames counted from the start of the video (0-based, presentation
    /// order), whatever its frame rate did (``FrameTimeline``).
    package var index: Int

    package init(image: ImageBuffer, time: Double, index: Int) {
        self.image = image; self.time = time; self.index = index
    }
}
