import Foundation
import Testing
import TestSupport

@testable import VoicemsgServer

/// HEAD, weak ETags, HTTP/1.0, 413 on JSON, cache and sniffing headers and refusal logs, on a
/// real server on loopback.
@Suite(.serialized) struct HTTPDetailsTests {
    @Test func headWeakETagsHTTP10AndHeaders() async throws {
        try await TestServer().live { server in
            let run = try await server.createRun()
            let owner = bearer(run.ownerToken)

            // HEAD wherever GET works: pages, static files, API answers; no body, same length.
            for path in ["/r/\(run.id)", "/runs/\(run.id)", "/static/record.js", "/healthz", "/metrics"] {
                let get = try await server.request(path)
                let head = try await server.raw("HEAD \(path) HTTP/1.0\r\n\r\n")
                #expect(get.status == 200 && head.head.hasPrefix("HTTP/1.0 200"), "\(path): GET \(get.status), HEAD \(head.head)")
                #expect(head.body.isEmpty, "\(path)")
                #expect(head.head.lowercased().contains("content-length: \(get.body.count)"), "\(path): \(head.head)")
            }
            let info = try await server.raw("HEAD /v1/runs/\(run.id) HTTP/1.0\r\nAuthorization: Bearer \(run.ownerToken)\r\n\r\n")
            #expect(info.head.hasPrefix("HTTP/1.0 200") && info.body.isEmpty, "\(info.head)")

            // A weakened ETag still matches.
            let page = try await server.request("/r/\(run.id)")
            let etag = try #require(page.headers["etag"])
            #expect(try await server.request("/r/\(run.id)", headers: [.ifNoneMatch: "W/\(etag)"]).status == 304)
            let list = try await server.request("/v1/runs/\(run.id)/messages", headers: owner)
            let listTag = try #require(list.headers["etag"])
            var ownerIfNoneMatch = owner
            ownerIfNoneMatch[.ifNoneMatch] = "W/\(listTag)"
            #expect(try await server.request("/v1/runs/\(run.id)/messages", headers: ownerIfNoneMatch).status == 304)

            // HTTP/1.0 without keep-alive is closed after the answer; HTTP/1.1 is kept open.
            #expect(try await server.closesAfter(rawRequest: "GET /healthz HTTP/1.0\r\nHost: x\r\n\r\n"))
            // Kept open: still open after 3 s of silence once answered.
            #expect(try await !server.closesAfter(rawRequest: "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", patience: 3))

            // An oversized JSON body is 413.
            let big = Data(("{\"title\":\"" + String(repeating: "a", count: 3_000_000) + "\"}").utf8)
            #expect(try await server.request("/v1/runs", method: .post, body: big).status == 413)

            // Token-bearing answers are never stored by a cache; every answer has nosniff.
            let created = try await server.request(
                "/v1/runs", method: .post, body: Data(#"{"title":"Cache","plannedDistanceMeters":5000}"#.utf8))
            #expect(created.status == 201)
            #expect(created.headers["cache-control"] == "no-store")
            for answer in [created, page, list, try await server.request("/nowhere"), try await server.request("/v1/runs/\(run.id)")] {
                #expect(answer.headers["x-content-type-options"] == "nosniff", "\(answer.status)")
            }

            // Refusals are logged with status, method and route, and no token.
            #expect(try await server.request("/v1/runs/\(run.id)/manifest", headers: bearer(run.inviteToken)).status == 403)
            #expect(try await server.request("/v1/runs/\(run.id)/manifest").status == 401)
            let log = server.log
            #expect(log.contains("request refused"), "\(log)")
            #expect(log.contains("status=403") && log.contains("status=401") && log.contains("status=413"), "\(log)")
            #expect(log.contains("route=/v1/runs/{runID}/manifest") || log.contains("route=/v1/runs/:runID/manifest"), "\(log)")
            #expect(!log.contains(run.inviteToken) && !log.contains(run.ownerToken))
        }
    }
}
