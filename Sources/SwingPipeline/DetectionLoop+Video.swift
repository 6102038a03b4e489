import SwingCore
import SwingMedia
import SwingVision

extension DetectionLoop {
    /// Runs the loop over the frames of `reader` in each of `ranges`, in order. Each range is a new run, so
    /// a stride counts from its first frame; frames the throttle turns down are decoded (the codec needs
    /// them) but never converted to RGB. `detect` on a video and the visual contact stage both go through here.
    /// - Parameters:
    ///   - reader: The open video.
    ///   - ranges: Time ranges, seconds of media time.
    ///   - body: Each processed frame with the model's result; return `false` to stop.
    /// - Returns: `false` when `body` stopped it or the task was cancelled, `true` when every range was read.
    /// - Throws: `MediaError` from decoding, the predictor's error, and what `body` throws.
    package mutating func run(over reader: VideoFrameReader, ranges: [ClosedRange<Double>],
                             body: (VideoFrame, ServiceResult) throws -> Bool) throws -> Bool {
        for range in ranges {
            startRun()
            var stopped = false
            try reader.frames(from: range.lowerBound, to: range.upperBound, where: { _, _ in admit() }) { frame in
                guard !Cancellation.isRequested else { stopped = true; return false }
                let result = try run(ServiceFrame(image: frame.image, frameIndex: frame.index, time: frame.time))
                guard try body(frame, result) else { stopped = true; return false }
                return true
            }
            if stopped || Cancellation.isRequested { return false }
        }
        return true
    }
}
