import SwingCore

/// One frame's worth of detections handed to an interpreter.
///
/// Boxes are in original-image pixels (top-left origin), as every predictor returns them;
/// `width`/`height` let an interpreter normalise.
package struct InterpreterFrame: Sendable, Equatable {
    /// Standardized detections for this frame.
    package var detections: [Detection]
    /// Frame index in the source (0 for a still image).
    package var frameIndex: Int
    /// Presentation time in seconds from the start of the media (0 for a still image).
    package var time: Double
    /// Image width in pixels.
    package var width: Int
    /// Image height in pixels.
    package var height: Int
    /// With tracking: each detection's track id, in the order of ``detections`` (`nil` when untracked).
    /// Interpreters that follow objects across frames (the counter's line crossings) read it.
    package var trackIds: [Int]?

    /// Creates a frame.
    package init(detections: [Detection], frameIndex: Int = 0, time: Double = 0, width: Int, height: Int,
                trackIds: [Int]? = nil) {
        self.detections = detections; self.frameIndex = frameIndex; self.time = time
        self.width = width; self.height = height
        self.trackIds = trackIds.flatMap { $0.count == detections.count ? $0 : nil }
    }
}

/// Turns raw detections into a domain result (counts, a poker hand, racket–ball contacts, …).
///
/// Adding a model type means adding one type conforming to this protocol plus one line in
/// ``InterpreterRegistry/standard``; the engine never changes.
package protocol DetectionInterpreter: Sendable {
    /// What one frame interprets to.
    associatedtype Result: Sendable & Encodable
    /// What a whole video (a sequence of frames) interprets to. Defaults to the per-frame results.
    associatedtype VideoResult: Sendable & Encodable = InterpretedFrames<Result>
    /// Thresholds and options, decodable from a (possibly partial) JSON object so per-model
    /// configuration can be persisted as JSON; missing keys take their documented defaults.
    associatedtype Configuration: Sendable & Codable

    /// The CLI name (`passthrough`, `counter`, `poker`, `tennis-contact`, …).
    var name: String { get }

    /// Creates the interpreter with its configuration.
    init(configuration: Configuration)

    /// Interprets one frame. Must not crash on any input (bad labels are reported in the result).
    func interpret(_ frame: InterpreterFrame) -> Result

    /// Video-level hook: combines the per-frame results (totals, event merging, …).
    /// - Parameter frames: the frames in presentation order, paired with their per-frame results.
    func summarize(_ frames: [(frame: InterpreterFrame, result: Result)]) -> VideoResult
}

/// The default video result: every frame's result in order.
package struct InterpretedFrames<Result: Sendable & Encodable>: Sendable, Encodable {
    /// One entry per interpreted frame.
    package struct Entry: Sendable, Encodable {
        package var frame: Int
        package var time: Double
        package var result: Result
    }
    package var frames: [Entry]
}

extension DetectionInterpreter where VideoResult == InterpretedFrames<Result> {
    package func summarize(_ frames: [(frame: InterpreterFrame, result: Result)]) -> VideoResult {
        InterpretedFrames(frames: frames.map { .init(frame: $0.frame.frameIndex, time: $0.frame.time, result: $0.result) })
    }
}

extension DetectionInterpreter {
    /// Interprets every frame and summarizes the video.
    package func interpretVideo(_ frames: [InterpreterFrame]) -> VideoResult {
        summarize(frames.map { (frame: $0, result: interpret($0)) })
    }
}
