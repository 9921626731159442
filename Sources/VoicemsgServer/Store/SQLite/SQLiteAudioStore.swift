import Foundation
import GRDB

/// Originals and results as BLOBs in the SQLite database.
struct SQLiteAudioStore: AudioStore {
    let database: SQLiteBackend

    func audio(messageID: String) async throws -> Data? {
        try await database.read { db in
            try Data.fetchOne(
                db, sql: "SELECT bytes FROM results WHERE message_id = ?", arguments: [messageID])
        }
    }

    func hasOriginal(messageID: String) async throws -> Bool {
        try await database.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM originals WHERE message_id = ?",
                arguments: [messageID]) ?? 0 > 0
        }
    }
}
