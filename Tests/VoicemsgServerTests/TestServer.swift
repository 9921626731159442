import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import TestSupport

@testable import VoicemsgServer

/// The server `buildApplication` makes, run in this process on a fresh SQLite data folder and
/// reached over real HTTP through HummingbirdTesting's `.live` setup, as a stranger reaches it:
/// each request on a connection of its own, raw requests on raw sockets. What it logs is kept,
/// line for line as its stderr would have it.
struct TestServer: Sendable {
    let directory: TemporaryDirectory
    let port: Int
    let logs: LogCapture

    /// What the server has logged so far.
    var log: String { logs.text }

    /// Builds the server with `workers` workers and the changes a test needs, runs `body`
    /// against it, and stops it. Queue polls are short, as the tests wait for workers.
    static func run<Value: Sendable>(
        workers: Int = 0, _ change: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (TestServer) async throws -> Value
    ) async throws -> Value {
        let directory = try TemporaryDirectory()
        var configuration = ServerConfiguration()
        configuration.store = .sqlite(dataDirectory: directory.file("data"))
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.workers = workers
        configuration.queue.pollInterval = .milliseconds(200)
        change(&configuration)
        let logs = LogCapture()
        let app = try buildApplication(configuration, logger: logs.logger(label: "voicemsg.serve"))
        return try await app.test(.live) { client in
            // `.live` listens on "localhost"; `RawSocket` finds the address it took.
            let port = try #require(client.port)
            return try await body(TestServer(directory: directory, port: port, logs: logs))
        }
    }

    /// `method path` with `headers` and `body`, on a connection of its own; answers whatever
    /// the status.
    func request(
        _ path: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:], body: Data? = nil
    ) async throws -> HTTPAnswer {
        try await HTTPAnswer.fetch(path, host: "localhost", port: port, method: method, headers: headers, body: body)
    }

    /// `POST path` with a file's bytes as the body, as a command-line client uploads a file.
    func upload(_ path: String, file: String, headers: HTTPFields) async throws -> HTTPAnswer {
        try await request(path, method: .post, headers: headers, body: try Data(contentsOf: URL(fileURLWithPath: file)))
    }

    /// Creates a run through the API: its id and tokens.
    func createRun(title: String = "Live", planned: Double = 10_000) async throws -> CreateRunResponse {
        try await HTTPAnswer.createRun(host: "localhost", port: port, title: title, planned: planned)
    }

    /// The whole answer to one raw request, sent as is and read until the server closes.
    func raw(_ request: String) async throws -> (head: String, body: Data) {
        let socket = try RawSocket(port: port, readTimeout: 60)
        defer { socket.close() }
        try await socket.send(Array(request.utf8))
        let bytes = await socket.readAllBytes()
        guard let end = bytes.range(of: Data("\r\n\r\n".utf8)) else {
            throw TestFailure("no complete answer to \(request.debugDescription)")
        }
        return (String(decoding: bytes[..<end.lowerBound], as: UTF8.self), Data(bytes[end.upperBound...]))
    }

    /// Whether the server closes a connection after answering one raw request (sent as is):
    /// read until the server closes, or give up after `patience` seconds of silence.
    func closesAfter(rawRequest: String, patience: Int = 30) async throws -> Bool {
        let socket = try RawSocket(port: port, readTimeout: patience)
        defer { socket.close() }
        try await socket.send(Array(rawRequest.utf8))
        return await socket.readUntilClosed()
    }
}

/// A log kept in memory, each line as `StreamLogHandler` writes it to a server's stderr.
final class LogCapture: TextOutputStream, Sendable {
    private let lines = Locked("")

    func write(_ string: String) {
        lines.withLock { $0 += string }
    }

    var text: String { lines.withLock { $0 } }

    func logger(label: String, level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: label) { StreamLogHandler(label: $0, stream: self) }
        logger.logLevel = level
        return logger
    }
}
