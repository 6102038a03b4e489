import Foundation
import Hummingbird
import Metrics
import Prometheus
import SwingCore
import SwingPipeline

/// The server's metrics for `GET /metrics`: swift-metrics counters, timers and gauges, exported in
/// Prometheus' text format by swift-prometheus — requests by status and their durations, uploads (count,
/// bytes, durations), job durations and each analysis stage's duration (of the jobs this process ran), and
/// from the store: jobs by state, the queue's depth and oldest wait, lease expiries and retries.
///
/// One registry per application, recorded through its own factory rather than a process-wide
/// `MetricsSystem.bootstrap`, so an app embedding the server keeps its metrics system and tests can run
/// several servers in one process.
struct ServerMetrics: JobMetrics {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    /// Metric names (Prometheus conventions: `_total` counters, `_seconds` histograms).
    enum Name {
        static let requests = "swingmaster_http_requests_total"
        static let requestSeconds = "swingmaster_http_request_duration_seconds"
        static let uploads = "swingmaster_uploads_total"
        static let uploadBytes = "swingmaster_upload_bytes_total"
        static let uploadSeconds = "swingmaster_upload_duration_seconds"
        static let jobSeconds = "swingmaster_job_duration_seconds"
        static let stageSeconds = "swingmaster_job_stage_duration_seconds"
        static let jobs = "swingmaster_jobs"
        static let queueDepth = "swingmaster_queue_depth"
        static let queueOldest = "swingmaster_queue_oldest_job_age_seconds"
        static let leaseExpiries = "swingmaster_job_lease_expiries"
        static let retries = "swingmaster_job_retries"
    }

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Analyses take seconds to minutes, uploads up to minutes: buckets for those, not for requests.
        let long: [Duration] = [.milliseconds(100), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5), .seconds(10),
                                .seconds(30), .seconds(60), .seconds(120), .seconds(300), .seconds(600), .seconds(1800)]
        factory.durationHistogramBuckets = [Name.jobSeconds: long, Name.stageSeconds: long, Name.uploadSeconds: long]
        self.factory = factory
    }

    func request(status: Int, seconds: Double) {
        Counter(label: Name.requests, dimensions: [("status", "\(status)")], factory: factory).increment()
        Timer(label: Name.requestSeconds, factory: factory).recordSeconds(seconds)
    }

    func upload(bytes: Int64, seconds: Double) {
        Counter(label: Name.uploads, factory: factory).increment()
        Counter(label: Name.uploadBytes, factory: factory).increment(by: bytes)
        Timer(label: Name.uploadSeconds, factory: factory).recordSeconds(seconds)
    }

    /// A job reached a final state after `seconds` of work.
    func job(_ state: JobState, seconds: Double) {
        Timer(label: Name.jobSeconds, dimensions: [("state", state.rawValue)], factory: factory).recordSeconds(seconds)
    }

    /// Stage `stage` of a job took `seconds` (labelled as the job names it).
    func stage(_ stage: AnalysisStage, seconds: Double) {
        Timer(label: Name.stageSeconds, dimensions: [("stage", stage.title)], factory: factory).recordSeconds(seconds)
    }

    /// The text `GET /metrics` answers, with the jobs in the store counted by state now.
    func prometheusText(library: MediaLibrary) async throws -> Response {
        let (counts, queue) = try await library.jobCounts()
        for state in JobState.allCases {
            Gauge(label: Name.jobs, dimensions: [("state", state.rawValue)], factory: factory).record(counts[state] ?? 0)
        }
        // The queue as every process sharing the store sees it (read from the store, not this process).
        Gauge(label: Name.queueDepth, factory: factory).record(queue.queued)
        Gauge(label: Name.queueOldest, factory: factory).record(queue.oldestQueuedSeconds)
        Gauge(label: Name.leaseExpiries, factory: factory).record(queue.leaseExpiries)
        Gauge(label: Name.retries, factory: factory).record(queue.retries)
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
    }
}
