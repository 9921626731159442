import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

@testable import VoicemsgServer

/// The HTTP API against a SQLite store, with jobs completed by hand (the end-to-end tests run
/// the real pipeline).
@Suite struct APITests {
    let server: TestServer
    let store: Store

    init() throws {
        server = try TestServer { $0.api.maxUploadBytes = 64 * 1024 }
        store = server.store
    }

    /// A half marathon, or with `planned` nil a run with no planned distance.
    func createRun(_ client: some TestClientProtocol, planned: Double? = 21_097) async throws -> CreateRunResponse {
        try await client.createRun(title: "Half", planned: planned)
    }

    func upload(
        _ client: some TestClientProtocol, run: String, token: String?, marker: String = "5km",
        sender: String = "Ann", bytes: Int = 1000, key: String? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = token.map(bearer) ?? [:]
        if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
        let query = "marker=\(marker.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&sender=\(sender)"
        return try await client.execute(
            uri: "/v1/runs/\(run)/messages?\(query)", method: .post, headers: headers,
            body: ByteBuffer(bytes: [UInt8](repeating: 7, count: bytes)))
    }

    /// Completes every queued job by hand, giving each a fake Ogg file of `size` bytes.
    func completeAll(size: Int = 5000) async throws {
        while let claim = try await store.claim(workerID: "test", leaseSeconds: 30) {
            let audio = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            _ = try await store.complete(claim, result: JobResult(audio: audio, durationSeconds: 2.5))
        }
    }

    @Test func createRunReturnsUnguessableTokensStoredOnlyAsHashes() async throws {
        try await server.app.test(.router) { client in
            let run = try await createRun(client)
            #expect(SecureIdentifier.isValid(run.id))
            #expect(run.ownerToken.count == 43 && run.inviteToken.count == 43)
            let stored = try #require(try await store.run(id: run.id))
            #expect(stored.ownerTokenHash == SecureIdentifier.hash(token: run.ownerToken))
            #expect(stored.ownerTokenHash != run.ownerToken)
            #expect(stored.plannedDistanceMeters == 21_097)

            let bad = try await client.execute(
                uri: "/v1/runs", method: .post, body: ByteBuffer(string: "{\"title\":\"\"}"))
            #expect(bad.status == .badRequest)
        }
    }

    @Test func uploadNeedsAValidToken() async throws {
        try await server.app.test(.router) { client in
            let run = try await createRun(client)
            #expect(try await upload(client, run: run.id, token: nil).status == .unauthorized)
            #expect(try await upload(client, run: run.id, token: "wrong").status == .forbidden)
            let other = try await createRun(client)
            #expect(try await upload(client, run: run.id, token: other.inviteToken).status == .forbidden)
            #expect(try await upload(client, run: run.id, token: run.inviteToken).status == .accepted)
            #expect(try await upload(client, run: run.id, token: run.ownerToken).status == .accepted)
            #expect(try await store.messages(runID: run.id).count == 2)
        }
    }

    @Test(arguments: ["", "fast", "150%", "finish+1km", "-5km"])
    func badMarkersGet400(_ marker: String) async throws {
        try await server.app.test(.router) { client in
            let run = try await createRun(client)
            let response = try await upload(client, run: run.id, token: run.inviteToken, marker: marker)
            #expect(response.status == .badRequest)
            #expect(String(buffer: response.body).contains("marker"))
            #expect(try await store.messages(runID: run.id).isEmpty)
        }
    }

    @Test func relativeMarkerNeedsAPlannedDistance() async throws {
        try await server.app.test(.router) { client in
            let run = try await createRun(client, planned: nil)
            #expect(try await upload(client, run: run.id, token: run.inviteToken, marker: "halfway").status == .badRequest)
            #expect(try await upload(client, run: run.id, token: run.inviteToken, marker: "3km").status == .accepted)
        }
    }

    @Test func oversizedUploadGets413AndStoresNothing() async throws {
        try await server.app.test(.router) { client in
            let run = try await createRun(client)
            let response = try await upload(client, run: run.id, token: run.inviteToken, bytes: 64 * 1024 + 1)
            #expect(response.status == .contentTooLarge)
            #expect(try await store.messages(runID: run.id).isEmpty)
            #expect(try await store.statusCounts().isEmpty)
            #expect(try await upload(client, run: run.id, token: run.inviteToken, bytes: 64 * 1024).status == .accepted)
        }
    }

    @Test func idempotencyKeyReturnsTheSameMessage() async throws {
        try await server.app.test(.router) { client in
            let run = try await createRun(client)
            let first = try json(
                UploadResponse.self, try await upload(client, run: run.id, token: run.inviteToken, key: "k1"))
            let retry = try json(
                UploadResponse.self, try await upload(client, run: run.id, token: run.inviteToken, key: "k1"))
            #expect(first.id == retry.id)
            #expect(first.status == .queued)
            #expect(try await store.messages(runID: run.id).count == 1)
        }
    }

    @Test func messageStatusShowsTheJob() async throws {
        try await server.app.test(.router) { client in
            let run = try await createRun(client)
            let uploaded = try json(
                UploadResponse.self,
                try await upload(client, run: run.id, token: run.inviteToken, marker: "finish-1km", sender: "Bo"))
            let path = "/v1/messages/\(uploaded.id)"
            #expect(try await client.execute(uri: path, method: .get).status == .unauthorized)
            var status = try json(
                MessageResponse.self, try await client.execute(uri: path, method: .get, headers: bearer(run.inviteToken)))
            #expect(status.status == .queued)
            #expect(status.runID == run.id)
            #expect(status.marker == "finish-1000m")
            #expect(status.markerMeters == 20_097)
            #expect(status.sender == "Bo")
            #expect(status.attempts == 0)

            let claim = try #require(try await store.claim(workerID: "t", leaseSeconds: 30))
            _ = try await store.fail(claim, error: "upload: not an audio file", retryAfterSeconds: nil)
            status = try json(
                MessageResponse.self, try await client.execute(uri: path, method: .get, headers: bearer(run.ownerToken)))
            #expect(status.status == .failed)
            #expect(status.error == "upload: not an audio file")
            #expect(status.attempts == 1)
        }
    }

