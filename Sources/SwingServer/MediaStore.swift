import Foundation
import Hummingbird
import SwingCore

/// Uploaded media on disk: `HOME/media/<sha256>.<ext>`. An upload is streamed to a `.part` file as it
/// arrives (never held in memory), counted against the size limit, hashed on the way, and renamed when
/// complete; the same bytes uploaded twice are stored once. No name from a request reaches the file
/// system: the file is named by its hash and an extension from a short allowlist.
struct MediaStore: Sendable {
    let directory: URL

    /// Extensions kept for stored media (players and FFmpeg use them as a hint); others become `bin`.
    static let extensions: Set<String> = ["mp4", "m4v", "mov", "mkv", "webm", "avi", "3gp", "mts", "wav", "m4a"]
    /// The file name extensions a stored file keeps (anything else is stored as `.bin`).
    var keptExtensions: Set<String> = MediaStore.extensions

    struct Stored: Sendable { var sha256: String; var path: String; var bytes: Int64; var alreadyStored: Bool }

    /// Stalled or oversized uploads end with these.
    enum UploadError: Error, Sendable {
        case tooLarge(Int64), stalled(Double), cannotWrite(String)

        /// The refusal the API sends; `tooLarge` says what was too large, with the limit.
        func apiError(tooLarge: (Int64) -> String) -> APIError {
            switch self {
            case .tooLarge(let max): APIError(.contentTooLarge, tooLarge(max))
            case .stalled(let s): APIError(.requestTimeout, "The upload stalled for \(Int(s)) s and was dropped.")
            case .cannotWrite(let why): APIError(.init(code: 507, reasonPhrase: "Insufficient Storage"), "The server cannot store the upload: \(why).")
            }
        }
    }

    /// Streams `body` into the store.
    /// - Parameters:
    ///   - fileName: The client's name for the file, asked when the body has arrived (a form names it
    ///     inside the body); only its extension is used, if allowlisted.
    ///   - maxBytes: The upload is refused as soon as it passes this size.
    ///   - idleTimeout: Seconds without a byte before the upload is dropped.
    /// - Throws: ``UploadError``; the partial file is removed whatever happens.
    func receive<Body: AsyncSequence & Sendable>(_ body: Body, fileName: @Sendable () -> String, maxBytes: Int64,
                                                 idleTimeout: Double) async throws -> Stored where Body.Element == ByteBuffer {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let part = directory.appendingPathComponent(".upload-\(UUID().uuidString).part")
        guard FileManager.default.createFile(atPath: part.path, contents: nil),
              let handle = try? FileHandle(forWritingTo: part) else {
            throw UploadError.cannotWrite("cannot create a file in \(directory.path)")
        }
        var kept = false
        defer {
            try? handle.close()
            if !kept { try? FileManager.default.removeItem(at: part) }
        }
        let activity = Activity()
        let (hash, count) = try await withThrowingTaskGroup(of: (String, Int64)?.self) { group in
            group.addTask {
                var sha = SHA256()
                var count: Int64 = 0
                for try await buffer in body {
                    activity.touch()
                    count += Int64(buffer.readableBytes)
                    guard count <= maxBytes else { throw UploadError.tooLarge(maxBytes) }
                    try buffer.withUnsafeReadableBytes { raw in
                        sha.update(raw)
                        do { try handle.write(contentsOf: raw) } catch { throw UploadError.cannotWrite("\(error.localizedDescription)") }
                    }
                }
                return (sha.hexDigest(), count)
            }
            group.addTask {
                // The watchdog: a client that sends nothing for `idleTimeout` seconds is dropped.
                while true {
                    try await Task.sleep(for: .milliseconds(200))
                    if activity.idleSeconds > idleTimeout { throw UploadError.stalled(idleTimeout) }
                }
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else { throw UploadError.stalled(idleTimeout) }
            return result
        }
        let ext = URL(fileURLWithPath: fileName()).pathExtension.lowercased()
        let final = directory.appendingPathComponent("\(hash).\(keptExtensions.contains(ext) ? ext : "bin")")
        if FileManager.default.fileExists(atPath: final.path) {
            return Stored(sha256: hash, path: final.path, bytes: count, alreadyStored: true)
        }
        guard rename(part.path, final.path) == 0 else {
            throw UploadError.cannotWrite("cannot store the upload: \(String(cString: strerror(errno)))")
        }
        kept = true
        return Stored(sha256: hash, path: final.path, bytes: count, alreadyStored: false)
    }

    /// Creates the folder and removes leftovers of uploads and drawings that were interrupted by a crash
    /// or a restart (a clean failure removes its own).
    func removeAbandonedParts() {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(".upload-") && name.hasSuffix(".part") {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }
}

/// When bytes last arrived (shared by the reader and the watchdog).
private final class Activity: @unchecked Sendable {
    private let lock = NSLock()
    private var last = Date()
    func touch() { lock.lock(); last = Date(); lock.unlock() }
    var idleSeconds: Double { lock.lock(); defer { lock.unlock() }; return Date().timeIntervalSince(last) }
}

/// At most `limit` uploads at once; the next one is refused (429) rather than queued.
extension ServerState {
    /// Streams one upload with `receive` — the session uploads, the studio's videos and model files alike — as
    /// one of at most ``ServerConfiguration/maxConcurrentUploads`` at once (429 beyond), the store's refusal
    /// answered as the API's (`tooLarge` says what was too large, with the limit).
    func streamUpload(tooLarge: (Int64) -> String = APIRoutes.tooLarge,
                      _ receive: () async throws -> MediaStore.Stored) async throws -> MediaStore.Stored {
        guard await uploads.enter() else {
            throw APIError(.tooManyRequests, "\(configuration.maxConcurrentUploads) uploads are already running; try again when one has finished.")
        }
        do {
            let stored = try await receive()
            await uploads.leave()
            return stored
        } catch {
            await uploads.leave()
            if let upload = error as? MediaStore.UploadError { throw upload.apiError(tooLarge: tooLarge) }
            throw error
        }
    }
}

actor UploadGate {
    private let limit: Int
    private var active = 0
    init(limit: Int) { self.limit = limit }
    func enter() -> Bool { guard active < limit else { return false }; active += 1; return true }
    func leave() { active -= 1 }
}
