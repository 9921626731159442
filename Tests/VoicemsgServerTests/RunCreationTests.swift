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
        try await TestServer { $0.api.runCreationsPerMinute = 3 }.live { server in
            let body = Data(#"{"title":"Flood","plannedDistanceMeters":5000}"#.utf8)
            for _ in 0..<3 { #expect(try await server.request("/v1/runs", method: .post, body: body).status == 201) }
            let refused = try await server.request("/v1/runs", method: .post, body: body)
            #expect(refused.status == 429)
            let retryAfter = try #require(refused.headers["retry-after"].flatMap(Int.init))
            #expect((1...20).contains(retryAfter), "\(retryAfter)")
            #expect(refused.text.contains("at most 3 runs a minute"))
        }
    }

    @Test func closedRunCreationNeedsTheAdminToken() async throws {
        let admin = SecureIdentifier.makeToken()
        try await TestServer { $0.api.adminTokenHash = SecureIdentifier.hash(token: admin) }.live { server async throws in
            let body = Data(#"{"title":"Private","plannedDistanceMeters":5000}"#.utf8)
            #expect(try await server.request("/v1/runs", method: .post, body: body).status == 401)
            #expect(try await server.request("/v1/runs", method: .post, headers: bearer(SecureIdentifier.makeToken()), body: body).status == 403)
            #expect(try await server.request("/v1/runs", method: .post, headers: bearer(admin), body: body).status == 201)
            #expect(!server.log.contains(admin))
        }
    }
}