    @Test func manifestListsReadyMessagesInMarkerOrderForTheOwnerOnly() async throws {
        try await server.app.test(.router) { client in
            let run = try await createRun(client)
            for marker in ["finish", "5km", "halfway", "1mi", "finish-1km"] {
                #expect(try await upload(client, run: run.id, token: run.inviteToken, marker: marker).status == .accepted)
            }
            try await completeAll()
            #expect(try await upload(client, run: run.id, token: run.inviteToken, marker: "2km").status == .accepted)

            let path = "/v1/runs/\(run.id)/manifest"
            #expect(try await client.execute(uri: path, method: .get).status == .unauthorized)
            #expect(try await client.execute(uri: path, method: .get, headers: bearer(run.inviteToken)).status == .forbidden)
            let response = try await client.execute(uri: path, method: .get, headers: bearer(run.ownerToken))
            #expect(response.status == .ok)
            let manifest = try json(ManifestResponse.self, response)
            #expect(manifest.run.id == run.id)
            #expect(manifest.messages.map(\.marker) == ["1609.34m", "5000m", "50%", "finish-1000m", "finish"])
            #expect(manifest.messages.map(\.markerMeters) == manifest.messages.map(\.markerMeters).sorted())
            #expect(manifest.pending == 1)
            #expect(manifest.failed == 0)
            let first = try #require(manifest.messages.first)
            #expect(first.bytes == 5000)
            #expect(first.durationSeconds == 2.5)
            #expect(first.sha256.count == 64)
            #expect(first.audioURL == "/v1/messages/\(first.id)/audio")
        }
    }

    @Test func audioNeedsTheOwnerAndSupportsETagAndRange() async throws {
        try await server.app.test(.router) { client in
            let run = try await createRun(client)
            let uploaded = try json(
                UploadResponse.self, try await upload(client, run: run.id, token: run.inviteToken))
            let path = "/v1/messages/\(uploaded.id)/audio"
            #expect(try await client.execute(uri: path, method: .get, headers: bearer(run.ownerToken)).status == .notFound)
            try await completeAll(size: 5000)
            let stored = try #require(try await store.audio(messageID: uploaded.id))

            #expect(try await client.execute(uri: path, method: .get).status == .unauthorized)
            #expect(try await client.execute(uri: path, method: .get, headers: bearer(run.inviteToken)).status == .forbidden)

            let whole = try await client.execute(uri: path, method: .get, headers: bearer(run.ownerToken))
            #expect(whole.status == .ok)
            #expect(Data(buffer: whole.body) == stored)
            #expect(whole.headers[.contentType] == "audio/ogg")
            let etag = try #require(whole.headers[.eTag])
            #expect(etag == "\"\(SecureIdentifier.hexSHA256(stored))\"")

            var headers = bearer(run.ownerToken)
            headers[.ifNoneMatch] = etag
            #expect(try await client.execute(uri: path, method: .get, headers: headers).status == .notModified)

            headers = bearer(run.ownerToken)
            headers[.range] = "bytes=100-199"
            let part = try await client.execute(uri: path, method: .get, headers: headers)
            #expect(part.status == .partialContent)
            #expect(part.headers[.contentRange] == "bytes 100-199/5000")
            #expect(Data(buffer: part.body) == stored.subdata(in: 100..<200))

            headers[.range] = "bytes=6000-"
            #expect(try await client.execute(uri: path, method: .get, headers: headers).status == .rangeNotSatisfiable)
        }
    }

    @Test(arguments: ["..%2Fx", "..%2F..%2Fetc%2Fpasswd", "a%20b", "%2E%2E"])
    func pathLikeIdsAreRejected(_ id: String) async throws {
        try await server.app.test(.router) { client in
            let run = try await createRun(client)
            for uri in ["/v1/messages/\(id)", "/v1/messages/\(id)/audio", "/v1/runs/\(id)/manifest"] {
                let status = try await client.execute(uri: uri, method: .get, headers: bearer(run.ownerToken)).status
                #expect(status == .badRequest || status == .notFound, "\(uri) answered \(status)")
            }
            let status = try await upload(client, run: id, token: run.ownerToken).status
            #expect(status == .badRequest || status == .notFound)
            #expect(try await store.statusCounts().isEmpty)
        }
    }

    @Test func healthAndMetrics() async throws {
        try await server.app.test(.router) { client in
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
            let run = try await createRun(client)
            _ = try await upload(client, run: run.id, token: run.inviteToken)
            let metrics = try await client.execute(uri: "/metrics", method: .get)
            #expect(metrics.status == .ok)
            let text = String(buffer: metrics.body)
            #expect(text.contains("voicemsg_queue_depth{state=\"queued\"} 1"))
            #expect(text.contains("# TYPE voicemsg_job_duration_seconds histogram"))
            #expect(text.contains("voicemsg_job_failures_total{kind=\"permanent\"} 0"))
            #expect(text.contains("voicemsg_uploads_total 1"))
        }
    }
}
