import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import VoicemsgServer

/// The API's JSON bodies, read by Hummingbird up to the context's limit: every refusal is one
/// line that says why.
@Suite struct JSONBodyTests {
    static func message(_ response: TestResponse) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
        return try #require((object["error"] as? [String: Any])?["message"] as? String)
    }

    @Test func aBodyPastTheLimitIs413SayingTheLimit() async throws {
        let fixture = try await APITestApp()
        try await fixture.app.test(.router) { client in
            let title = String(repeating: "a", count: 70_000)
            let response = try await client.execute(
                uri: "/v1/runs", method: .post, body: ByteBuffer(string: "{\"title\":\"\(title)\"}"))
            #expect(response.status == .contentTooLarge)
            #expect(try Self.message(response) == "JSON bodies are limited to 65536 bytes")
        }
    }

    @Test(arguments: [
        ("not json", "not valid"), ("{}", "title"), ("{\"title\":5}", "title"),
        ("{\"title\":\"Run\",\"plannedDistanceMeters\":\"far\"}", "plannedDistanceMeters"),
    ])
    func aBodyThatIsNotTheExpectedJSONIs400SayingWhy(_ body: String, _ named: String) async throws {
        let fixture = try await APITestApp()
        try await fixture.app.test(.router) { client in
            let response = try await client.execute(uri: "/v1/runs", method: .post, body: ByteBuffer(string: body))
            #expect(response.status == .badRequest)
            let message = try Self.message(response)
            #expect(message.contains(named), "\(message)")
            #expect(!message.contains("\n"))
        }
    }
}
