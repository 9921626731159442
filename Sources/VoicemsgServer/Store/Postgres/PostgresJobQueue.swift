import Foundation
import Logging
import PostgresNIO

/// The job queue in the PostgreSQL database; see `JobQueue` for its rules. Claims take rows with
/// `FOR UPDATE SKIP LOCKED`, so workers on any number of machines never wait on each other's
/// jobs.
struct PostgresJobQueue: JobQueue {
    let database: PostgresBackend
    /// Wakes idle workers here at once, and elsewhere through `NOTIFY`.
    let signal: PostgresWorkSignal
    /// Wakes this process's long polls when a job's state changes; polls re-check on their own
    /// for changes made on other machines.
    let changes: MessageChangeSignal
    /// Uploads on their way into PostgreSQL, one at a time: each goes whole into one bind
    /// message (copied twice on the way, as a ByteBuffer and into the connection's outbound
    /// buffer), so the server's memory grows with every upload sent at once. The rest wait on
    /// disk, in the spool, for their turn, and a single upload goes in quickly enough that one
    /// at a time keeps up. What one, two and unbounded cost under load: docs/operations.md,
    /// "Load and faults" (`make soak SOAK=pgload`).
    let originalsInFlight = AsyncGate(limit: Self.originalsInFlightLimit)
    static let originalsInFlightLimit = 1

    private var logger: Logger { database.logger }

    func enqueue(_ message: NewMessage, originalFile: URL, length: Int) async throws -> MessageRecord {
        try await originalsInFlight.pass {
            try await enqueue(message, original: Data(contentsOf: originalFile, options: .alwaysMapped))
        }
    }

    func enqueue(_ message: NewMessage, original: Data) async throws -> MessageRecord {
        let logger = self.logger
        let marker = StoredMarker(message.marker)
        let record = try await database.transaction { connection -> MessageRecord in
            // ON CONFLICT keeps two concurrent retries with one key from both inserting.
            let inserted = try await connection.query(
                """
                INSERT INTO messages (id, run_id, marker, marker_kind, marker_value, marker_meters,
                    sender, idempotency_key, status, attempts, max_attempts, available_at, created_at,
                    updated_at, sender_token_hash, request_fingerprint)
                VALUES (\(message.id), \(message.runID), \(marker.canonical), \(marker.kind), \(marker.value),
                    \(message.markerMeters),
                    \(message.sender), \(message.idempotencyKey), 'queued', 0, \(message.maxAttempts),
                    voicemsg_now(), voicemsg_now(), voicemsg_now(), \(message.senderTokenHash),
                    \(message.requestFingerprint))
                ON CONFLICT (run_id, idempotency_key) DO NOTHING
                RETURNING id
                """, logger: logger
            ).collect()
            let id: String
            if inserted.isEmpty {
                id = try await connection.query(
                    """
                    SELECT id FROM messages
                    WHERE run_id = \(message.runID) AND idempotency_key = \(message.idempotencyKey)
                    """, logger: logger
                ).collect().first!.decode(String.self)
            } else {
                id = message.id
                try await connection.query(
                    "INSERT INTO originals (message_id, bytes) VALUES (\(id), \(ByteBuffer(bytes: original)))",
                    logger: logger)
                // Delivered at commit, to every listening worker.
                try await connection.query("SELECT pg_notify(\(PostgresWorkSignal.channel), '')", logger: logger)
            }
            let row = try await connection.query(
                "SELECT \(unescaped: MessageRecord.postgresColumns) FROM messages WHERE id = \(id)", logger: logger
            ).collect().first!
            return try MessageRecord(row)
        }
        signal.local.signal()
        // A new message changes its run's list: a runner's page waiting on it hears at once.
        changes.notify()
        return record
    }

