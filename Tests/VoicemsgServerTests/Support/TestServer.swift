import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import TestSupport

@testable import VoicemsgServer

/// The server `buildApplication` makes, on a fresh store in a folder of its own, as a test drives
/// it through HummingbirdTesting: `app.test(.router)` hands each request to its router, and
/// `live` runs it on loopback, where it is reached over real HTTP. The test also holds what no
/// client sees: the very store the server writes, the counters it keeps, and what it logs.
///
/// Nothing runs until the test runs the application, which migrates the store as it starts:
/// on PostgreSQL the store is used only inside `app.test` or `live`, where its services run.
struct TestServer: Sendable {
    let directory: TemporaryDirectory
    let configuration: ServerConfiguration
    let store: Store
    let metrics: ServerMetrics
    let logs: LogCapture
    let app: Application<RouterResponder<VoicemsgRequestContext>>

    /// What the server has logged so far, line for line as its stderr would have it.
    var log: String { logs.text }

    /// The server on a fresh `backend` store, with `workers` workers (none: it only takes
    /// uploads) and the changes a test needs. Queue polls are short, as the tests wait for
    /// workers.
    init(
        _ backend: Backend = .sqlite, workers: Int = 0, _ change: (inout ServerConfiguration) -> Void = { _ in }
    ) throws {
        directory = try TemporaryDirectory()
        var configuration = ServerConfiguration()
        configuration.store = try backend.makeLocation(in: directory)
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.workers = workers
        configuration.queue.pollInterval = .milliseconds(200)
        // A spool of its own, as on a data folder: a server deletes what it finds in its spool as
        // it starts, and the tests start many servers at once.
        configuration.api.spoolDirectory = URL(fileURLWithPath: directory.file("uploads-in-progress"))
        change(&configuration)
        self.configuration = configuration
        logs = LogCapture()
        let logger = logs.logger(label: "voicemsg.serve")
        store = try configuration.store.open(logger: logger)
        metrics = ServerMetrics()
        var app = try buildApplication(configuration, store: store, metrics: metrics, logger: logger)
        // The folder is deleted when the last reference to it goes: the application keeps one,
        // so that the data outlives no test, and no test outlives its data.
        let directory = directory
        app.beforeServerStarts { withExtendedLifetime(directory) {} }
        self.app = app
    }

    /// HummingbirdTesting's `app.test(.router)`, with the store the server writes beside the
    /// client: inside, the application has migrated the store and its services run.
    func router<Value: Sendable>(
        _ body: @Sendable (any TestClientProtocol, Store) async throws -> Value
    ) async throws -> Value {
        try await app.test(.router) { client in try await body(client, store) }
    }

    /// Runs the server on loopback through HummingbirdTesting's `.live` while `body` runs, and
    /// stops it after.
    func live<Value: Sendable>(_ body: @Sendable (Live) async throws -> Value) async throws -> Value {
        try await app.test(.live) { client in
            // `.live` listens on "localhost"; `RawSocket` finds the address it took.
            try await body(Live(server: self, port: try #require(client.port)))
        }
    }

    /// The running server as a stranger reaches it: each request on a connection of its own,
    /// raw requests on raw sockets.
    struct Live: Sendable {
        let server: TestServer
        let port: Int

        var directory: TemporaryDirectory { server.directory }
        var store: Store { server.store }
        var log: String { server.log }

        /// `method path` with `headers` and `body`; answers whatever the status.
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
}
