import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /healthz` and `GET /metrics`, as docs/api.md's "Health and metrics": what a load
/// balancer and Prometheus ask, with no token. Health reads the store, so it answers "ok" only
/// while the database does; the metrics read the queue's depth at each scrape, beside the
/// counters the server keeps (`ServerMetrics`).
extension VoicemsgAPI {
    func health() async throws -> HealthResponse {
        _ = try await store.records.run(id: "healthz")
        return HealthResponse(status: "ok")
    }

    func renderMetrics() async throws -> Response {
        let text = metrics.render(queueDepth: try await store.records.statusCounts())
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}

/// `GET /healthz` answer.
struct HealthResponse: ResponseEncodable, Decodable {
    var status: String
}
