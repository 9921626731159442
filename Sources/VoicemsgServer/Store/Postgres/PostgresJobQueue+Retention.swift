import Foundation
import PostgresNIO

/// `RetentionStore`, which `JobQueue` includes.
extension PostgresJobQueue {
    func purgeFailedOriginals(failedAtOrBefore cutoff: Double) async throws -> Int {
        try await database.rows(
            """
            DELETE FROM originals WHERE message_id IN (
                SELECT id FROM messages WHERE status = 'failed' AND updated_at <= \(cutoff))
            RETURNING message_id
            """
        ) { _ in () }.count
    }

    /// The run's message rows are locked first, as `delete(messageID:)` locks one, so a
    /// completion running at the same time either commits before or finds its row gone.
    func deleteRun(id: String) async throws -> Bool {
        let logger = database.logger
        let deleted = try await database.transaction { connection -> Bool in
            try await connection.query("SELECT id FROM messages WHERE run_id = \(id) FOR UPDATE", logger: logger)
            try await connection.query(
                "DELETE FROM originals WHERE message_id IN (SELECT id FROM messages WHERE run_id = \(id))", logger: logger)
            try await connection.query(
                "DELETE FROM results WHERE message_id IN (SELECT id FROM messages WHERE run_id = \(id))", logger: logger)
            try await connection.query("DELETE FROM messages WHERE run_id = \(id)", logger: logger)
            try await connection.query("DELETE FROM courses WHERE run_id = \(id)", logger: logger)
            return try await connection.query("DELETE FROM runs WHERE id = \(id) RETURNING id", logger: logger)
                .collect().count == 1
        }
        if deleted { changes.notify() }
        return deleted
    }

    func storage(runID: String) async throws -> RunStorage {
        let storages = try await database.rows(
            """
            SELECT
                (SELECT COUNT(*) FROM messages WHERE run_id = \(runID))::BIGINT AS messages,
                (SELECT COUNT(*) FROM originals o JOIN messages m ON m.id = o.message_id
                    WHERE m.run_id = \(runID))::BIGINT AS originals,
                (SELECT COALESCE(SUM(LENGTH(o.bytes)), 0) FROM originals o JOIN messages m
                    ON m.id = o.message_id WHERE m.run_id = \(runID))::BIGINT AS original_bytes,
                (SELECT COALESCE(SUM(LENGTH(r.bytes) + COALESCE(LENGTH(r.aac_bytes), 0)), 0) FROM results r JOIN messages m
                    ON m.id = r.message_id WHERE m.run_id = \(runID))::BIGINT AS audio_bytes,
                (SELECT MIN(m.updated_at) FROM messages m JOIN originals o ON o.message_id = m.id
                    WHERE m.run_id = \(runID) AND m.status = 'failed') AS oldest_failed,
                (SELECT MAX(m.updated_at) FROM messages m JOIN originals o ON o.message_id = m.id
                    WHERE m.run_id = \(runID) AND m.status = 'failed') AS newest_failed
            """
        ) { row in
            let row = row.makeRandomAccess()
            return RunStorage(
                messages: Int(try row["messages"].decode(Int64.self)),
                originals: Int(try row["originals"].decode(Int64.self)),
                originalBytes: Int(try row["original_bytes"].decode(Int64.self)),
                audioBytes: Int(try row["audio_bytes"].decode(Int64.self)),
                oldestFailedOriginalAt: try row["oldest_failed"].decode(Double?.self),
                newestFailedOriginalAt: try row["newest_failed"].decode(Double?.self))
        }
        return storages[0]
    }
}
