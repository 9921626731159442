import Foundation
import Testing
import TestSupport

@testable import VoicemsgServer

/// A real `voicemsg-server serve` on loopback, spoken to with curl, as a stranger would.
final class LiveServer: @unchecked Sendable {
    /// One answer: its status, its headers (names lowercased) and its body.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    let directory: TemporaryDirectory
    let process: ChildProcess
    let base: String

    static func start(
        _ extra: [String] = [], workers: Int = 0, environment: [String: String] = [:]
    ) async throws -> LiveServer {
        let directory = try TemporaryDirectory()
        let process = try ChildProcess(
            executable: "voicemsg-server",
            arguments: ["serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", directory.file("data"),
                        "--workers", "\(workers)", "--poll-seconds", "0.2", "--log-level", "info"] + extra,
            environment: environment, logPath: directory.file("server.log"))
        // A generous bound: a full parallel test run can keep this task waiting a long time.
        let port = try await process.waitForPort(seconds: 300)
        return LiveServer(directory: directory, process: process, base: "http://127.0.0.1:\(port)")
    }

    private init(directory: TemporaryDirectory, process: ChildProcess, base: String) {
        self.directory = directory
        self.process = process
        self.base = base
    }

    func stop() async { await process.stop() }

    /// curl `path` with `arguments` (method, headers, body); never fails on a 4xx or 5xx.
    func request(_ path: String, _ arguments: [String] = []) throws -> Answer {
        let headerFile = directory.file("headers-\(UUID().uuidString)")
        let bodyFile = directory.file("body-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(atPath: headerFile)
            try? FileManager.default.removeItem(atPath: bodyFile)
        }
        let outcome = try ExternalProcess.tool(
            "curl", ["--silent", "--show-error", "-D", headerFile, "-o", bodyFile, "-w", "%{http_code}"]
                + arguments + [base + path], check: false, timeout: 60)
        guard outcome.status == 0, let status = Int(outcome.text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestFailure("curl \(path) \(arguments) failed: \(outcome.standardError)")
        }
        var headers: [String: String] = [:]
        let headerText = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        for line in headerText.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = FileManager.default.contents(atPath: bodyFile) ?? Data()
        return Answer(status: status, headers: headers, body: body)
    }

    /// Creates a run through the API: its id and tokens.
    func createRun(title: String = "Live", planned: Double = 10_000) throws -> CreateRunResponse {
        let answer = try request(
            "/v1/runs", ["-X", "POST", "-H", "Content-Type: application/json",
                         "--data", "{\"title\":\"\(title)\",\"plannedDistanceMeters\":\(planned)}"])
        guard answer.status == 201 else { throw TestFailure("run creation answered \(answer.status): \(answer.text)") }
        return try JSONDecoder().decode(CreateRunResponse.self, from: answer.body)
    }

    /// The whole answer to one raw HTTP/1.0 request, read until the server closes.
    func raw(_ request: String) throws -> (head: String, body: Data) {
        let port = base.split(separator: ":").last!
        let script = """
            import socket, sys
            s = socket.create_connection(("127.0.0.1", \(port)))
            s.sendall(sys.argv[1].encode())
            s.settimeout(60)
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk: break
                data += chunk
            sys.stdout.buffer.write(data)
            """
        let outcome = try ExternalProcess.tool("python3", ["-c", script, request], check: false, timeout: 90)
        let bytes = outcome.standardOutput
        guard let end = bytes.range(of: Data("\r\n\r\n".utf8)) else {
            throw TestFailure("no complete answer to \(request.debugDescription): \(outcome.standardError)")
        }
        return (String(decoding: bytes[..<end.lowerBound], as: UTF8.self), Data(bytes[end.upperBound...]))
    }

    /// Whether the server closes a connection after answering one raw request (sent as is):
    /// a Python client reads until the server closes, or gives up after `patience` seconds of
    /// silence with "open".
    func closesAfter(rawRequest: String, patience: Int = 30) throws -> Bool {
        let port = base.split(separator: ":").last!
        let script = """
            import socket, sys
            s = socket.create_connection(("127.0.0.1", \(port)))
            s.sendall(sys.argv[1].encode())
            s.settimeout(\(patience))
            try:
                while s.recv(65536): pass
                print("closed")
            except socket.timeout:
                print("open")
            """
        let outcome = try ExternalProcess.tool("python3", ["-c", script, rawRequest], check: false, timeout: Double(patience) + 30)
        return outcome.text.contains("closed")
    }
}
