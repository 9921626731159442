import Foundation
import HTTPTypes
import TestSupport

@testable import VoicemsgServer

/// A real `voicemsg-server serve` on loopback, in a process of its own: for the tests whose
/// subject is the process (its signals, its exit status, its stderr, its descriptors, its
/// decoder children, its restarts, its TLS flags). Every other test builds the same server in
/// its own process, as a `TestServer`.
struct ServerProcess: Sendable {
    let directory: TemporaryDirectory
    let process: ChildProcess
    let port: Int

    /// Starts `serve` with `workers` and the `extra` flags on a data folder in `directory` (a
    /// fresh one unless given), and returns once it listens.
    static func start(
        _ extra: [String] = [], workers: Int = 0, in directory: TemporaryDirectory? = nil,
        environment: [String: String] = [:]
    ) async throws -> ServerProcess {
        let directory = try directory ?? TemporaryDirectory()
        let process = try await launch(extra, workers: workers, in: directory, environment: environment)
        // A generous bound: a full parallel test run can keep this task waiting a long time.
        let port = try await process.waitForPort(seconds: 300)
        return ServerProcess(directory: directory, process: process, port: port)
    }

    /// Starts `serve` on 127.0.0.1:`port` (0: any free one) with its data in `directory` and
    /// its output in `directory/logName`, and returns at once: `waitForPort` says when it
    /// listens. For the tests that kill a server and start the next on the same port and data.
    static func launch(
        _ extra: [String] = [], workers: Int, port: Int = 0, in directory: TemporaryDirectory,
        logName: String = "server.log", environment: [String: String] = [:]
    ) async throws -> ChildProcess {
        try await ChildProcess.start(
            try Tool.built("voicemsg-server"),
            arguments: ["serve", "--host", "127.0.0.1", "--port", "\(port)", "--data-dir", directory.file("data"),
                        "--workers", "\(workers)", "--poll-seconds", "0.2", "--log-level", "info"] + extra,
            environment: environment, logPath: directory.file(logName))
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
