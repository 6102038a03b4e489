import Foundation
import SwingBiomech
import SwingCore
import SwingMedia
import SwingStore
import SwingVision

/// Stores analysed sessions and reads them back as the one session document, the shot view and the CSV.
/// The CLI and the HTTP server both go through here, so a session reads the same everywhere.
package enum SessionArchive {
    /// What storing `analysis` writes, in one ``NewSession``: the session row, its shots with their frames,
    /// the pose track, and the document (built with the new id once it is known).
    /// - Parameters:
    ///   - file: How the user named the video (shown in listings and the document's `file`).
    ///   - mediaPath: The analysed file on disk (checksummed; the session's `filePath`).
    ///   - beforeCommit: Runs inside the transaction with the stored document and its bytes (e.g. to write
    ///     the user's output files); when it throws, nothing is stored.
    /// - Throws: the file system's error when `mediaPath` cannot be read for its checksum.
    package static func prepare(_ analysis: SessionAnalysis, file: String, mediaPath: String, hand: Hand, createdAt: Date = Date(),
                               beforeCommit: (@Sendable (SessionDocument, Data) throws -> Void)? = nil) throws -> NewSession {
        let checksum = try SHA256.hex(ofFile: mediaPath)
        let document = SessionDocument(analysis, id: nil, file: file, hand: hand, createdAt: createdAt)
        let shots = zip(document.session.shots, analysis.shotFrames(hand: hand)).map { shot, frames in
            ShotRecord(shot, frames: frames.isEmpty ? nil : frames)
        }
        let record = SessionRecord(
            filePath: mediaPath, fileName: URL(fileURLWithPath: file).lastPathComponent, fileSHA256: checksum,
            createdAt: document.session.createdAt, durationSeconds: document.session.duration, fps: document.session.fps,
            hand: hand, stats: document.session.stats)
        let scale = analysis.displayScale
        let track = SessionTrackRecord(track: TrackArchive.encode(analysis.track), videoFrames: analysis.trackVideoFrames,
                                       poseToDisplayX: scale.x, poseToDisplayY: scale.y,
                                       parameters: analysis.parameters.json)
        return NewSession(record: record, shots: shots, track: track) { id in
            var stored = document
            stored.session.id = id
            let bytes = try stored.jsonData()
            try beforeCommit?(stored, bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Stores `analysis` in one transaction (``prepare(_:file:mediaPath:hand:createdAt:beforeCommit:)``) and
    /// returns the new id and the document's exact bytes.
    /// - Throws: `StoreError` when the database cannot be written (nothing is stored then), what
    ///   `beforeCommit` throws, or the file system's error when `mediaPath` cannot be read for its checksum.
    package static func save(_ analysis: SessionAnalysis, file: String, mediaPath: String, hand: Hand,
                            in db: any Store, createdAt: Date = Date(),
                            beforeCommit: (@Sendable (SessionDocument, Data) throws -> Void)? = nil) async throws -> (id: Int64, json: Data) {
        let new = try prepare(analysis, file: file, mediaPath: mediaPath, hand: hand, createdAt: createdAt, beforeCommit: beforeCommit)
        let id = try await db.saveSession(new)
        guard let text = try await db.sessionRecord(id: id)?.documentJSON else {
            throw StoreError.databaseError("Session \(id) was stored without its document.")
        }
        return (id, Data(text.utf8))
    }

    /// The session document of session `id`, `nil` if there is none.
    /// - Throws: `StoreError` when the database cannot be read or the stored document is damaged.
    package static func document(id: Int64, in db: any Store) async throws -> SessionDocument? {
        guard let record = try await db.sessionRecord(id: id) else { return nil }
        if let text = record.documentJSON { return try decodeStored(text, id: id) }
        // Stored before the documents were kept: rebuild it from the shot columns.
        guard let detail = try await db.session(id: id) else { return nil }
        return legacyDocument(detail)
    }

    /// The session document's bytes (`analyze --json`), `nil` if there is no session `id`.
    /// - Throws: `StoreError` when the database cannot be read or the stored document is damaged.
    package static func documentJSON(id: Int64, in db: any Store) async throws -> Data? {
        guard let record = try await db.sessionRecord(id: id) else { return nil }
        if let text = record.documentJSON { return Data(text.utf8) }
        return try await document(id: id, in: db)?.jsonData()
    }

    /// The shot view of shot `number` (1-based) of session `id`, `nil` if there is no such session or shot.
    /// - Throws: `StoreError` when the database cannot be read or the stored data is damaged.
    package static func shotView(id: Int64, number: Int, in db: any Store) async throws -> ShotView? {
        guard let document = try await document(id: id, in: db),
              document.session.shots.indices.contains(number - 1),
              let record = try await db.shot(sessionId: id, index: number) else { return nil }
        let s = document.session
        return ShotView(sessionId: id, number: number, shotCount: s.shots.count, hand: s.hand,
                        video: .init(width: s.width, height: s.height, fps: s.fps), joints: SkeletonJoints.names,
                        bones: SkeletonJoints.bones, shot: s.shots[number - 1], frames: record.frames ?? [])
    }

    /// Every shot's posed frames (``ShotView/frames``), in shot order — what ``SessionOverlay`` draws;
    /// `nil` if there is no session `id`.
    /// - Throws: `StoreError` when the database cannot be read or the stored data is damaged.
    package static func shotFrames(id: Int64, in db: any Store) async throws -> (SessionDocument, [[ShotFrame]])? {
        guard let document = try await document(id: id, in: db), let detail = try await db.session(id: id) else { return nil }
        let byIndex = Dictionary(detail.shots.map { ($0.shot.index, $0) }, uniquingKeysWith: { a, _ in a })
        let frames = document.session.shots.map { byIndex[$0.index]?.frames ?? [] }
        return (document, frames)
    }

    /// `GET /api/sessions/{id}/shots/{n}` bytes, `nil` if there is no such session or shot.
    /// - Throws: `StoreError` when the database cannot be read or the stored data is damaged.
    package static func shotJSON(id: Int64, number: Int, in db: any Store) async throws -> Data? {
        try await shotView(id: id, number: number, in: db)?.jsonData()
    }

    /// The session's CSV (``SessionDocument/csv()``), `nil` if there is no session `id`.
    /// - Throws: `StoreError` when the database cannot be read or the stored document is damaged.
    package static func csv(id: Int64, in db: any Store) async throws -> String? {
        try await document(id: id, in: db)?.csv()
    }

    /// The session's pose as an OpenSim file (``OpenSimExport``): the world landmarks of every posed frame
    /// (`.trc`) or the body measures over time (`.mot`) — of the whole session, or of shot `shot`'s swing
    /// (1-based: its posed frames, from the preparation to the follow-through); `nil` if there is no session `id`.
    /// - Throws: `StoreError.notFound` when the session was stored before its pose was kept, has no such shot,
    ///   or has no frame with a person in what was asked for; `StoreError` when the database cannot be read
    ///   or the stored pose is damaged.
    package static func openSim(_ format: OpenSimFormat, id: Int64, shot: Int? = nil, name: String,
                               in db: any Store) async throws -> String? {
        guard let document = try await document(id: id, in: db) else { return nil }
        var during: ClosedRange<Double>?
        if let shot {
            let count = document.session.shots.count
            guard (1...max(count, 1)).contains(shot), count > 0 else {
                throw StoreError.notFound("Session \(id) has no shot \(shot) (it has \(count)).")
            }
            let times = try await db.shot(sessionId: id, index: document.session.shots[shot - 1].index)?.frames?.map(\.time) ?? []
            guard let first = times.min(), let last = times.max() else {
                throw StoreError.notFound("Shot \(shot) of session \(id) has no frame with a person in it: there is no pose to export.")
            }
            during = first...last
        }
        guard let stored = try await db.sessionTrack(id: id) else {
            throw StoreError.notFound("Session \(id) was stored before its pose was kept; analyse its video again to export it.")
        }
        let track: PoseTrack
        do { track = try TrackArchive.decode(stored.track) } catch {
            throw StoreError.databaseError("The stored pose of session \(id) is damaged: \(error).")
        }
        let text = switch format {
        case .trc: OpenSimExport.trc(track, rate: document.session.fps, name: name, during: during)
        case .mot: OpenSimExport.mot(track, hand: document.session.hand, name: name, during: during)
        }
        guard let text else {
            throw StoreError.notFound("Session \(id) has no frame with a person in it: there is no pose to export.")
        }
        return text
    }

    /// Writes session `id`'s highlights (``SessionHighlights``) to `output` from its video — `source` when it
    /// moved, else where it was analysed; `nil` if there is no session `id`. The engine work runs on its own
    /// thread, off the cooperative pool.
    /// - Throws: `MediaError.fileNotFound` when the video is not there, and what ``SessionHighlights/write``
    ///   throws.
    package static func writeHighlights(id: Int64, source: String? = nil, to output: String, overlay: Bool, in db: any Store,
                                       progress: ProgressHandler? = nil) async throws -> SessionHighlights.Reel? {
        guard let (document, frames) = try await shotFrames(id: id, in: db),
              let record = try await db.sessionRecord(id: id) else { return nil }
        let video = source ?? record.filePath
        guard FileManager.default.fileExists(atPath: video) else {
            throw MediaError(.fileNotFound, "The video of session \(id) is not at \(video) any more; say where it is now (--video).")
        }
        return try await BlockingWork.run("swingmaster.highlights") {
            try SessionHighlights.write(document, shotFrames: frames, source: video, to: output, maxSide: nil,
                                        overlay: overlay, progress: progress)
        }
    }

    private static func decodeStored(_ text: String, id: Int64) throws -> SessionDocument {
        do { return try SessionDocument.decode(Data(text.utf8)) } catch {
            throw StoreError.databaseError("The stored document of session \(id) is damaged: \(error).")
        }
    }

    /// The document of a session stored before v3: its stored shots and statistics (no pose info, no video
    /// size; `contactTime` is the heard time).
    static func legacyDocument(_ detail: SessionDetail) -> SessionDocument {
        let r = detail.session
        let shots = detail.shots.map(\.shot)
        return SessionDocument(session: .init(
            id: r.id, file: r.filePath, createdAt: SessionDocument.wholeSeconds(r.createdAt), duration: r.durationSeconds,
            fps: r.fps, width: 0, height: 0, hand: r.hand, shots: shots, stats: r.stats,
            contactsHeard: shots.count, warnings: [], pose: nil, visualDetector: nil))
    }
}

/// The two OpenSim files a session exports (``SessionArchive/openSim(_:id:shot:name:in:)``): markers (`.trc`) and
/// the body measures over time (`.mot`).
package enum OpenSimFormat: String, CaseIterable, Sendable {
    case trc, mot
}
