import Foundation
import SwingCore
import SwingStore

/// The queue for the videos drawn from a session (the web app's `GET /api/sessions/{id}/annotated.mp4` and
/// `highlights.mp4`), drawn by ``MediaLibrary/drawVideo(_:session:source:progress:)``: the skeleton, the wrist
/// arc and the contact frames over the analysed part, as `analyze --save-video` writes it, or the highlights,
/// as `analyze --save-highlights` does.
///
/// Drawn on the first request and kept beside the media until the session is deleted. Re-encoding a
/// session uses every core, so videos are drawn one at a time, and a second request for a video being
/// drawn waits for the same one (it gets its progress, not a second encode).
package actor AnnotatedVideos {
    /// Where a request stands.
    package enum Status: Sendable {
        /// Drawn: the MP4 is at `path`.
        case ready(path: String)
        /// Being drawn (or waiting for the video before it), 0…1.
        case drawing(progress: Double)
        /// The last attempt failed, with this error (a missing session is `StoreError` `.notFound`).
        case failed(any UserFacingError)
    }

    private let library: MediaLibrary
    private struct Key: Hashable { var id: Int64; var kind: DerivedVideo }
    private var progress: [Key: Double] = [:]
    private var failures: [Key: any UserFacingError] = [:]
    /// The last video queued; the next one starts after it.
    private var tail: Task<Void, Never>?

    /// Videos kept beside `library`'s media.
    package init(library: MediaLibrary) { self.library = library }

    /// Where session `id`'s `kind` of video is kept.
    package func path(session id: Int64, _ kind: DerivedVideo = .annotated) -> String { library.derived(session: id, kind.fileName) }

    /// The video of session `id` if it is drawn; else its progress, starting it when nobody has.
    /// A failure is reported once; the request after it tries again.
    /// - Parameters:
    ///   - source: The analysed video on disk.
    package func request(session id: Int64, _ kind: DerivedVideo = .annotated, source: String) -> Status {
        let path = path(session: id, kind), key = Key(id: id, kind: kind)
        if FileManager.default.fileExists(atPath: path) { return .ready(path: path) }
        if let p = progress[key] { return .drawing(progress: p) }
        if let failure = failures.removeValue(forKey: key) { return .failed(failure) }
        progress[key] = 0
        let previous = tail
        let library = self.library
        tail = Task.detached(priority: .utility) { [self] in
            await previous?.value
            let failure = await Self.draw(kind, session: id, source: source, library: library) { p in
                Task { await self.report(key, p) }
            }
            await finish(key, failure: failure)
        }
        return .drawing(progress: 0)
    }

    /// Removes session `id`'s video (the session is being deleted).
    package func remove(session id: Int64) {
        for kind in DerivedVideo.allCases {
            try? FileManager.default.removeItem(atPath: path(session: id, kind))
            failures[Key(id: id, kind: kind)] = nil
        }
    }

    private func report(_ key: Key, _ p: Double) { if progress[key] != nil { progress[key] = p } }

    private func finish(_ key: Key, failure: (any UserFacingError)?) {
        progress[key] = nil
        if let failure { failures[key] = failure }
    }

    /// Draws the video through the media library; returns why it could not (nothing is left behind then).
    private static func draw(_ kind: DerivedVideo, session id: Int64, source: String, library: MediaLibrary,
                             progress: @escaping @Sendable (Double) -> Void) async -> (any UserFacingError)? {
        let step = Throttle(interval: 0.25)
        do {
            _ = try await library.drawVideo(kind, session: id, source: source) { p in if step.shouldFire() { progress(p) } }
            return nil
        } catch let error as StoreError where error.kind == .notFound {
            return RequestError(.notFound, "There is no session \(id).")
        } catch let error as any UserFacingError {
            return error
        } catch {
            return PipelineError(.failed, "The \(kind.rawValue) video could not be drawn: \(error).")
        }
    }
}

/// Lets a call through at most once per `interval` seconds (and always when forced).
final class Throttle: @unchecked Sendable {   // state guarded by `lock`
    private let lock = NSLock()
    private var last = Date.distantPast
    private let interval: Double
    init(interval: Double) { self.interval = interval }
    func shouldFire(force: Bool = false) -> Bool {
        lock.lock(); defer { lock.unlock() }
        let now = Date()
        guard force || now.timeIntervalSince(last) >= interval else { return false }
        last = now
        return true
    }
}

/// The videos drawn from a stored session for the web app's downloads.
package enum DerivedVideo: String, CaseIterable, Sendable {
    /// The analysed part with the skeleton, the wrist arc and the contact frames drawn.
    case annotated
    /// Each shot's swing, joined, with a chapter at every shot (``SessionHighlights``).
    case highlights

    /// Its file name beside the session's media (`annotated.mp4`).
    package var fileName: String { "\(rawValue).mp4" }
}
