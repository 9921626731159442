import Foundation
import GRDB
import Testing
import TestSupport

@testable import VoicemsgServer

/// An upload is copied from its spooled file into SQLite a piece at a time: what the database
/// holds is the body, byte for byte, whatever its length against the piece size.
@Suite struct UploadStoredInPiecesTests {
    @Test func storedOriginalIsTheBodyByteForByte() async throws {
        try await TestServer().live { server in
            let run = try await server.createRun()
            // Three pieces and a bit: the last piece is short.
            var generator = SeededGenerator(seed: 13)
            let body = Data(Array("RIFF".utf8) + (0..<(3 * SQLiteBlobWriter.pieceBytes + 12_345 - 4)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            })
            let answer = try await server.request(
                "/v1/runs/\(run.id)/messages?marker=1km", method: .post, headers: bearer(run.inviteToken),
                body: body)
            try #require(answer.status == 202, "upload answered \(answer.status): \(answer.text)")
            let id = try #require((try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["id"] as? String)

            let database = try DatabaseQueue(path: server.directory.file("data/voicemsg.sqlite"))
            let stored = try await database.read { db in
                try Data.fetchOne(db, sql: "SELECT bytes FROM originals WHERE message_id = ?", arguments: [id])
            }
            #expect(stored == body)
        }
    }
}