    /// One statement, so one round trip: data-modifying CTEs run atomically. The sweep and
    /// the claim share a snapshot; the claim skips jobs out of attempts on its own.
    func claim(workerID: String, leaseSeconds: Double) async throws -> JobClaim? {
        let leaseToken = SecureIdentifier.makeToken()
        let claims = try await database.rows(
            claimQuery(workerID: workerID, leaseSeconds: leaseSeconds, leaseToken: leaseToken)
        ) { row in
            let row = row.makeRandomAccess()
            return JobClaim(
                messageID: try row["id"].decode(String.self),
                runID: try row["run_id"].decode(String.self),
                runTitle: try row["title"].decode(String.self),
                marker: StoredMarker(
                    canonical: try row["marker"].decode(String.self), kind: try row["marker_kind"].decode(String?.self),
                    value: try row["marker_value"].decode(Double?.self)),
                sender: try row["sender"].decode(String?.self),
                attempt: try row["attempts"].decode(Int.self),
                maxAttempts: try row["max_attempts"].decode(Int.self),
                leaseToken: leaseToken, workerID: workerID,
                original: try row["bytes"].decode(Data?.self) ?? Data())
        }
        guard let claim = claims.first else { return nil }
        changes.notify()
        return claim
    }

    private func claimQuery(workerID: String, leaseSeconds: Double, leaseToken: String) -> PostgresQuery {
        """
            WITH clock AS (SELECT voicemsg_now() AS now),
            dead AS (
                -- Jobs whose lease ran out on their last allowed attempt crashed or stalled
                -- every worker that took them: they fail instead of being handed out again.
                UPDATE messages m SET status = 'failed',
                    error = 'processing stopped ' || m.attempts || \(PostgresJobQueue.exhaustedSuffix),
                    lease_token = NULL, lease_expires_at = NULL, updated_at = voicemsg_now()
                WHERE m.id IN (
                    SELECT id FROM messages
                    WHERE status = 'processing' AND lease_expires_at <= (SELECT now FROM clock)
                      AND attempts >= max_attempts
                    FOR UPDATE SKIP LOCKED)
                RETURNING m.id),
            -- Expired leases first (an index scan that stops at the first unlocked row), then
            -- round-robin across runs (see JobQueue): the oldest job of the run served least
            -- recently (the latest change to a job it had claimed), so one run's flood cannot
            -- hold back every other run.
            rescue AS (
                SELECT id FROM messages
                WHERE status = 'processing' AND lease_expires_at <= (SELECT now FROM clock)
                  AND attempts < max_attempts
                ORDER BY lease_expires_at
                LIMIT 1
                FOR UPDATE SKIP LOCKED),
            fresh AS (
                SELECT m.id FROM messages m
                LEFT JOIN (
                    SELECT run_id, MAX(updated_at) AS served FROM messages
                    WHERE attempts > 0
                      AND run_id IN (SELECT run_id FROM messages WHERE status IN ('queued', 'processing'))
                    GROUP BY run_id) s ON s.run_id = m.run_id
                WHERE m.status = 'queued' AND m.available_at <= (SELECT now FROM clock)
                ORDER BY COALESCE(s.served, 0), m.available_at, m.id
                LIMIT 1
                FOR UPDATE OF m SKIP LOCKED),
            next AS (
                SELECT id FROM rescue UNION ALL SELECT id FROM fresh LIMIT 1),
            claimed AS (
                UPDATE messages m SET status = 'processing', attempts = m.attempts + 1,
                    lease_token = \(leaseToken), lease_expires_at = voicemsg_now() + \(leaseSeconds),
                    worker_id = \(workerID), updated_at = voicemsg_now()
                FROM next WHERE m.id = next.id
                RETURNING m.id, m.run_id, m.marker, m.marker_kind, m.marker_value, m.sender, m.attempts,
                    m.max_attempts)
            SELECT c.id, c.run_id, c.marker, c.marker_kind, c.marker_value, c.sender, c.attempts,
                c.max_attempts, r.title, o.bytes
            FROM claimed c JOIN runs r ON r.id = c.run_id
            LEFT JOIN originals o ON o.message_id = c.id
            """
    }

    static var exhaustedSuffix: String {
        let sample = leaseExhaustedError(attempts: 0)
        return String(sample.dropFirst("processing stopped 0".count))
    }

