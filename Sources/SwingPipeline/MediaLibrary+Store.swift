import Foundation
import SwingBiomech
import SwingCore
import SwingMedia
import SwingStore

/// The store's reads and writes the adapters need (`serve`'s routes, its metrics), as operations of the
/// application: the server hands over ids and typed requests and gets back the shapes it sends, and never
/// names the store or its records.
extension MediaLibrary {
    /// The library of the store at `database` — `sqlite:PATH` or `postgres://user@host[:port]/database` as
    /// `--database` takes it, `nil` for `home/swingmaster.sqlite` — opened (created or migrated to this
    /// version), with the uploads folder `directory`.
    /// - Throws: `StoreError` when the address is not one or the store cannot be opened.
    package static func open(database: String?, home: URL, directory: URL) async throws -> MediaLibrary {
        let address = try database.map(StoreAddress.init(parsing:)) ?? .sqlite(home.appendingPathComponent(AppDatabase.fileName))
        return MediaLibrary(directory: directory, store: try await address.open())
    }

    // MARK: Jobs

    /// Queues the analysis of a stored, admitted upload (``admit(_:fileName:range:)``) as `request` asks.
    /// - Returns: The queued job.
    package func enqueue(upload path: String, sha256: String, fileName: String, request: AnalysisRequest,
                        warnings: [String]) async throws -> JobView {
        JobView(try await store.enqueueJob(JobRecord(upload: path, sha256: sha256, fileName: fileName, request: request,
                                                     warnings: warnings)))
    }

    /// The newest jobs, newest first.
    package func recentJobs() async throws -> [JobView] { try await store.recentJobs().map(JobView.init) }

    /// Job `id`, `nil` when there is none.
    package func job(id: Int64) async throws -> JobView? { try await store.job(id: id).map(JobView.init) }

    /// Cancels job `id` (at once when queued; a running one stops at its next check); `nil` when there is none.
    package func cancelJob(id: Int64) async throws -> JobView? { try await store.cancelJob(id: id).map(JobView.init) }

    /// Returns when job `id`'s row may have changed (another process's write included), or after `timeout`.
    package func waitForJobChange(id: Int64, timeout: Duration) async { await store.waitForJobChange(id: id, timeout: timeout) }

    /// The jobs in the store by state, and the queue as every process sharing the store sees it.
    package func jobCounts() async throws -> (byState: [JobState: Int], queue: QueueStatus) {
        (try await store.jobCountsByState(), try await store.queueStatus())
    }

    // MARK: Sessions

    /// Every stored session, newest first, as `GET /api/sessions` lists them.
    package func sessionSummaries() async throws -> [SessionSummary] {
        try await store.sessions().compactMap(SessionSummary.init)
    }

    /// Session `id`'s video, `nil` when there is no such session.
    package func video(ofSession id: Int64) async throws -> SessionVideo? {
        try await store.sessionRecord(id: id).map { SessionVideo(session: id, path: $0.filePath, fileName: $0.fileName) }
    }

    /// The hitting hand the player chose last, `nil` before they chose.
    package func dominantHand() async throws -> Hand? { try await store.dominantHand() }

    /// Keeps `hand` as the player's hitting hand.
    package func setDominantHand(_ hand: Hand) async throws { try await store.setDominantHand(hand) }

    // MARK: A session's documents (``SessionArchive``), edits (``SessionEditor``) and sound (``SoundEnvelope``)

