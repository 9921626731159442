import Foundation
import Testing
import TestSupport

@testable import VoicemsgServer

/// `--max-concurrent-uploads` on the real server, over real sockets: while one upload holds the
/// only slot, another gets 503 with `Retry-After`, its body read and discarded so that even a
/// client that sends it all before reading gets the answer; once the first is done, the next
/// upload is taken.
@Suite struct UploadSlotsLiveTests {
    /// A WAV header and `frames` silent 16-bit mono frames: enough for the upload's sniffing.
    static func wav(frames: Int) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> ($0 * 8)) & 0xFF) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8((v >> ($0 * 8)) & 0xFF) } }
        let data = frames * 2
        return Array("RIFF".utf8) + le32(36 + data) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(1)
            + le32(16_000) + le32(32_000) + le16(2) + le16(16) + Array("data".utf8) + le32(data)
            + [UInt8](repeating: 0, count: data)
    }

    @Test func uploadPastTheConcurrentLimitGets503UntilTheSlotIsFree() async throws {
        try await TestServer { $0.api.maxConcurrentUploads = 1 }.live { server in
            let run = try await server.createRun()
            let port = server.port
            let body = Self.wav(frames: 16_000)
            func upload() async throws -> HTTPAnswer {
                try await server.request(
                    "/v1/runs/\(run.id)/messages?marker=1km", method: .post,
                    headers: bearer(run.inviteToken), body: Data(body))
            }

            // The first upload sends its head and part of its body, then waits: it holds the slot.
            let held = try RawSocket(port: port)
            defer { held.close() }
            try await held.send(
                Array(("POST /v1/runs/\(run.id)/messages?marker=2km HTTP/1.1\r\nHost: x\r\n"
                    + "Authorization: Bearer \(run.inviteToken)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n").utf8)
                    + body.prefix(1000))
            // The server takes the slot once it has read that head; until then a second upload may
            // still get in (and is stored), so ask until one is refused.
            var refused: HTTPAnswer?
            for _ in 0..<100 {
                let answer = try await upload()
                if answer.status == 503 { refused = answer; break }
                #expect(answer.status == 202, "\(answer.status): \(answer.text)")
                try await Task.sleep(for: .milliseconds(100))
            }
            let refusal = try #require(refused, "no upload was refused while the only slot was held")
            #expect(refusal.headers["retry-after"] == "1")
            #expect(refusal.text.contains("uploads at once"))

            // Like Python's urllib: `Connection: close`, and a body far past the socket buffers sent
            // whole before a byte is read; the 503 still arrives, then the close.
            let large = Self.wav(frames: 4_000_000)
            let eager = try RawSocket(port: port)
            defer { eager.close() }
            try await eager.send(
                Array(("POST /v1/runs/\(run.id)/messages?marker=3km HTTP/1.1\r\nHost: x\r\n"
                    + "Authorization: Bearer \(run.inviteToken)\r\nContent-Length: \(large.count)\r\nConnection: close\r\n\r\n").utf8)
                    + large)
            let eagerReply = await eager.readAll()
            #expect(eagerReply.hasPrefix("HTTP/1.1 503"), "\(eagerReply.prefix(200))")
            #expect(eagerReply.lowercased().contains("connection: close"))

            // The held upload ends; its slot is free again.
            try await held.send(Array(body.dropFirst(1000)))
            let reply = await held.readAll()
            #expect(reply.hasPrefix("HTTP/1.1 202"), "\(reply.prefix(200))")
            #expect(try await upload().status == 202)
        }
    }
}
