import SwingCore

/// Where the pose stage's time went, summed over its workers: decoding (seeks included), conversion
/// of the posed frames to RGB, ONNX Runtime inference, and our own pre/post-processing (crops,
/// decoding the models' outputs, smoothing). `analyze` prints it under its timings line.
///
/// CPU seconds are the workers' own threads (see ``StageTime``): with several workers (one decoding
/// thread and single-threaded sessions each) they are the whole cost; a single worker decodes and
/// infers on extra threads, whose time only the wall clock shows.
package struct PoseStageTimes: Sendable, Equatable {
    /// Frames decoded, including keyframe pre-roll and frames decoded but not posed.
    package var framesDecoded = 0
    package var decode = StageTime()
    package var conversion = StageTime()
    package var inference = StageTime()
    package var prePost = StageTime()

    package init() {}

    static func + (a: PoseStageTimes, b: PoseStageTimes) -> PoseStageTimes {
        var s = PoseStageTimes()
        s.framesDecoded = a.framesDecoded + b.framesDecoded
        s.decode = a.decode + b.decode
        s.conversion = a.conversion + b.conversion
        s.inference = a.inference + b.inference
        s.prePost = a.prePost + b.prePost
        return s
    }
}
