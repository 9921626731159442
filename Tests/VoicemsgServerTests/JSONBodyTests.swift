import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import VoicemsgServer

/// The API's JSON bodies, read by Hummingbird up to the context's limit: every refusal is one
/// line that says why.
@Suite struct JSONBodyTests {
    @Test func aBodyPastTheLimitIs413SayingTheLimit() async throws {
        try await TestServer().app.test(.router) { client in
            let title = String(repeating: "a", count: 70_000)
            let response = try await client.execute(
                uri: "/v1/runs", method: .post, body: ByteBuffer(string: "{\"title\":\"\(title)\"}"))
            #expect(response.status == .contentTooLarge)
            #expect(try reason(response) == "JSON bodies are limited to 65536 bytes")
        }
    }

    @Test(arguments: [
        ("not json", "not valid"), ("{}", "title"), ("{\"title\":5}", "title"),
        ("{\"title\":\"Run\",\"plannedDistanceMeters\":\"far\"}", "plannedDistanceMeters"),
    ])
    func aBodyThatIsNotTheExpectedJSONIs400SayingWhy(_ body: String, _ named: String) async throws {
        try await TestServer().app.test(.router) { client in
            let response = try await client.execute(uri: "/v1/runs", method: .post, body: ByteBuffer(string: body))
            #expect(response.status == .badRequest)
            let message = try reason(response)
            #expect(message.contains(named), "\(message)")
            #expect(!message.contains("\n"))
        }
    }
}
