import Foundation
import SwingCore
import SwingStore

/// Copies what one store holds into another (`swingmaster migrate`): every session with its shots, pose
/// track and document (the document's id becomes the new one), the player's hand, the model records and
/// their detection runs, and the player's racket sounds. Run it again and it copies only what is new: a session is the same when its
/// file's checksum, name and analysis time are; a run when its model and start are.
///
/// With a media folder, each session's video is copied there too (named by its SHA-256, as `serve` names
/// uploads) and the copy points at it, so the web app can play it; a video that is gone is reported and
/// the session keeps its old path.
package enum StoreCopy {
    /// What a copy did.
    package struct Report: Sendable, Equatable {
        package var sessionsCopied = 0
        package var sessionsAlreadyThere = 0
        package var mediaCopied = 0
        /// Videos named by sessions that were not found (those sessions keep their path).
        package var mediaMissing: [String] = []
        package var modelRecordsCopied = 0
        package var runsCopied = 0
        package var racketSoundsCopied = 0
    }

    /// Copies `source` into `target`.
    /// - Parameters:
    ///   - media: Where to copy the sessions' videos (`nil` keeps their paths as they are).
    ///   - progress: Told after each session (copied so far, total).
    /// - Throws: `StoreError` from either store, the file system's error when a video cannot be copied.
    package static func copy(from source: any Store, to target: any Store, media: URL? = nil,
                            progress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> Report {
        var report = Report()
        if let media { try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true) }
        let existing = Set(try await target.sessions().map(key))
        let sessions = try await source.sessions().reversed()   // oldest first: ids keep their order
        for (n, summary) in sessions.enumerated() {
            defer { progress?(n + 1, sessions.count) }
            guard !existing.contains(key(summary)), let id = summary.id, let detail = try await source.session(id: id) else {
                report.sessionsAlreadyThere += 1
                continue
            }
            var record = detail.session
            if let media {
                if let copied = try copyMedia(record.filePath, sha256: record.fileSHA256, to: media) {
                    if copied.isNew { report.mediaCopied += 1 }
                    record.filePath = copied.path
                } else {
                    report.mediaMissing.append(record.filePath)
                }
            }
            let document = record.documentJSON.map(renumbered)
            record.documentJSON = nil
            _ = try await target.saveSession(NewSession(record: record, shots: detail.shots, track: try await source.sessionTrack(id: id),
                                                        document: document))
            report.sessionsCopied += 1
        }

        if try await target.dominantHand() == nil, let hand = try await source.dominantHand() {
            try await target.setDominantHand(hand)
        }
        for record in try await source.allModelRecords() where try await target.modelRecord(id: record.modelId) == nil {
            try await target.updateModelRecord(id: record.modelId) { $0 = record }
            report.modelRecordsCopied += 1
        }
        let runs = Set(try await target.detectionSessions(modelId: nil, limit: nil).map(runKey))
        for run in try await source.detectionSessions(modelId: nil, limit: nil).reversed() where !runs.contains(runKey(run)) {
            var copy = run
            copy.id = nil
            _ = try await target.saveDetectionSession(copy)
            report.runsCopied += 1
        }
        // The player's racket sounds, without their link to a session of the other store.
        let sounds = Set(try await target.contactModels().map(soundKey))
        for sound in try await source.contactModels().reversed() where !sounds.contains(soundKey(sound)) {
            var copy = sound
            copy.id = nil
            copy.sessionId = nil
            _ = try await target.saveContactModel(copy)
            report.racketSoundsCopied += 1
        }
        return report
    }

    /// Builds the document `text` under the session's new id.
    static func renumbered(_ text: String) -> @Sendable (Int64) throws -> String {
        { newId in
            var document = try SessionDocument.decode(Data(text.utf8))
            document.session.id = newId
            return String(decoding: try document.jsonData(), as: UTF8.self)
        }
    }

    /// What makes two stored sessions the same analysis.
    static func key(_ s: SessionRecord) -> String {
        "\(s.fileSHA256)|\(s.fileName)|\(Int64((s.createdAt.timeIntervalSince1970 * 1000).rounded()))"
    }

    static func soundKey(_ m: ContactModelRecord) -> String {
        "\(m.name)|\(Int64((m.createdAt.timeIntervalSince1970 * 1000).rounded()))"
    }

    static func runKey(_ r: DetectionSessionRecord) -> String {
        "\(r.modelId)|\(Int64((r.startedAt.timeIntervalSince1970 * 1000).rounded()))"
    }

    /// Copies the video at `path` into `folder` as `<sha256>.<ext>` unless it is there; `nil` when the
    /// video is gone.
    static func copyMedia(_ path: String, sha256: String, to folder: URL) throws -> (path: String, isNew: Bool)? {
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        let destination = folder.appendingPathComponent(sha256 + "." + (ext.isEmpty ? "bin" : ext))
        if FileManager.default.fileExists(atPath: destination.path) { return (destination.path, false) }
        guard FileManager.default.isReadableFile(atPath: path) else { return nil }
        // Copy beside the destination, then rename: an interrupted copy leaves no half file under the name.
        let part = destination.appendingPathExtension("part")
        try? FileManager.default.removeItem(at: part)
        try FileManager.default.copyItem(atPath: path, toPath: part.path)
        try FileManager.default.moveItem(at: part, to: destination)
        return (destination.path, true)
    }
}
