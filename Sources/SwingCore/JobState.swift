/// Where a job is, for every kind of job the product runs: session analyses (stored, claimed by workers),
/// the studio's video jobs and model downloads (kept in memory by the server).
/// `queued` → `running` → `done` | `failed` | `cancelled`.
///
/// An analysis whose worker stopped gracefully goes back to `queued`; one whose worker died is taken again
/// by the next claim once its lease runs out. A download starts `running` (it is never queued) and is never
/// cancelled. The raw values are the API's and the database's words.
package enum JobState: String, Codable, Sendable, CaseIterable {
    case queued, running, done, failed, cancelled

    /// Whether the job will not change any more.
    package var isFinal: Bool { self == .done || self == .failed || self == .cancelled }
}
