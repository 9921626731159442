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

    func hasOriginal(messageID: String) async throws -> Bool {
        try await !database.rows("SELECT 1 FROM originals WHERE message_id = \(messageID)") { _ in () }.isEmpty
    }
}
