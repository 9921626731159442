import Foundation
import Testing
import TestSupport

@testable import VoicemsgServer

/// No C library writes to the server's log: bytes that look like MP3 frames (where libmpg123
/// prints its warnings to stderr when it runs in-process) are decoded by the server's workers,
/// and every line of the log is one of voicemsg's own.
@Suite struct QuietServerLogTests {
    /// MPEG-1 Layer III frame headers every 417 bytes among random bytes, half behind an empty
    /// ID3v2 tag: libmpg123 resyncs, complains of bad side info and of the tag, line after line.
    static func mp3LikeNoise(seed: UInt64) -> Data {
        var generator = SeededGenerator(seed: seed)
        var bytes = (0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for offset in stride(from: 0, to: bytes.count - 3, by: 417) {
            bytes[offset] = 0xFF
            bytes[offset + 1] = 0xFB
            bytes[offset + 2] = [0x90, 0x50, 0xB0, 0x10].randomElement(using: &generator)!
        }
        if seed % 2 == 0 { bytes.replaceSubrange(0..<10, with: Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, 0]) }
        return Data(bytes)
    }

    @Test func mp3LikeNoiseLeavesOnlyVoicemsgLinesInTheLog() async throws {
        let server = try await ServerProcess.start(workers: 1)
        defer { Task { await server.stop() } }
        let run = try await server.createRun()
        var ids: [String] = []
        for seed in 0..<6 {
            let answer = try await server.request(
                "/v1/runs/\(run.id)/messages?marker=1km", method: .post, headers: bearer(run.inviteToken),
                body: Self.mp3LikeNoise(seed: UInt64(seed)))
            try #require(answer.status == 202, "upload answered \(answer.status): \(answer.text)")
            let id = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])["id"] as? String
            ids.append(try #require(id))
        }
        let settled = try await eventually(within: 300) {
            var all = true
            for id in ids {
                let answer = try await server.request("/v1/messages/\(id)", headers: bearer(run.ownerToken))
                all = all && (answer.text.contains("\"failed\"") || answer.text.contains("\"ready\""))
            }
            return all
        }
        #expect(settled, "every upload was processed:\n\(server.process.log)")
        let lines = server.process.log.split(separator: "\n")
        // Each of voicemsg's lines starts with its timestamp and names its logger.
        let foreign = lines.filter { !($0.first?.isNumber ?? false) || !$0.contains(" voicemsg.serve: ") }
        #expect(foreign.isEmpty, "lines not written by voicemsg:\n\(foreign.joined(separator: "\n"))")
    }
}
