import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import VoicemsgServer

/// An Idempotency-Key is bound to the body's SHA-256 and the parameters, on both backends.
@Suite struct IdempotencyTests {
    static let key = HTTPField.Name("Idempotency-Key")!

    func upload(
        _ client: some TestClientProtocol, run: CreateRunResponse, key: String, marker: String = "5km",
        sender: String = "Ann", byte: UInt8 = 7
    ) async throws -> TestResponse {
        try await client.execute(
            uri: "/v1/runs/\(run.id)/messages?marker=\(marker)&sender=\(sender)", method: .post,
            headers: [.authorization: "Bearer \(run.inviteToken)", Self.key: key],
            body: ByteBuffer(bytes: [UInt8](repeating: byte, count: 1000)))
    }

    @Test func aReusedKeyWithAnotherRecordingOrParametersGets422OnSQLite() async throws { try await aReusedKeyWithAnotherRecordingOrParametersGets422(.sqlite) }
    @Test(.needsPostgreSQL) func aReusedKeyWithAnotherRecordingOrParametersGets422OnPostgreSQL() async throws { try await aReusedKeyWithAnotherRecordingOrParametersGets422(.postgres) }
    private func aReusedKeyWithAnotherRecordingOrParametersGets422(_ backend: Backend) async throws {
        let server = try TestServer(backend)
        try await server.app.test(.router) { client in
            let created = try await client.execute(
                uri: "/v1/runs", method: .post, body: ByteBuffer(string: #"{"title":"Keys","plannedDistanceMeters":10000}"#))
            let run = try JSONDecoder().decode(CreateRunResponse.self, from: Data(buffer: created.body))
            let first = try await upload(client, run: run, key: "k1")
            #expect(first.status == .accepted)
            let firstID = try JSONDecoder().decode(UploadResponse.self, from: Data(buffer: first.body)).id

            // The same request again: the first message, not counted as an upload.
            let replay = try await upload(client, run: run, key: "k1")
            #expect(replay.status == .accepted)
            #expect(try JSONDecoder().decode(UploadResponse.self, from: Data(buffer: replay.body)).id == firstID)

            for (name, response) in [
                ("another recording", try await upload(client, run: run, key: "k1", byte: 8)),
                ("another marker", try await upload(client, run: run, key: "k1", marker: "6km")),
                ("another sender", try await upload(client, run: run, key: "k1", sender: "Bo")),
            ] {
                #expect(response.status == .unprocessableContent, "\(name)")
                let text = String(buffer: response.body)
                #expect(text.contains("Idempotency-Key was already used"), "\(name): \(text)")
            }
            #expect(try await server.store.records.messages(runID: run.id).count == 1)
            let metricsText = server.metrics.render(queueDepth: [:])
            #expect(metricsText.contains("voicemsg_uploads_total 1\n"), "\(metricsText)")
        }
    }
}
