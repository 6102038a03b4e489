/// The reported stages of a session analysis, in order (visual contacts only with a detector): the one
/// typed stage that travels from the analyzer through the job row to the pages.
///
/// The raw value is the stage as the CLI prints it; ``title`` is how the pages name it.
package enum AnalysisStage: String, Sendable, CaseIterable, Codable {
    case extractingAudio = "extracting audio"
    case detectingContacts = "detecting contacts"
    case detectingVisualContacts = "detecting visual contacts"
    case runningPose = "running body pose"
    case computingStatistics = "computing statistics"

    /// The stage as the pages and the metrics name it ("Extracting audio").
    package var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

/// Receives the analysis' progress: the stage and the fraction of it done, 0…1.
package typealias AnalysisProgress = @Sendable (_ stage: AnalysisStage, _ fraction: Double) -> Void
