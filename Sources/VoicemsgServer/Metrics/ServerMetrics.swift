import CoreMetrics
import Metrics
import Prometheus

/// The server's metrics, recorded through swift-metrics into a Prometheus registry that
/// `/metrics` exports. Queue depth is read from the store at scrape time, so it covers every
/// worker machine; the rest counts what this process did.
///
/// The factory is passed in rather than installed with `MetricsSystem.bootstrap`, which a process
/// may call only once: each server, and each test's server, keeps its own registry.
public struct ServerMetrics: Sendable {
    /// Upper bounds of the job-duration histogram.
    static let durationBuckets: [Duration] = [
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
        .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30), .seconds(60),
    ]

    /// The `# HELP` line of each metric; `promtool check metrics` wants one for every metric.
    static let help = [
        "voicemsg_queue_depth": "Messages in each state.",
        "voicemsg_job_duration_seconds": "Time to process one message, in this process.",
        "voicemsg_job_failures_total": "Failed attempts: permanent, retry or dead.",
        "voicemsg_jobs_completed_total": "Jobs completed in this process.",
        "voicemsg_stale_results_total": "Results dropped because the lease was lost.",
        "voicemsg_uploads_total": "Uploads accepted by this process.",
    ]

    /// How a failed attempt ended, the `kind` label of `voicemsg_job_failures_total`.
    enum AttemptFailure: String, CaseIterable {
        /// The input's fault: failed at once.
        case permanent
        /// Transient: queued again after a backoff.
        case retry
        /// Transient, but it was the last attempt.
        case dead
    }

    let registry: PrometheusCollectorRegistry
    private let queueDepth: [MessageStatus: CoreMetrics.Gauge]
    private let jobDuration: CoreMetrics.Timer
    private let failures: [AttemptFailure: CoreMetrics.Counter]
    private let completed: CoreMetrics.Counter
    private let staleResults: CoreMetrics.Counter
    private let uploads: CoreMetrics.Counter

    /// Records into `factory`'s registry; by default a new registry of its own.
    public init(factory: PrometheusMetricsFactory = PrometheusMetricsFactory(registry: PrometheusCollectorRegistry())) {
        var prometheus = factory
        prometheus.durationHistogramBuckets["voicemsg_job_duration_seconds"] = Self.durationBuckets
        let described = DescribedPrometheusFactory(base: prometheus, help: Self.help)
        registry = factory.registry
        // Every series exists from the start, so a scrape shows 0 rather than nothing.
        queueDepth = Dictionary(
            uniqueKeysWithValues: MessageStatus.allCases.map { status in
                (status, CoreMetrics.Gauge(label: "voicemsg_queue_depth", dimensions: [("state", status.rawValue)], factory: described))
            })
        jobDuration = CoreMetrics.Timer(label: "voicemsg_job_duration_seconds", factory: described)
        failures = Dictionary(
            uniqueKeysWithValues: AttemptFailure.allCases.map { kind in
                (kind, CoreMetrics.Counter(label: "voicemsg_job_failures_total", dimensions: [("kind", kind.rawValue)], factory: described))
            })
        completed = CoreMetrics.Counter(label: "voicemsg_jobs_completed_total", factory: described)
        staleResults = CoreMetrics.Counter(label: "voicemsg_stale_results_total", factory: described)
        uploads = CoreMetrics.Counter(label: "voicemsg_uploads_total", factory: described)
    }

    func recordCompleted(duration: Duration) {
        completed.increment()
        jobDuration.record(duration: duration)
    }

    func recordFailure(_ kind: AttemptFailure) {
        failures[kind]?.increment()
    }

    func recordUpload() {
        uploads.increment()
    }

    func recordStaleResult() {
        staleResults.increment()
    }

    /// Prometheus text exposition format, version 0.0.4, with the queue depth just read.
    func render(queueDepth counts: [MessageStatus: Int]) -> String {
        for (status, gauge) in queueDepth { gauge.record(counts[status] ?? 0) }
        return registry.emitToString()
    }
}
