import Foundation
import Testing
import TestSupport

@testable import VoicemsgServer

/// The real server, driven over raw sockets: a client that writes a whole refused body before
/// reading still reads its 413, and a stalled upload is closed by the idle timeout and leaves
/// nothing behind.
@Suite(.serialized) struct UploadSpoolingTests {
    /// Creates a run through the API; returns its id and invite token.
    static func createRun(port: Int) async throws -> (id: String, invite: String) {
        let body = Array(#"{"title":"spool"}"#.utf8)
        let head = "POST /v1/runs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let socket = try RawSocket(port: port)
        defer { socket.close() }
        try await socket.send(Array(head.utf8) + body)
        let reply = await socket.readAll()
        let json = try #require(reply.range(of: "\r\n\r\n").map { reply[$0.upperBound...] })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return (try #require(object["id"] as? String), try #require(object["inviteToken"] as? String))
    }

    static func uploadHead(run: (id: String, invite: String), length: Int) -> [UInt8] {
        Array(
            ("POST /v1/runs/\(run.id)/messages?marker=1km HTTP/1.1\r\nHost: x\r\n"
                + "Authorization: Bearer \(run.invite)\r\nContent-Length: \(length)\r\n\r\n").utf8)
    }

    /// Files in the server's spool in its data folder, and the messages its store holds.
    static func leftovers(_ server: TestServer.Live, runID: String) async throws -> (files: [String], messages: Int) {
        let spool = server.directory.file("data") + "/uploads-in-progress"
        let files = (try? FileManager.default.contentsOfDirectory(atPath: spool)) ?? []
        return (files, try await server.store.messages(runID: runID).count)
    }

    @Test func wholeBodyWrittenBeforeReadingStillGets413AndStoresNothing() async throws {
        // The drain's time bound is not under test here; a machine busy with other suites may
        // take longer than the default to push 30 MB through loopback.
        try await TestServer {
            $0.api.maxUploadBytes = 1_000_000
            $0.api.refusedBodyDrainTime = .seconds(120)
        }.live { server in
            let port = server.port
            let run = try await Self.createRun(port: port)

            let length = 30 * 1024 * 1024
            let socket = try RawSocket(port: port)
            defer { socket.close() }
            // Like Python's urllib: the whole body goes out before a byte is read.
            try await socket.send(Self.uploadHead(run: run, length: length))
            let chunk = [UInt8](repeating: 0x4F, count: 1 << 20)
            for _ in 0..<(length / chunk.count) { try await socket.send(chunk) }
            let reply = await socket.readAll()
            #expect(reply.hasPrefix("HTTP/1.1 413"), "got: \(reply.prefix(200))")
            #expect(reply.lowercased().contains("connection: close"))

            let left = try await Self.leftovers(server, runID: run.id)
            #expect(left.files.isEmpty)
            #expect(left.messages == 0)
        }
    }

    @Test func uploadStalledMidBodyIsClosedAndLeavesNothing() async throws {
        try await TestServer { $0.api.idleTimeout = .seconds(1) }.live { server in
            let port = server.port
            let run = try await Self.createRun(port: port)

            let length = 2 * 1024 * 1024
            let socket = try RawSocket(port: port)
            defer { socket.close() }
            try await socket.send(Self.uploadHead(run: run, length: length))
            try await socket.send([UInt8](repeating: 0x4F, count: length - 400))
            // The server closes the stalled connection; reading then ends (no reply is owed).
            _ = await socket.readAll()

            // The handler may still be unwinding the moment the socket closes.
            let clean = try await eventually(within: 10) {
                let left = try await Self.leftovers(server, runID: run.id)
                return left.files.isEmpty && left.messages == 0
            }
            #expect(clean)
            #expect(try await server.request("/healthz").status == 200, "the server still answers")
        }
    }
}
