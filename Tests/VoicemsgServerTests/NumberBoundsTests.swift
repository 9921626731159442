import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

@testable import VoicemsgServer

/// Every number the API stores is finite and within its bounds, refused with 400 otherwise.
@Suite struct NumberBoundsTests {
    @Test(arguments: ["1e308", "99.9", "0", "-5", "1000000.5", "1e6000", "\"10km\""])
    func plannedDistancesOutsideTheBoundsGet400(_ planned: String) async throws {
        try await TestServer().router { client, store in
            let response = try await client.execute(
                uri: "/v1/runs", method: .post,
                body: ByteBuffer(string: "{\"title\":\"Far\",\"plannedDistanceMeters\":\(planned)}"))
            #expect(response.status == .badRequest)
            #expect(try await store.records.statusCounts().isEmpty)
        }
    }

    /// The probe's sequence: a huge planned distance, then `halfway`. It now stops at the first
    /// step, and the bounds themselves are accepted with every marker finite.
    @Test(arguments: [100.0, 42_195, 1_000_000])
    func theBoundsThemselvesWorkAndHalfwayStaysFinite(_ planned: Double) async throws {
        try await TestServer().router { client, store in
            let run = try await client.createRun(title: "Edge", planned: planned)
            let upload = try await client.execute(
                uri: "/v1/runs/\(run.id)/messages?marker=halfway", method: .post, headers: bearer(run.inviteToken),
                body: ByteBuffer(bytes: [UInt8](repeating: 7, count: 1000)))
            #expect(upload.status == .accepted)
            let id = try json(UploadResponse.self, upload).id
            let stored = try #require(try await store.records.message(id: id))
            #expect(stored.markerMeters == planned / 2)
            let status = try await client.execute(
                uri: "/v1/messages/\(id)", method: .get, headers: bearer(run.ownerToken))
            #expect(status.status == .ok)
        }
    }

    @Test func anOversizedJSONBodyGets413() async throws {
        try await TestServer().app.test(.router) { client in
            let title = String(repeating: "a", count: 3 * 1024 * 1024)
            let response = try await client.execute(
                uri: "/v1/runs", method: .post, body: ByteBuffer(string: "{\"title\":\"\(title)\"}"))
            #expect(response.status == .contentTooLarge)
        }
    }
}
