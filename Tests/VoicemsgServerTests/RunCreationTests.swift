import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import VoicemsgServer

/// Run creation: a per-address rate limit, and a flag that closes it to the public.
@Suite(.serialized) struct RunCreationTests {
    /// The bucket refills at the configured rate: a clock moved forward gives tokens back.
    @Test func theBucketRefillsWithTime() {
        let clock = NIOLockedValueBox(1000.0)
        let gate = RunCreationGate(perMinute: 2, adminTokenHash: nil, now: { clock.withLockedValue { $0 } })
        #expect(gate.take(client: "a") == nil)
        #expect(gate.take(client: "a") == nil)
        #expect(gate.take(client: "a") == 30, "one token comes back every 30 s at 2 a minute")
        #expect(gate.take(client: "b") == nil, "each address has its own bucket")
        clock.withLockedValue { $0 += 30 }
        #expect(gate.take(client: "a") == nil)
        #expect(gate.take(client: "a") != nil)
    }

    @Test func aClientOverTheLimitGets429WithRetryAfter() async throws {
        let server = try await LiveServer.start(["--runs-per-minute", "3"])
        defer { Task { await server.stop() } }
        let body = ["-X", "POST", "--data", #"{"title":"Flood","plannedDistanceMeters":5000}"#]
        for _ in 0..<3 { #expect(try server.request("/v1/runs", body).status == 201) }
        let refused = try server.request("/v1/runs", body)
        #expect(refused.status == 429)
        let retryAfter = try #require(refused.headers["retry-after"].flatMap(Int.init))
        #expect((1...20).contains(retryAfter), "\(retryAfter)")
        #expect(refused.text.contains("at most 3 runs a minute"))
    }

    @Test func closedRunCreationNeedsTheAdminToken() async throws {
        let admin = SecureIdentifier.makeToken()
        let server = try await LiveServer.start(["--admin-only-runs"], environment: ["VOICEMSG_ADMIN_TOKEN": admin])
        defer { Task { await server.stop() } }
        let body = ["-X", "POST", "--data", #"{"title":"Private","plannedDistanceMeters":5000}"#]
        #expect(try server.request("/v1/runs", body).status == 401)
        #expect(try server.request("/v1/runs", body + ["-H", "Authorization: Bearer \(SecureIdentifier.makeToken())"]).status == 403)
        #expect(try server.request("/v1/runs", body + ["-H", "Authorization: Bearer \(admin)"]).status == 201)
        #expect(!server.process.log.contains(admin))
    }
}
