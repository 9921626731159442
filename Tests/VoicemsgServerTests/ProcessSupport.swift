import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TestSupport

@testable import VoicemsgServer

/// One HTTP answer: its status, its headers (names lowercased) and its body.
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
}

/// A real `voicemsg-server serve` on loopback, in a process of its own: for the tests whose
/// subject is the process (its signals, its exit status, its stderr, its decoder children).
struct ServerProcess: Sendable {
    let directory: TemporaryDirectory
    let process: ChildProcess
    let port: Int

    static func start(
        _ extra: [String] = [], workers: Int = 0, environment: [String: String] = [:]
    ) async throws -> ServerProcess {
        let directory = try TemporaryDirectory()
        let process = try await ChildProcess.start(
            try Tool.built("voicemsg-server"),
            arguments: ["serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", directory.file("data"),
                        "--workers", "\(workers)", "--poll-seconds", "0.2", "--log-level", "info"] + extra,
            environment: environment, logPath: directory.file("server.log"))
        // A generous bound: a full parallel test run can keep this task waiting a long time.
        let port = try await process.waitForPort(seconds: 300)
        return ServerProcess(directory: directory, process: process, port: port)
    }

    func stop() async { await process.stop() }

    func request(
        _ path: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:], body: Data? = nil
    ) async throws -> HTTPAnswer {
        try await HTTPAnswer.fetch(path, host: "127.0.0.1", port: port, method: method, headers: headers, body: body)
    }

    /// Creates a run through the API: its id and tokens.
    func createRun(title: String = "Live", planned: Double = 10_000) async throws -> CreateRunResponse {
        try await HTTPAnswer.createRun(host: "127.0.0.1", port: port, title: title, planned: planned)
    }
}

extension HTTPAnswer {
    /// Creates a run through the API of the server at `port`: its id and tokens.
    static func createRun(host: String, port: Int, title: String, planned: Double) async throws -> CreateRunResponse {
        let answer = try await fetch(
            "/v1/runs", host: host, port: port, method: .post, headers: [.contentType: "application/json"],
            body: Data("{\"title\":\"\(title)\",\"plannedDistanceMeters\":\(planned)}".utf8))
        guard answer.status == 201 else { throw TestFailure("run creation answered \(answer.status): \(answer.text)") }
        return try JSONDecoder().decode(CreateRunResponse.self, from: answer.body)
    }

    /// `Authorization: Bearer token`.
    static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }
}
