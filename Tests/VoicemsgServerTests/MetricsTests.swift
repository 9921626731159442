import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

@testable import VoicemsgServer

/// `/metrics` in Prometheus text, judged by Prometheus's own `promtool`.
@Suite struct MetricsTests {
    /// What `/metrics` answers, checked to be Prometheus's text format.
    static func scrape(_ client: some TestClientProtocol) async throws -> String {
        let response = try await client.execute(uri: "/metrics", method: .get)
        #expect(response.status == .ok)
        #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
        return String(buffer: response.body)
    }

    @Test func metricsPassPromtoolCheck() async throws {
        let server = try TestServer()
        let text = try await server.app.test(.router) { client in
            let created = try await makeRun(in: server.store)
            try await enqueue(in: server.store, runID: created.run.id)
            let metrics = server.metrics
            metrics.recordUpload()
            metrics.recordCompleted(duration: .milliseconds(300))
            metrics.recordCompleted(duration: .seconds(45))
            metrics.recordFailure(.retry)
            metrics.recordStaleResult()
            return try await Self.scrape(client)
        }
        #expect(text.contains("voicemsg_queue_depth{state=\"queued\"} 1"))
        #expect(text.contains("voicemsg_job_duration_seconds_count 2"))
        #expect(text.contains("voicemsg_job_duration_seconds_bucket{le=\"0.5\"} 1"))
        #expect(text.contains("voicemsg_job_failures_total{kind=\"retry\"} 1"))

        let file = server.directory.file("metrics.txt")
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        // promtool reads the exposition on stdin; it exits 0 only with no error and no lint
        // finding (a missing HELP line, a counter without _total, …).
        let check = try Tool.run("sh", ["-c", "promtool check metrics < \"$0\"", file], check: false)
        #expect(check.status == 0, "promtool check metrics:\n\(check.output)\n\(text)")
    }

    @Test func serversInOneProcessKeepTheirOwnCounts() async throws {
        let first = try TestServer()
        let second = try TestServer()
        first.metrics.recordUpload()
        first.metrics.recordUpload()
        second.metrics.recordUpload()
        #expect(try await first.app.test(.router) { try await Self.scrape($0) }.contains("voicemsg_uploads_total 2"))
        #expect(try await second.app.test(.router) { try await Self.scrape($0) }.contains("voicemsg_uploads_total 1"))
    }
}
