import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

@testable import VoicemsgServer

/// `/metrics` in Prometheus text, judged by Prometheus's own `promtool`.
@Suite struct MetricsTests {
    let directory: TemporaryDirectory
    let store: Store

    init() async throws {
        directory = try TemporaryDirectory()
        store = try StoreLocation.sqlite(dataDirectory: directory.file("data")).open(logger: testLogger)
        try await store.migrate()
    }

    func scrape(_ metrics: ServerMetrics) async throws -> String {
        let app = Application(
            router: VoicemsgAPI(store: store, metrics: metrics).makeRouter(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await app.test(.router) { client in
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            return String(buffer: response.body)
        }
    }

    @Test func metricsPassPromtoolCheck() async throws {
        let metrics = ServerMetrics()
        let created = try await makeRun(in: store)
        try await enqueue(in: store, runID: created.run.id)
        metrics.recordUpload()
        metrics.recordCompleted(duration: .milliseconds(300))
        metrics.recordCompleted(duration: .seconds(45))
        metrics.recordFailure(.retry)
        metrics.recordStaleResult()
        let text = try await scrape(metrics)
        #expect(text.contains("voicemsg_queue_depth{state=\"queued\"} 1"))
        #expect(text.contains("voicemsg_job_duration_seconds_count 2"))
        #expect(text.contains("voicemsg_job_duration_seconds_bucket{le=\"0.5\"} 1"))
        #expect(text.contains("voicemsg_job_failures_total{kind=\"retry\"} 1"))

        let file = directory.file("metrics.txt")
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        // promtool reads the exposition on stdin; it exits 0 only with no error and no lint
        // finding (a missing HELP line, a counter without _total, …).
        let check = try Tool.run("sh", ["-c", "promtool check metrics < \"$0\"", file], check: false)
        #expect(check.status == 0, "promtool check metrics:\n\(check.output)\n\(text)")
    }

    @Test func serversInOneProcessKeepTheirOwnCounts() async throws {
        let first = ServerMetrics()
        let second = ServerMetrics()
        first.recordUpload()
        first.recordUpload()
        second.recordUpload()
        #expect(try await scrape(first).contains("voicemsg_uploads_total 2"))
        #expect(try await scrape(second).contains("voicemsg_uploads_total 1"))
    }
}
