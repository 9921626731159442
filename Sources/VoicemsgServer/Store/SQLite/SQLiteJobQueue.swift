import Foundation
import GRDB

/// The job queue in the SQLite database; see `JobQueue` for its rules. Every change is one
/// IMMEDIATE transaction, so a claim's reads see exactly what its writes act on.
struct SQLiteJobQueue: JobQueue {
    let database: SQLiteBackend
    /// Wakes this process's idle workers when a job is queued or given back.
    let signal: LocalWorkSignal
    /// Wakes this process's long polls when a job's state changes.
    let changes: MessageChangeSignal

    func enqueue(_ message: NewMessage, original: Data) async throws -> MessageRecord {
        try await enqueue(message) { db, id in
            try db.execute(sql: "INSERT INTO originals (message_id, bytes) VALUES (?, ?)", arguments: [id, original])
        }
    }

    /// The upload goes from its file into the database 1 MiB at a time (a zeroblob filled with
    /// sqlite3_blob_write), in the same transaction, so a hundred concurrent uploads do not each
    /// need their whole body in memory to be stored.
    func enqueue(_ message: NewMessage, originalFile: URL, length: Int) async throws -> MessageRecord {
        try await enqueue(message) { db, id in
            try db.execute(
                sql: "INSERT INTO originals (message_id, bytes) VALUES (?, zeroblob(?))", arguments: [id, length])
            try SQLiteBlobWriter.copy(
                file: originalFile, length: length, into: db, table: "originals", column: "bytes",
                rowID: db.lastInsertedRowID)
        }
    }

