import Foundation
import GRDB

/// `RetentionStore`, which `JobQueue` includes.
extension SQLiteJobQueue {
    func purgeFailedOriginals(failedAtOrBefore cutoff: Double) async throws -> Int {
        try await database.immediate { db in
            try db.execute(
                sql: """
                    DELETE FROM originals WHERE message_id IN (
                        SELECT id FROM messages WHERE status = 'failed' AND updated_at <= ?)
                    """, arguments: [cutoff])
            return db.changesCount
        }
    }

    func deleteRun(id: String) async throws -> Bool {
        let deleted = try await database.immediate { db -> Bool in
            for table in ["originals", "results"] {
                try db.execute(
                    sql: "DELETE FROM \(table) WHERE message_id IN (SELECT id FROM messages WHERE run_id = ?)",
                    arguments: [id])
            }
            try db.execute(sql: "DELETE FROM messages WHERE run_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM courses WHERE run_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM runs WHERE id = ?", arguments: [id])
            return db.changesCount == 1
        }
        if deleted { changes.notify() }
        return deleted
    }

    func storage(runID: String) async throws -> RunStorage {
        try await database.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT
                        (SELECT COUNT(*) FROM messages WHERE run_id = ?1) AS messages,
                        (SELECT COUNT(*) FROM originals o JOIN messages m ON m.id = o.message_id
                            WHERE m.run_id = ?1) AS originals,
                        (SELECT COALESCE(SUM(LENGTH(o.bytes)), 0) FROM originals o JOIN messages m
                            ON m.id = o.message_id WHERE m.run_id = ?1) AS original_bytes,
                        (SELECT COALESCE(SUM(LENGTH(r.bytes) + COALESCE(LENGTH(r.aac_bytes), 0)), 0) FROM results r JOIN messages m
                            ON m.id = r.message_id WHERE m.run_id = ?1) AS audio_bytes,
                        (SELECT MIN(m.updated_at) FROM messages m JOIN originals o ON o.message_id = m.id
                            WHERE m.run_id = ?1 AND m.status = 'failed') AS oldest_failed,
                        (SELECT MAX(m.updated_at) FROM messages m JOIN originals o ON o.message_id = m.id
                            WHERE m.run_id = ?1 AND m.status = 'failed') AS newest_failed
                    """, arguments: [runID])!
            return RunStorage(
                messages: try row.decode(forColumn: "messages"), originals: try row.decode(forColumn: "originals"),
                originalBytes: try row.decode(forColumn: "original_bytes"),
                audioBytes: try row.decode(forColumn: "audio_bytes"),
                oldestFailedOriginalAt: try row.decode(forColumn: "oldest_failed"),
                newestFailedOriginalAt: try row.decode(forColumn: "newest_failed"))
        }
    }
}
