import Foundation

/// Counters and a duration histogram for `/metrics`, kept in this process. Queue depth is read
/// from the store at scrape time, so it covers every worker machine.
public final class ServerMetrics: @unchecked Sendable {
    /// Upper bounds of the job-duration histogram, in seconds.
    static let bucketBounds: [Double] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]

    private let lock = NSLock()
    private var bucketCounts = [Int](repeating: 0, count: ServerMetrics.bucketBounds.count)
    private var durationSum = 0.0
    private var durationCount = 0
    private var failures: [String: Int] = [:]
    private var completed = 0
    private var uploads = 0
    private var staleResults = 0

    public init() {}

    func recordCompleted(seconds: Double) {
        lock.lock()
        defer { lock.unlock() }
        completed += 1
        durationSum += seconds
        durationCount += 1
        for (index, bound) in Self.bucketBounds.enumerated() where seconds <= bound {
            bucketCounts[index] += 1
        }
    }

    /// `kind` is `permanent`, `retry` or `dead`.
    func recordFailure(kind: String) {
        lock.lock()
        failures[kind, default: 0] += 1
        lock.unlock()
    }

    func recordUpload() {
        lock.lock()
        uploads += 1
        lock.unlock()
    }

    func recordStaleResult() {
        lock.lock()
        staleResults += 1
        lock.unlock()
    }

    /// Prometheus text exposition format, version 0.0.4.
    func render(queueDepth: [MessageStatus: Int]) -> String {
        lock.lock()
        defer { lock.unlock() }
        var lines: [String] = []
        lines.append("# HELP voicemsg_queue_depth Messages in each state.")
        lines.append("# TYPE voicemsg_queue_depth gauge")
        for status in MessageStatus.allCases {
            lines.append("voicemsg_queue_depth{state=\"\(status.rawValue)\"} \(queueDepth[status] ?? 0)")
        }
        lines.append("# HELP voicemsg_job_duration_seconds Time to process one message, in this process.")
        lines.append("# TYPE voicemsg_job_duration_seconds histogram")
        for (index, bound) in Self.bucketBounds.enumerated() {
            lines.append("voicemsg_job_duration_seconds_bucket{le=\"\(bound)\"} \(bucketCounts[index])")
        }
        lines.append("voicemsg_job_duration_seconds_bucket{le=\"+Inf\"} \(durationCount)")
        lines.append("voicemsg_job_duration_seconds_sum \(durationSum)")
        lines.append("voicemsg_job_duration_seconds_count \(durationCount)")
        lines.append("# HELP voicemsg_job_failures_total Failed attempts: permanent, retry or dead.")
        lines.append("# TYPE voicemsg_job_failures_total counter")
        for kind in ["permanent", "retry", "dead"] {
            lines.append("voicemsg_job_failures_total{kind=\"\(kind)\"} \(failures[kind] ?? 0)")
        }
        lines.append("# HELP voicemsg_jobs_completed_total Jobs completed in this process.")
        lines.append("# TYPE voicemsg_jobs_completed_total counter")
        lines.append("voicemsg_jobs_completed_total \(completed)")
        lines.append("# HELP voicemsg_stale_results_total Results dropped because the lease was lost.")
        lines.append("# TYPE voicemsg_stale_results_total counter")
        lines.append("voicemsg_stale_results_total \(staleResults)")
        lines.append("# HELP voicemsg_uploads_total Uploads accepted by this process.")
        lines.append("# TYPE voicemsg_uploads_total counter")
        lines.append("voicemsg_uploads_total \(uploads)")
        return lines.joined(separator: "\n") + "\n"
    }
}
