import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import VoicemsgServer

/// `Authorization: Bearer token`, the header every client of the API sends its token in.
func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }

/// An answer's JSON body, decoded.
func json<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
    try JSONDecoder().decode(type, from: Data(buffer: response.body))
}

/// The reason in an error answer's body, `{"error":{"message":…}}`, as Hummingbird writes it.
func reason(_ response: TestResponse) throws -> String {
    struct Body: Decodable {
        struct Error: Decodable { var message: String }
        var error: Error
    }
    return try json(Body.self, response).error.message
}

extension TestClientProtocol {
    /// Creates a run through the API: its id and tokens. With `planned` nil the run has no
    /// planned distance.
    func createRun(title: String = "Run", planned: Double? = 10_000) async throws -> CreateRunResponse {
        let body = planned.map { "{\"title\":\"\(title)\",\"plannedDistanceMeters\":\($0)}" } ?? "{\"title\":\"\(title)\"}"
        let response = try await execute(
            uri: "/v1/runs", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: body))
        try #require(response.status == .created, "run creation answered \(response.status): \(String(buffer: response.body))")
        return try json(CreateRunResponse.self, response)
    }
}