    private func enqueue(
        _ message: NewMessage, storeOriginal: @escaping @Sendable (Database, String) throws -> Void
    ) async throws -> MessageRecord {
        let record = try await database.immediate { db -> MessageRecord in
            if let key = message.idempotencyKey,
                let existing = try MessageRecord.fetchOne(
                    db, sql: "SELECT * FROM messages WHERE run_id = ? AND idempotency_key = ?",
                    arguments: [message.runID, key])
            {
                return existing
            }
            let now = SQLiteBackend.now()
            let marker = StoredMarker(message.marker)
            try db.execute(
                sql: """
                    INSERT INTO messages (id, run_id, marker, marker_kind, marker_value, marker_meters,
                        sender, idempotency_key, status, attempts, max_attempts, available_at, created_at,
                        updated_at, sender_token_hash, request_fingerprint)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    message.id, message.runID, marker.canonical, marker.kind, marker.value, message.markerMeters,
                    message.sender, message.idempotencyKey, message.maxAttempts, now, now, now,
                    message.senderTokenHash, message.requestFingerprint,
                ])
            try storeOriginal(db, message.id)
            return try MessageRecord.fetchOne(db, sql: "SELECT * FROM messages WHERE id = ?", arguments: [message.id])!
        }
        signal.signal()
        // A new message changes its run's list: a runner's page waiting on it hears at once.
        changes.notify()
        return record
    }

    func claim(workerID: String, leaseSeconds: Double) async throws -> JobClaim? {
        let leaseToken = SecureIdentifier.makeToken()
        let claim = try await database.immediate { db -> JobClaim? in
            let now = SQLiteBackend.now()
            // A job whose lease ran out on its last allowed attempt has crashed or stalled every
            // worker that took it: it fails instead of being handed out again.
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT id, attempts FROM messages
                    WHERE status = 'processing' AND lease_expires_at <= ? AND attempts >= max_attempts
                    """, arguments: [now])
            {
                try db.execute(
                    sql: """
                        UPDATE messages SET status = 'failed', error = ?, lease_token = NULL,
                            lease_expires_at = NULL, updated_at = ?
                        WHERE id = ?
                        """,
                    arguments: [
                        SQLiteJobQueue.leaseExhaustedError(attempts: try row.decode(Int.self, forColumn: "attempts")),
                        now, try row.decode(String.self, forColumn: "id"),
                    ])
            }
            // Round-robin across runs (see `JobQueue`): the oldest job of the run served least
            // recently, a run's last service being the latest change to a job it had claimed.
            guard
                let id = try String.fetchOne(
                    db,
                    sql: """
                        SELECT m.id FROM messages m
                        LEFT JOIN (
                            SELECT run_id, MAX(updated_at) AS served FROM messages
                            WHERE attempts > 0
                              AND run_id IN (SELECT run_id FROM messages WHERE status IN ('queued', 'processing'))
                            GROUP BY run_id) s ON s.run_id = m.run_id
                        WHERE (m.status = 'queued' AND m.available_at <= ?)
                           OR (m.status = 'processing' AND m.lease_expires_at <= ?)
                        ORDER BY COALESCE(s.served, 0), m.available_at, m.id LIMIT 1
                        """, arguments: [now, now])
            else { return nil }
            try db.execute(
                sql: """
                    UPDATE messages SET status = 'processing', attempts = attempts + 1,
                        lease_token = ?, lease_expires_at = ?, worker_id = ?, updated_at = ?
                    WHERE id = ?
                    """, arguments: [leaseToken, now + leaseSeconds, workerID, now, id])
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT m.id, m.run_id, r.title, m.marker, m.marker_kind, m.marker_value, m.sender,
                           m.attempts, m.max_attempts, o.bytes
                    FROM messages m JOIN runs r ON r.id = m.run_id
                    LEFT JOIN originals o ON o.message_id = m.id
                    WHERE m.id = ?
                    """, arguments: [id])!
            return JobClaim(
                messageID: try row.decode(forColumn: "id"), runID: try row.decode(forColumn: "run_id"),
                runTitle: try row.decode(forColumn: "title"),
                marker: StoredMarker(
                    canonical: try row.decode(forColumn: "marker"), kind: try row.decode(forColumn: "marker_kind"),
                    value: try row.decode(forColumn: "marker_value")),
                sender: try row.decode(forColumn: "sender"), attempt: try row.decode(forColumn: "attempts"),
                maxAttempts: try row.decode(forColumn: "max_attempts"), leaseToken: leaseToken, workerID: workerID,
                original: try row.decode(Data?.self, forColumn: "bytes") ?? Data())
        }
        if claim != nil { changes.notify() }
        return claim
    }

    func heartbeat(_ claim: JobClaim, leaseSeconds: Double) async throws -> Bool {
        try await database.immediate { db in
            let now = SQLiteBackend.now()
            try db.execute(
                sql: """
                    UPDATE messages SET lease_expires_at = ?, updated_at = ?
                    WHERE id = ? AND status = 'processing' AND lease_token = ?
                    """, arguments: [now + leaseSeconds, now, claim.messageID, claim.leaseToken])
            return db.changesCount == 1
        }
    }

    func complete(_ claim: JobClaim, result: JobResult) async throws -> Bool {
        let done = try await database.immediate { db -> Bool in
            let now = SQLiteBackend.now()
            try db.execute(
                sql: """
                    UPDATE messages SET status = 'ready', error = NULL, lease_token = NULL,
                        lease_expires_at = NULL, duration_seconds = ?, audio_bytes = ?,
                        audio_sha256 = ?, completed_by = ?, updated_at = ?
                    WHERE id = ? AND status = 'processing' AND lease_token = ?
                    """,
                arguments: [
                    result.durationSeconds, result.audio.count, result.sha256, claim.workerID, now,
                    claim.messageID, claim.leaseToken,
                ])
            guard db.changesCount == 1 else { return false }
            try db.execute(
                sql: "INSERT INTO results (message_id, bytes, aac_bytes, aac_sha256) VALUES (?, ?, ?, ?)",
                arguments: [claim.messageID, result.audio, result.aac?.bytes, result.aac?.sha256])
            try db.execute(
                sql: "DELETE FROM originals WHERE message_id = ?", arguments: [claim.messageID])
            return true
        }
        if done { changes.notify() }
        return done
    }

    func fail(_ claim: JobClaim, error: String, retryAfterSeconds: Double?) async throws -> Bool {
        let changed = try await database.immediate { db -> Bool in
            let now = SQLiteBackend.now()
            if let retryAfterSeconds {
                try db.execute(
                    sql: """
                        UPDATE messages SET status = 'queued', error = ?, lease_token = NULL,
                            lease_expires_at = NULL, available_at = ?, updated_at = ?
                        WHERE id = ? AND status = 'processing' AND lease_token = ?
                        """,
                    arguments: [error, now + retryAfterSeconds, now, claim.messageID, claim.leaseToken])
            } else {
                try db.execute(
                    sql: """
                        UPDATE messages SET status = 'failed', error = ?, lease_token = NULL,
                            lease_expires_at = NULL, updated_at = ?
                        WHERE id = ? AND status = 'processing' AND lease_token = ?
                        """, arguments: [error, now, claim.messageID, claim.leaseToken])
            }
            return db.changesCount == 1
        }
        if changed { changes.notify() }
        return changed
    }

    func release(_ claim: JobClaim) async throws -> Bool {
        let changed = try await database.immediate { db -> Bool in
            let now = SQLiteBackend.now()
            try db.execute(
                sql: """
                    UPDATE messages SET status = 'queued', attempts = MAX(attempts - 1, 0),
                        lease_token = NULL, lease_expires_at = NULL, available_at = ?, updated_at = ?
                    WHERE id = ? AND status = 'processing' AND lease_token = ?
                    """, arguments: [now, now, claim.messageID, claim.leaseToken])
            return db.changesCount == 1
        }
        if changed {
            signal.signal()
            changes.notify()
        }
        return changed
    }

    func delete(messageID: String) async throws -> Bool {
        let deleted = try await database.immediate { db -> Bool in
            try db.execute(sql: "DELETE FROM originals WHERE message_id = ?", arguments: [messageID])
            try db.execute(sql: "DELETE FROM results WHERE message_id = ?", arguments: [messageID])
            try db.execute(sql: "DELETE FROM messages WHERE id = ?", arguments: [messageID])
            return db.changesCount == 1
        }
        if deleted { changes.notify() }
        return deleted
    }
}
