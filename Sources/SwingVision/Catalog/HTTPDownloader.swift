import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Bytes received so far and the expected total (when the server said).
public struct DownloadProgress: Sendable, Equatable {
    public var bytesReceived: Int64
    public var totalBytes: Int64?
    /// 0…1, or `nil` when the total is unknown.
    public var fraction: Double? {
        guard let t = totalBytes, t > 0 else { return nil }
        return min(1, Double(bytesReceived) / Double(t))
    }
}

/// Downloads one URL into a partial file, resuming with an HTTP `Range` request when the partial file
/// already holds bytes (a server that ignores `Range` and answers 200 makes it start over).
///
/// The partial file is left in place on any failure so the next attempt resumes; the caller verifies
/// and installs it. Uses URLSession (FoundationNetworking on Linux).
struct HTTPDownloader: Sendable {
    /// Seconds without data before giving up. Default 60.
    var idleTimeout: Double = 60
    /// Largest body accepted: an ONNX model cannot exceed protobuf's 2 GiB, so a server that announces
    /// or sends more is not sending a model (an endless body filled 32 GB of disk before this limit).
    var maxBytes: Int64 = HTTPDownloader.maxModelBytes

    /// 2 GiB, the protobuf message limit that bounds every `.onnx` file.
    static let maxModelBytes: Int64 = 2 << 30

    /// Result of one transfer.
    struct Outcome: Sendable { var resumedFrom: Int64; var bytes: Int64 }

    /// Fetches `url` into `partial`.
    /// - Throws: ``CatalogError/downloadFailed(url:reason:)`` on HTTP errors, truncated bodies and
    ///   network failures; `CancellationError` when the task is cancelled.
    func fetch(_ url: URL, into partial: URL, progress: (@Sendable (DownloadProgress) -> Void)?) async throws -> Outcome {
        let fm = FileManager.default
        if !fm.fileExists(atPath: partial.path), !fm.createFile(atPath: partial.path, contents: nil) {
            throw CatalogError.fileSystem("cannot create \(partial.path)")
        }
        let existing = (try? fm.attributesOfItem(atPath: partial.path)[.size] as? NSNumber)?.int64Value ?? 0
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: idleTimeout)
        if existing > 0 { request.setValue("bytes=\(existing)-", forHTTPHeaderField: "Range") }
        let handle: FileHandle
        do { handle = try FileHandle(forUpdating: partial) } catch {
            throw CatalogError.fileSystem("cannot write \(partial.path): \(error.localizedDescription)")
        }
        let delegate = TransferDelegate(file: handle, existing: existing, url: url.absoluteString, maxBytes: maxBytes,
                                        progress: progress)
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate(); try? handle.close() }
        let task = session.dataTask(with: request)
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (c: CheckedContinuation<Outcome, any Error>) in
                    delegate.start(task: task, continuation: c)
                }
            } onCancel: {
                task.cancel()
            }
        } catch is RestartFromStart where existing > 0 {
            // The resume was refused or answered with another range: start over from byte 0 (once: the
            // file is then empty, so a second refusal is an error).
            try? handle.truncate(atOffset: 0)
            return try await fetch(url, into: partial, progress: progress)
        } catch is RestartFromStart {
            throw CatalogError.downloadFailed(url: url.absoluteString, reason: "the server answered a partial range to a full request")
        }
    }
}

/// A resume that cannot continue the partial file (HTTP 416, or a 206 whose `Content-Range` does not
/// start where the file ends): the caller restarts from byte 0.
struct RestartFromStart: Error {}