    func heartbeat(_ claim: JobClaim, leaseSeconds: Double) async throws -> Bool {
        try await database.changesOne(
            """
            UPDATE messages SET lease_expires_at = voicemsg_now() + \(leaseSeconds),
                updated_at = voicemsg_now()
            WHERE id = \(claim.messageID) AND status = 'processing' AND lease_token = \(claim.leaseToken)
            RETURNING id
            """)
    }

    /// One statement: the result, the job state and the original's deletion commit together.
    /// The UPDATE's row lock orders it against a concurrent rescue: whichever commits first
    /// wins, and the other sees a different lease token and changes nothing.
    func complete(_ claim: JobClaim, result: JobResult) async throws -> Bool {
        let done = try await database.changesOne(
            """
            WITH done AS (
                UPDATE messages SET status = 'ready', error = NULL, lease_token = NULL,
                    lease_expires_at = NULL, duration_seconds = \(result.durationSeconds),
                    audio_bytes = \(result.audio.count), audio_sha256 = \(result.sha256),
                    completed_by = \(claim.workerID), updated_at = voicemsg_now()
                WHERE id = \(claim.messageID) AND status = 'processing'
                  AND lease_token = \(claim.leaseToken)
                RETURNING id),
            stored AS (
                INSERT INTO results (message_id, bytes, aac_bytes, aac_sha256)
                SELECT id, \(ByteBuffer(bytes: result.audio)), \(result.aac.map { ByteBuffer(bytes: $0.bytes) }),
                    \(result.aac?.sha256) FROM done
                RETURNING message_id),
            dropped AS (
                DELETE FROM originals WHERE message_id IN (SELECT id FROM done))
            SELECT message_id FROM stored
            """)
        if done { changes.notify() }
        return done
    }

    func fail(_ claim: JobClaim, error: String, retryAfterSeconds: Double?) async throws -> Bool {
        let failed = try await failQuery(claim, error: error, retryAfterSeconds: retryAfterSeconds)
        if failed { changes.notify() }
        return failed
    }

    private func failQuery(_ claim: JobClaim, error: String, retryAfterSeconds: Double?) async throws -> Bool {
        if let retryAfterSeconds {
            return try await database.changesOne(
                """
                UPDATE messages SET status = 'queued', error = \(error), lease_token = NULL,
                    lease_expires_at = NULL, available_at = voicemsg_now() + \(retryAfterSeconds),
                    updated_at = voicemsg_now()
                WHERE id = \(claim.messageID) AND status = 'processing'
                  AND lease_token = \(claim.leaseToken)
                RETURNING id
                """)
        }
        return try await database.changesOne(
            """
            UPDATE messages SET status = 'failed', error = \(error), lease_token = NULL,
                lease_expires_at = NULL, updated_at = voicemsg_now()
            WHERE id = \(claim.messageID) AND status = 'processing' AND lease_token = \(claim.leaseToken)
            RETURNING id
            """)
    }

    func release(_ claim: JobClaim) async throws -> Bool {
        let released = try await database.changesOne(
            """
            UPDATE messages SET status = 'queued', attempts = GREATEST(attempts - 1, 0),
                lease_token = NULL, lease_expires_at = NULL, available_at = voicemsg_now(),
                updated_at = voicemsg_now()
            WHERE id = \(claim.messageID) AND status = 'processing' AND lease_token = \(claim.leaseToken)
            RETURNING id
            """)
        if released {
            await signal.signalWork()
            changes.notify()
        }
        return released
    }

    /// The message's row is locked first, so a completion running at the same time either
    /// commits before (and its result is deleted here) or finds the row gone and stores nothing.
    func delete(messageID: String) async throws -> Bool {
        let logger = self.logger
        let deleted = try await database.transaction { connection -> Bool in
            let locked = try await connection.query(
                "SELECT id FROM messages WHERE id = \(messageID) FOR UPDATE", logger: logger
            ).collect()
            guard !locked.isEmpty else { return false }
            try await connection.query("DELETE FROM originals WHERE message_id = \(messageID)", logger: logger)
            try await connection.query("DELETE FROM results WHERE message_id = \(messageID)", logger: logger)
            try await connection.query("DELETE FROM messages WHERE id = \(messageID)", logger: logger)
            return true
        }
        if deleted { changes.notify() }
        return deleted
    }
}
