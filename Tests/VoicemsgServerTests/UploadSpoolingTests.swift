import Foundation
import Testing

@testable import VoicemsgServer

#if canImport(Glibc)
    import Glibc
#endif

/// The real server, driven over raw sockets: a client that writes a whole refused body before
/// reading still reads its 413, and a stalled upload is closed by the idle timeout and leaves
/// nothing behind.
@Suite(.serialized) struct UploadSpoolingTests {
    /// Starts `voicemsg serve` on a fresh data folder with no workers.
    static func startServer(_ directory: TemporaryDirectory, extra: [String] = []) async throws -> (ChildProcess, Int) {
        let server = try ChildProcess(
            executable: "voicemsg",
            arguments: [
                "serve", "--port", "0", "--host", "127.0.0.1", "--workers", "0",
                "--data-dir", directory.file("data"),
            ] + extra,
            logPath: directory.file("server.log"))
        // Generous: the full suite keeps the machine busy, and a cold start can take a while.
        return (server, try await server.waitForPort(seconds: 180))
    }

    /// Creates a run through the API; returns its id and invite token.
    static func createRun(port: Int) throws -> (id: String, invite: String) {
        let body = Array(#"{"title":"spool"}"#.utf8)
        let head = "POST /v1/runs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let socket = try RawSocket(port: port)
        defer { socket.close() }
        try socket.send(Array(head.utf8) + body)
        let reply = socket.readAll()
        let json = try #require(reply.range(of: "\r\n\r\n").map { reply[$0.upperBound...] })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return (try #require(object["id"] as? String), try #require(object["inviteToken"] as? String))
    }

    static func uploadHead(run: (id: String, invite: String), length: Int) -> [UInt8] {
        Array(
            ("POST /v1/runs/\(run.id)/messages?marker=1km HTTP/1.1\r\nHost: x\r\n"
                + "Authorization: Bearer \(run.invite)\r\nContent-Length: \(length)\r\n\r\n").utf8)
    }

    /// Files in the data folder's spool, and stored messages (through the SQLite store).
    static func leftovers(_ directory: TemporaryDirectory, runID: String) async throws -> (files: [String], messages: Int) {
        let spool = directory.file("data") + "/uploads-in-progress"
        let files = (try? FileManager.default.contentsOfDirectory(atPath: spool)) ?? []
        let open = try await OpenStore.open(.sqlite(dataDirectory: directory.file("data")))
        defer { Task { await open.close() } }
        return (files, try await open.store.messages(runID: runID).count)
    }

    @Test func wholeBodyWrittenBeforeReadingStillGets413AndStoresNothing() async throws {
        let directory = try TemporaryDirectory()
        let (server, port) = try await Self.startServer(directory, extra: ["--max-upload-bytes", "1000000"])
        defer { Task { await server.stop() } }
        let run = try Self.createRun(port: port)

        let length = 30 * 1024 * 1024
        let socket = try RawSocket(port: port)
        defer { socket.close() }
        // Like Python's urllib: the whole body goes out before a byte is read.
        try socket.send(Self.uploadHead(run: run, length: length))
        let chunk = [UInt8](repeating: 0x4F, count: 1 << 20)
        for _ in 0..<(length / chunk.count) { try socket.send(chunk) }
        let reply = socket.readAll()
        #expect(reply.hasPrefix("HTTP/1.1 413"), "got: \(reply.prefix(200))")
        #expect(reply.lowercased().contains("connection: close"))

        let left = try await Self.leftovers(directory, runID: run.id)
        #expect(left.files.isEmpty)
        #expect(left.messages == 0)
    }

    @Test func uploadStalledMidBodyIsClosedAndLeavesNothing() async throws {
        let directory = try TemporaryDirectory()
        let (server, port) = try await Self.startServer(directory, extra: ["--idle-timeout-seconds", "1"])
        defer { Task { await server.stop() } }
        let run = try Self.createRun(port: port)

        let length = 2 * 1024 * 1024
        let socket = try RawSocket(port: port)
        defer { socket.close() }
        try socket.send(Self.uploadHead(run: run, length: length))
        try socket.send([UInt8](repeating: 0x4F, count: length - 400))
        // The server closes the stalled connection; reading then ends (no reply is owed).
        _ = socket.readAll()

        // The handler may still be unwinding the moment the socket closes.
        let clean = try await eventually(within: 10) {
            let left = try await Self.leftovers(directory, runID: run.id)
            return left.files.isEmpty && left.messages == 0
        }
        #expect(clean)
        #expect(server.isRunning)
    }
}

/// A blocking TCP client on loopback, for byte-exact HTTP clients in tests.
final class RawSocket: @unchecked Sendable {
    let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw TestFailure("connect to port \(port) failed: errno \(errno)") }
        // A client that never reads would block forever on a server that stops reading.
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw TestFailure("send failed after \(offset) bytes: errno \(errno)") }
            offset += sent
        }
    }

    /// Everything until the server closes (or the read timeout), as text.
    func readAll() -> String {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            result += buffer[0..<count]
        }
        return String(decoding: result, as: UTF8.self)
    }

    func close() { Glibc.close(descriptor) }
}

/// Flag checks of the server's timing options.
@Suite struct ServerFlagTests {
    @Test func leaseTooShortToHeartbeatIsRefusedInOneLine() async throws {
        try await Self.expectRefused(["--lease-seconds", "3"], saying: "--lease-seconds must be at least 10")
    }

    /// `serve` given `flags` exits non-zero before it listens, naming the problem in its log.
    static func expectRefused(_ flags: [String], saying reason: String) async throws {
        let directory = try TemporaryDirectory()
        let server = try ChildProcess(
            executable: "voicemsg",
            arguments: ["serve", "--port", "0", "--data-dir", directory.file("data")] + flags,
            logPath: directory.file("server.log"))
        defer { Task { await server.stop() } }
        let status = try await server.waitForExit(seconds: 30)
        #expect(status != nil && status != 0)
        #expect(server.log.contains(reason))
        #expect(!server.log.contains("listening on"))
    }
}
