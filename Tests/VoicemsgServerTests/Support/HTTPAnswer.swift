import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TestSupport

@testable import VoicemsgServer

/// One HTTP answer from a server on a real socket: its status, its headers (names lowercased)
/// and its body.
struct HTTPAnswer: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }

    /// `method path` to a server on this machine, on a connection of its own, as a command-line
    /// client makes one; answers whatever the status, and throws only when no answer comes.
    static func fetch(
        _ path: String, host: String, port: Int, method: HTTPRequest.Method = .get, headers: HTTPFields = [:],
        body: Data? = nil
    ) async throws -> HTTPAnswer {
        // Generous: a 25 MB upload on a busy machine, or a server that reads a refused body on.
        let response = try await TestClient.withClient(
            host: host, port: port, configuration: .init(timeout: .seconds(120))
        ) { client in
            try await client.execute(
                TestClient.Request(
                    path, method: method, authority: host, headers: headers, body: body.map { ByteBuffer(bytes: $0) }))
        }
        var names: [String: String] = [:]
        for field in response.headers { names[field.name.canonicalName] = field.value }
        return HTTPAnswer(
            status: Int(response.status.code), headers: names, body: Data(buffer: response.body ?? ByteBuffer()))
    }

    /// Creates a run through the API of the server at `port`: its id and tokens.
    static func createRun(host: String, port: Int, title: String, planned: Double) async throws -> CreateRunResponse {
        let answer = try await fetch(
            "/v1/runs", host: host, port: port, method: .post, headers: [.contentType: "application/json"],
            body: Data("{\"title\":\"\(title)\",\"plannedDistanceMeters\":\(planned)}".utf8))
        guard answer.status == 201 else { throw TestFailure("run creation answered \(answer.status): \(answer.text)") }
        return try JSONDecoder().decode(CreateRunResponse.self, from: answer.body)
    }
}
