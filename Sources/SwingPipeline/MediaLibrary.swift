import Foundation
import SwingCore
import SwingMedia
import SwingStore

/// The sessions' store and the uploads folder with everything made from it, below the server so `serve` and
/// `worker` share one set of rules: which files it owns, the engine's checks on an upload (a refused one is
/// not kept), the browser-playable copy, the pictures and videos drawn from a session, and what goes when a
/// session or a job ends; and every read and write of the store the server makes (MediaLibrary+Store.swift),
/// so the server never names the store. Files are named `<sha256>.<ext>` (uploads), `<upload>.playback.mp4`
/// (its copy) and `session-<id>.<name>` (drawn from a session).
package struct MediaLibrary: Sendable {
    /// The uploads folder (`serve --media`, `worker --media`).
    package let directory: URL
    /// The store of sessions and jobs, which also says which files are still in use.
    let store: any Store

    package init(directory: URL, store: any Store) {
        self.directory = directory
        self.store = store
    }

    /// The uploads folder `serve`, `worker` and `sessions delete` use unless told otherwise: `home/media`.
    package static func defaultDirectory(home: URL = SwingmasterHome.url()) -> URL {
        home.appendingPathComponent("media", isDirectory: true)
    }

    /// Whether `path` lies in the uploads folder (a session the CLI analysed names the player's own file,
    /// which is never written beside nor removed).
    package func owns(_ path: String) -> Bool {
        let folder = directory.standardizedFileURL.path
        return URL(fileURLWithPath: path).standardizedFileURL.path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// Where a file drawn from session `id` is kept (`session-<id>.<name>`); removed with the session.
    package func derived(session id: Int64, _ name: String) -> String {
        directory.appendingPathComponent("session-\(id).\(name)").path
    }

    // MARK: Ingest

    /// The engine's checks on a stored upload (probe, then the session limits for `range`), with its
    /// sentences naming the file as the user did. A refused upload is removed unless a session or job
    /// still uses the same bytes.
    /// - Returns: The warnings to keep with the job (e.g. below 720p).
    /// - Throws: The engine's `UserFacingError` (`MediaError`) with `fileName` in place of the stored path.
    package func admit(_ path: String, fileName: String, range: TimeRange?) async throws -> [String] {
        do {
            let info = try MediaProbe.probe(path)
            return try MediaValidator.validateSession(info, range: range).warnings.map { $0.replacingOccurrences(of: path, with: fileName) }
        } catch let error as any UserFacingError {
            await discardIfUnused(path)
            throw Renamed(error, path: path, as: fileName)
        }
    }

    /// A refusal of the engine's whose sentence names the file as the user did.
    package struct Renamed: UserFacingError {
        package let statusCode: Int32
        package let description: String
        init(_ error: any UserFacingError, path: String, as name: String) {
            statusCode = error.statusCode
            description = error.description.replacingOccurrences(of: path, with: name)
        }
    }

    // MARK: The browser-playable copy

    /// Where the playback copy of upload `path` goes (beside it: found, served and removed with it).
    package static func playbackCopyPath(forMedia path: String) -> String { path + ".playback.mp4" }

    /// Makes the H.264 copy of a video browsers cannot play (HEVC `.mov` from iPhones, …) and records it on
    /// the job; the same upload analysed again reuses its copy.
    /// - Returns: Whether a copy was needed.
    package func makePlaybackCopy(for job: JobRecord, progress: @escaping @Sendable (Double) -> Void) async throws -> Bool {
        let source = job.mediaPath
        guard try !PlaybackCopy.isBrowserPlayable(source) else { return false }
        let destination = Self.playbackCopyPath(forMedia: source)
        if !FileManager.default.fileExists(atPath: destination) {
            try await BlockingWork.run("swingmaster.playback-copy") {
                try PlaybackCopy.make(from: source, to: destination, isCancelled: { Cancellation.isRequested }, progress: progress)
            }
        }
        if let id = job.id { try await store.recordPlaybackCopy(jobId: id, path: destination) }
        return true
    }

    /// What a browser plays for `video`: its playback copy when one was made, else the file itself.
    package func playable(_ video: SessionVideo) async throws -> String {
        try await store.playbackPath(forMedia: video.path) ?? video.path
    }

    // MARK: Drawn from a session

    /// The picture of `video`'s session at its first contact (320 px), made once and kept.
    /// - Throws: `StoreError`; ``MediaError`` when the video has no frame to show.
    package func thumbnail(of video: SessionVideo) async throws -> String {
        let id = video.session
        let path = derived(session: id, "thumb.jpg")
        if FileManager.default.fileExists(atPath: path) { return path }
        // At the first contact: the player mid-stroke says more than the first frame.
        let time = try await store.shot(sessionId: id, index: 1)?.shot.time ?? 1
        let source = video.path
        try await BlockingWork.run("swingmaster.thumbnail") { try Thumbnail.make(from: source, at: time, to: path) }
        return path
    }

    /// The longer side of the annotated video and the highlights (downloads to watch, not to measure).
    package static let annotatedMaxSide = 1280

    /// Draws session `id`'s `kind` of video — the annotated video (the skeleton, the wrist arc and the contact
    /// frames over the analysed part, as `analyze --save-video` writes it) or its highlights (as
    /// `analyze --save-highlights`) — into a temporary file, kept as `session-<id>.<kind>.mp4` only when
    /// complete and the session still exists. Nothing is left behind when it throws.
    /// - Returns: The kept video's path.
    /// - Throws: ``StoreError/notFound(_:)`` when the session is gone (before or during the drawing), the
    ///   media's errors when its video cannot be read or written, `PipelineError.noContacts` for highlights of
    ///   a session without shots.
    package func drawVideo(_ kind: DerivedVideo, session id: Int64, source: String,
                          progress: @escaping @Sendable (Double) -> Void) async throws -> String {
        let path = derived(session: id, kind.fileName)
        let temporary = directory.appendingPathComponent(".upload-\(kind.rawValue)-\(UUID().uuidString).part").path
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let gone = StoreError.notFound("There is no session \(id).")
        guard let (document, frames) = try await SessionArchive.shotFrames(id: id, in: store) else { throw gone }
        let maxSide = Self.annotatedMaxSide
        try await BlockingWork.run("swingmaster.draw-video") {
            switch kind {
            case .annotated:
                try SessionOverlay.write(document, shotFrames: frames, source: source, to: temporary, maxSide: maxSide) { _, p in progress(p) }
            case .highlights:
                try SessionHighlights.write(document, shotFrames: frames, source: source, to: temporary, maxSide: maxSide) { _, p in progress(p) }
            }
        }
        guard try await store.sessionRecord(id: id) != nil else { throw gone }
        guard rename(temporary, path) == 0 else {
            throw StoreError.databaseError("The \(kind.rawValue) video could not be kept: \(String(cString: strerror(errno))).")
        }
        return path
    }

    /// Forgets what was drawn from session `id`'s shots (after an edit: drawn again when next asked for).
    package func forgetDrawings(session id: Int64) {
        for kind in DerivedVideo.allCases { try? FileManager.default.removeItem(atPath: derived(session: id, kind.fileName)) }
    }

    // MARK: Endings

    /// Deletes `video`'s session with what was drawn from it, and its upload (with the playback copy) when no
    /// other session or job uses it.
    /// - Throws: ``StoreError/notFound(_:)`` when there is no such session.
    package func deleteSession(_ video: SessionVideo) async throws {
        let id = video.session
        try await store.deleteSession(id: id)
        for name in ["thumb.jpg", Self.envelopeFile] + DerivedVideo.allCases.map(\.fileName) {
            try? FileManager.default.removeItem(atPath: derived(session: id, name))
        }
        if owns(video.path) { await discardIfUnused(video.path) }
    }

    /// Removes upload `path` and its playback copy unless a session or unfinished job uses it (a failed
    /// or cancelled job, a refused upload). Files outside the folder are never touched.
    package func discardIfUnused(_ path: String) async {
        guard owns(path), (try? await store.mediaInUse(path: path)) == false else { return }
        if let copy = try? await store.playbackPath(forMedia: path), owns(copy) { try? FileManager.default.removeItem(atPath: copy) }
        try? FileManager.default.removeItem(atPath: Self.playbackCopyPath(forMedia: path))
        try? FileManager.default.removeItem(atPath: path)
    }
}