/// Writes the body to the partial file as it arrives and resolves the continuation once.
private final class TransferDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let file: FileHandle
    private let url: String
    private let progress: (@Sendable (DownloadProgress) -> Void)?
    private var continuation: CheckedContinuation<HTTPDownloader.Outcome, any Error>?
    private var base: Int64           // bytes already in the file that this transfer continues
    private let existing: Int64
    private var received: Int64 = 0
    private var expected: Int64?
    private var failure: (any Error)?
    private let maxBytes: Int64

    init(file: FileHandle, existing: Int64, url: String, maxBytes: Int64, progress: (@Sendable (DownloadProgress) -> Void)?) {
        self.file = file; self.existing = existing; self.base = existing; self.url = url; self.maxBytes = maxBytes
        self.progress = progress
    }

    private func tooLarge(_ bytes: Int64) -> CatalogError {
        .downloadFailed(url: url, reason: "the server sends \(bytes) bytes or more, over the \(maxBytes)-byte limit of a model")
    }

    func start(task: URLSessionDataTask, continuation: CheckedContinuation<HTTPDownloader.Outcome, any Error>) {
        lock.lock(); self.continuation = continuation; lock.unlock()
        task.resume()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        lock.lock(); defer { lock.unlock() }
        guard let http = response as? HTTPURLResponse else {
            failure = CatalogError.downloadFailed(url: url, reason: "not an HTTP response")
            completionHandler(.cancel); return
        }
        let length = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
        switch http.statusCode {
        case 206 where existing > 0 && contentRangeStart(http) == existing:
            base = existing
            guard (try? file.seekToEnd()) != nil else {
                failure = CatalogError.fileSystem("cannot append to the partial download")
                completionHandler(.cancel); return
            }
            expected = length.map { $0 + existing }
        case 206, 416:
            failure = RestartFromStart()
            completionHandler(.cancel); return
        case 200:
            // Full body (fresh start, or the server ignored Range): start the file over.
            base = 0
            guard (try? file.truncate(atOffset: 0)) != nil else {
                failure = CatalogError.fileSystem("cannot restart the partial download")
                completionHandler(.cancel); return
            }
            expected = length
        default:
            failure = CatalogError.downloadFailed(url: url, reason: "the server answered HTTP \(http.statusCode)")
            completionHandler(.cancel); return
        }
        if let expected, expected > maxBytes {
            failure = tooLarge(expected)
            completionHandler(.cancel); return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        guard failure == nil else { lock.unlock(); return }
        guard base + received + Int64(data.count) <= maxBytes else {
            failure = tooLarge(base + received + Int64(data.count))
            try? file.truncate(atOffset: 0)   // nothing worth resuming
            lock.unlock()
            dataTask.cancel()
            return
        }
        do { try file.write(contentsOf: data) } catch {
            failure = CatalogError.fileSystem("cannot write the download: \(error.localizedDescription)")
            lock.unlock()
            dataTask.cancel()
            return
        }
        received += Int64(data.count)
        let p = DownloadProgress(bytesReceived: base + received, totalBytes: expected)
        lock.unlock()
        progress?(p)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        let c = continuation; continuation = nil
        let total = base + received
        var result: Result<HTTPDownloader.Outcome, any Error>
        if let failure {
            result = .failure(failure)
        } else if let error {
            let ns = error as NSError
            if ns.domain == NSURLErrorDomain, ns.code == NSURLErrorCancelled {
                result = .failure(CancellationError())
            } else {
                result = .failure(CatalogError.downloadFailed(url: url, reason: "\(ns.localizedDescription) after \(total) bytes; run the same command again to resume"))
            }
        } else if let expected, total != expected {
            result = .failure(CatalogError.downloadFailed(url: url, reason: "the transfer stopped after \(total) of \(expected) bytes; run the same command again to resume"))
        } else {
            result = .success(.init(resumedFrom: base, bytes: total))
        }
        lock.unlock()
        c?.resume(with: result)
    }

    private func contentRangeStart(_ r: HTTPURLResponse) -> Int64? {
        // "bytes 100-999/1000"
        guard let v = r.value(forHTTPHeaderField: "Content-Range"), v.hasPrefix("bytes ") else { return nil }
        return Int64(v.dropFirst(6).prefix { $0.isNumber })
    }
}
