import Foundation
import Hummingbird
import SwingStore

/// Counters and duration sums for `GET /metrics` in the Prometheus text format: requests by status,
/// upload bytes and seconds, job outcomes and durations, and jobs by state from the store.
actor ServerMetrics {
    static let shared = ServerMetrics()

    private var requests: [Int: Int] = [:]
    private var requestSeconds = 0.0
    private var uploads = 0, uploadBytes: Int64 = 0, uploadSeconds = 0.0
    private var stageSeconds: [String: Double] = [:]

    func request(status: Int, seconds: Double) { requests[status, default: 0] += 1; requestSeconds += seconds }
    func upload(bytes: Int64, seconds: Double) { uploads += 1; uploadBytes += bytes; uploadSeconds += seconds }
    func stage(_ name: String, seconds: Double) { stageSeconds[name, default: 0] += seconds }

    func prometheusText(db: AppDatabase) throws -> Response {
        var lines: [String] = []
        lines.append("# HELP swingmaster_http_requests_total HTTP requests answered, by status.")
        lines.append("# TYPE swingmaster_http_requests_total counter")
        for (status, n) in requests.sorted(by: { $0.key < $1.key }) {
            lines.append("swingmaster_http_requests_total{status=\"\(status)\"} \(n)")
        }
        lines.append("# TYPE swingmaster_http_request_seconds_sum counter")
        lines.append("swingmaster_http_request_seconds_sum \(requestSeconds)")
        lines.append("# TYPE swingmaster_uploads_total counter")
        lines.append("swingmaster_uploads_total \(uploads)")
        lines.append("# TYPE swingmaster_upload_bytes_total counter")
        lines.append("swingmaster_upload_bytes_total \(uploadBytes)")
        lines.append("# TYPE swingmaster_upload_seconds_sum counter")
        lines.append("swingmaster_upload_seconds_sum \(uploadSeconds)")
        lines.append("# HELP swingmaster_jobs Jobs in the store, by state.")
        lines.append("# TYPE swingmaster_jobs gauge")
        let jobs = try db.recentJobs(limit: 10_000)
        for state in JobState.allCases {
            lines.append("swingmaster_jobs{state=\"\(state.rawValue)\"} \(jobs.filter { $0.state == state }.count)")
        }
        lines.append("# HELP swingmaster_job_seconds_sum Wall-clock seconds of finished jobs (start to finish).")
        lines.append("# TYPE swingmaster_job_seconds_sum counter")
        let durations = jobs.compactMap { j in j.startedAt.flatMap { s in j.finishedAt.map { $0.timeIntervalSince(s) } } }
        lines.append("swingmaster_job_seconds_sum \(durations.reduce(0, +))")
        lines.append("swingmaster_job_seconds_count \(durations.count)")
        let body = lines.joined(separator: "\n") + "\n"
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