    /// ``SessionArchive/document(id:in:)``.
    package func document(id: Int64) async throws -> SessionDocument? { try await SessionArchive.document(id: id, in: store) }
    /// ``SessionArchive/documentJSON(id:in:)``.
    package func documentJSON(id: Int64) async throws -> Data? { try await SessionArchive.documentJSON(id: id, in: store) }
    /// ``SessionArchive/shotJSON(id:number:in:)``.
    package func shotJSON(id: Int64, number: Int) async throws -> Data? { try await SessionArchive.shotJSON(id: id, number: number, in: store) }
    /// ``SessionArchive/csv(id:in:)``.
    package func csv(id: Int64) async throws -> String? { try await SessionArchive.csv(id: id, in: store) }
    /// ``SessionArchive/openSim(_:id:shot:name:in:)``.
    package func openSim(_ format: OpenSimFormat, id: Int64, shot: Int?, name: String) async throws -> String? {
        try await SessionArchive.openSim(format, id: id, shot: shot, name: name, in: store)
    }
    /// ``SessionEditor/apply(_:toSession:in:mediaPath:analyzer:)``: the edited session's document; `mediaPath`
    /// is where the session's video is now when it moved.
    package func edit(session id: Int64, _ changes: [SessionEditor.Change], mediaPath: String? = nil) async throws -> Data {
        try await SessionEditor.apply(changes, toSession: id, in: store, mediaPath: mediaPath)
    }
    /// ``SessionArchive/save(_:file:mediaPath:hand:in:createdAt:beforeCommit:)``: the new session's id and
    /// its document's exact bytes.
    package func save(_ analysis: SessionAnalysis, file: String, mediaPath: String, hand: Hand, createdAt: Date = Date(),
                      beforeCommit: (@Sendable (SessionDocument, Data) throws -> Void)? = nil) async throws -> (id: Int64, json: Data) {
        try await SessionArchive.save(analysis, file: file, mediaPath: mediaPath, hand: hand, in: store, createdAt: createdAt,
                                      beforeCommit: beforeCommit)
    }
    /// ``SessionArchive/writeHighlights(id:source:to:overlay:in:progress:)``.
    package func writeHighlights(session id: Int64, source: String? = nil, to output: String, overlay: Bool,
                                 progress: ProgressHandler? = nil) async throws -> SessionHighlights.Reel? {
        try await SessionArchive.writeHighlights(id: id, source: source, to: output, overlay: overlay, in: store, progress: progress)
    }
    /// ``SessionEditor/confirmedContacts(id:in:)``: session `id`'s video, range and contact times as the
    /// player left them, and whether they ever corrected them.
    package func confirmedContacts(session id: Int64) async throws -> (path: String, range: TimeRange, times: [Double], edited: Bool) {
        try await SessionEditor.confirmedContacts(id: id, in: store)
    }
    /// ``SoundEnvelope/of(session:bins:in:)``, decoded once and kept beside the session
    /// (`session-<id>.envelope.json`, the last number of `bins` asked for: the results page always asks the
    /// same); the session's sound never changes, its edits do not touch it, and the file goes with the session.
    package func envelope(ofSession id: Int64, bins: Int) async throws -> SoundEnvelope? {
        struct Kept: Codable { var bins: Int; var envelope: SoundEnvelope }
        let path = derived(session: id, Self.envelopeFile)
        if let data = FileManager.default.contents(atPath: path), let kept = try? JSONDecoder().decode(Kept.self, from: data),
           kept.bins == bins {
            return try await store.sessionRecord(id: id) == nil ? nil : kept.envelope
        }
        guard let envelope = try await SoundEnvelope.of(session: id, bins: bins, in: store) else { return nil }
        // Written whole under a temporary name, then renamed: a reader never sees half a file.
        let temporary = directory.appendingPathComponent(".envelope-\(UUID().uuidString).part").path
        if let data = try? JSONEncoder().encode(Kept(bins: bins, envelope: envelope)),
           FileManager.default.createFile(atPath: temporary, contents: data), rename(temporary, path) != 0 {
            try? FileManager.default.removeItem(atPath: temporary)
        }
        return envelope
    }

    /// The session's kept sound envelope, beside its other derived files.
    static let envelopeFile = "envelope.json"
}

/// A stored session's video as the adapters see it: the session, where the file is, and its name as the
/// player gave it (``MediaLibrary/video(ofSession:)``).
package struct SessionVideo: Sendable, Equatable {
    package let session: Int64
    /// The video analysed: an upload in the library's folder, or the player's own file the CLI analysed.
    package let path: String
    package let fileName: String
}

/// One row of `GET /api/sessions`: the session and its headline statistics, over all shots and per stroke.
package struct SessionSummary: Codable, Sendable {
    package var id: Int64
    package var file: String
    package var createdAt: Date
    package var duration: Double
    package var shots: Int
    package var consistency: Double?
    package var meanForwardCm: Double?
    package var meanLateralCm: Double?
    package var meanHeightCm: Double?
    package var meanWristSpeedCmS: Double?
    /// The same per stroke type the session has (keys `forehand`, `backhand`, `serve`), so the progress
    /// page can follow one stroke across sessions.
    package var byStroke: [String: StrokeSummary]?

    /// One stroke type's count and means.
    package struct StrokeSummary: Codable, Sendable {
        package var shots: Int
        package var consistency, meanForwardCm, meanLateralCm, meanHeightCm, meanWristSpeedCmS: Double?
        init(_ s: SessionStats) {
            shots = s.shotCount; consistency = s.consistency
            meanForwardCm = s.forward?.meanCm; meanLateralCm = s.lateral?.meanCm
            meanHeightCm = s.height?.meanCm; meanWristSpeedCmS = s.wristSpeed?.meanCmS
        }
    }

    /// `nil` for a record that was never stored (fetched records always have an id).
    init?(_ r: SessionRecord) {
        guard let id = r.id else { return nil }
        self.id = id; file = r.fileName; createdAt = r.createdAt; duration = r.durationSeconds; shots = r.stats.shotCount
        let stats = r.stats
        consistency = stats.consistency
        meanForwardCm = stats.forward?.meanCm; meanLateralCm = stats.lateral?.meanCm
        meanHeightCm = stats.height?.meanCm; meanWristSpeedCmS = stats.wristSpeed?.meanCmS
        byStroke = stats.byStroke?.mapValues(StrokeSummary.init)
    }
}
