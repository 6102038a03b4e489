import ArgumentParser
import SwingPipeline

/// `analyze` flags for which swing-window frames are posed and by how many workers (``PoseSampling``).
struct PoseSamplingOptions: ParsableArguments {
    @Option(name: .customLong("pose-fps"),
            help: "Pose rate away from each contact, frames/s; frames near the contact are always all posed (default \(Self.defaultRate); 0 = every frame).")
    var poseFPS: Double?
    @Option(name: .customLong("pose-workers"), help: "Swing windows posed in parallel (default 0 = one per core, at most \(PoseSampling.maxDefaultWorkers)).")
    var poseWorkers: Int?
    @Option(name: .customLong("pose-threads"),
            help: "ONNX Runtime threads per pose worker (default 0 = one per worker when there are several, else ONNX Runtime's choice).")
    var poseThreads: Int?
    @Option(name: .customLong("pose-core-margin"),
            help: "Extra frames posed at full rate either side of the frames the metrics read (default \(PoseSampling().coreMarginFrames)).")
    var coreMargin: Int?
    @Flag(name: .customLong("skip-unposed-frames"), inversion: .prefixedNo,
          help: "Let the decoder drop frames that are neither posed nor referenced by other frames (default \(PoseSampling().skipUnposedFrames ? "on" : "off")).")
    var skipUnposed: Bool?
    @Flag(name: .customLong("skip-deblocking"),
          help: "Skip the decoder's deblocking filter: H.264 decodes about a fifth faster, every frame a little blockier (docs/analysis.md).")
    var skipDeblocking = false

    static let defaultRate: String = PoseSampling().outerFramesPerSecond.map { String(format: "%g", $0) } ?? "0"

    func validate() throws {
        try OptionCheck.number(poseFPS, "--pose-fps", 0...1_000)
        try OptionCheck.threads(poseWorkers, "--pose-workers")
        try OptionCheck.threads(poseThreads, "--pose-threads")
        try OptionCheck.integer(coreMargin, "--pose-core-margin", 0...OptionCheck.maxFrames)
        _ = try sampling()
    }

    /// The sampling with the user's overrides.
    func sampling() throws -> PoseSampling {
        var s = PoseSampling()
        if let poseFPS { s.outerFramesPerSecond = poseFPS == 0 ? nil : poseFPS }
        if let poseWorkers { s.workers = poseWorkers }
        if let coreMargin { s.coreMarginFrames = coreMargin }
        if let skipUnposed { s.skipUnposedFrames = skipUnposed }
        s.skipDeblocking = skipDeblocking
        if let problem = s.problem { throw ValidationError(problem) }
        return s
    }
}
