import Prometheus

/// The server's metrics, kept in a Prometheus registry that `/metrics` exports. Queue depth is
/// read from the store at scrape time, so it covers every worker machine; the rest counts what
/// this process did.
///
/// Each metric is made on the registry itself, with its `# HELP` line (`promtool check
/// metrics` wants one for every metric; swift-metrics has no place for it). Each server, and
/// each test's server, keeps a registry of its own: nothing goes through the process-wide
/// `MetricsSystem`, which a process may bootstrap only once.
public struct ServerMetrics: Sendable {
    /// Upper bounds of the job-duration histogram.
    static let durationBuckets: [Duration] = [
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
        .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30), .seconds(60),
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
    private let queueDepth: [MessageStatus: Gauge]
    private let jobDuration: DurationHistogram
    private let failures: [AttemptFailure: Counter]
    private let completed: Counter
    private let staleResults: Counter
    private let uploads: Counter

    /// Records into `registry`; by default a new registry of its own.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        func described(_ name: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
        }
        // Every series exists from the start, so a scrape shows 0 rather than nothing.
        let depth = described("voicemsg_queue_depth", "Messages in each state.")
        queueDepth = Dictionary(
            uniqueKeysWithValues: MessageStatus.allCases.map { status in
                (status, registry.makeGauge(descriptor: depth, labels: [("state", status.rawValue)]))
            })
        jobDuration = registry.makeDurationHistogram(
            descriptor: described("voicemsg_job_duration_seconds", "Time to process one message, in this process."),
            labels: [], buckets: Self.durationBuckets)
        let failed = described("voicemsg_job_failures_total", "Failed attempts: permanent, retry or dead.")
        failures = Dictionary(
            uniqueKeysWithValues: AttemptFailure.allCases.map { kind in
                (kind, registry.makeCounter(descriptor: failed, labels: [("kind", kind.rawValue)]))
            })
        completed = registry.makeCounter(
            descriptor: described("voicemsg_jobs_completed_total", "Jobs completed in this process."), labels: [])
        staleResults = registry.makeCounter(
            descriptor: described("voicemsg_stale_results_total", "Results dropped because the lease was lost."),
            labels: [])
        uploads = registry.makeCounter(
            descriptor: described("voicemsg_uploads_total", "Uploads accepted by this process."), labels: [])
    }

    func recordCompleted(duration: Duration) {
        completed.increment()
        jobDuration.record(duration)
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
        for (status, gauge) in queueDepth { gauge.set(Int64(counts[status] ?? 0)) }
        return registry.emitToString()
    }
}
