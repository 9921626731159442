import Foundation
import PostgresNIO

/// Originals and results as BYTEA in the PostgreSQL database, so any server can serve them.
struct PostgresAudioStore: AudioStore {
    let database: PostgresBackend

    func audio(messageID: String) async throws -> Data? {
        try await database.rows("SELECT bytes FROM results WHERE message_id = \(messageID)") { row in
            try row.decode(Data.self)
        }.first
    }

    func aac(messageID: String) async throws -> StoredAAC? {
        try await database.rows(
            "SELECT aac_bytes, aac_sha256 FROM results WHERE message_id = \(messageID) AND aac_bytes IS NOT NULL"
        ) { row in
            let (bytes, sha256) = try row.decode((Data, String).self)
            return StoredAAC(bytes: bytes, sha256: sha256)
        }.first
    }

    func storeAAC(_ aac: StoredAAC, messageID: String) async throws -> Bool {
        try await database.changesOne(
            """
            UPDATE results SET aac_bytes = \(ByteBuffer(bytes: aac.bytes)), aac_sha256 = \(aac.sha256)
            WHERE message_id = \(messageID) AND aac_bytes IS NULL
            RETURNING message_id
            """)
    }

    func hasOriginal(messageID: String) async throws -> Bool {
        try await !database.rows("SELECT 1 FROM originals WHERE message_id = \(messageID)") { _ in () }.isEmpty
    }
}
