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

    func aac(messageID: String) async throws -> StoredAAC? {
        try await database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT aac_bytes, aac_sha256 FROM results WHERE message_id = ? AND aac_bytes IS NOT NULL",
                arguments: [messageID]
            ).map { StoredAAC(bytes: $0["aac_bytes"], sha256: $0["aac_sha256"]) }
        }
    }

    func storeAAC(_ aac: StoredAAC, messageID: String) async throws -> Bool {
        try await database.immediate { db in
            try db.execute(
                sql: "UPDATE results SET aac_bytes = ?, aac_sha256 = ? WHERE message_id = ? AND aac_bytes IS NULL",
                arguments: [aac.bytes, aac.sha256, messageID])
            return db.changesCount == 1
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
