import Foundation
import PostgresNIO

/// Originals and results as BYTEA in the PostgreSQL database, so any server can serve them.
struct PostgresAudioStore: AudioStore {
    let database: PostgresBackend

    func audio(messageID: String) async throws -> Data? {
        let rows = try await database.client.query(
            "SELECT bytes FROM results WHERE message_id = \(messageID)", logger: database.logger)
        for try await (bytes) in rows.decode(Data.self) { return bytes }
        return nil
    }

    func hasOriginal(messageID: String) async throws -> Bool {
        let rows = try await database.client.query(
            "SELECT 1 FROM originals WHERE message_id = \(messageID)", logger: database.logger)
        for try await _ in rows { return true }
        return false
    }
}
