import Foundation
import PostgresNIO

extension PostgresStore {
    public func claim(workerID: String, leaseSeconds: Double) async throws -> JobClaim? {
        let leaseToken = SecureIdentifier.makeToken()
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection -> JobClaim? in
            // Jobs whose lease ran out on their last allowed attempt crashed or stalled every
            // worker that took them: they fail instead of being handed out again.
            try await connection.query(
                """
                WITH dead AS (
                    SELECT id FROM messages
                    WHERE status = 'processing' AND lease_expires_at <= voicemsg_now()
                      AND attempts >= max_attempts
                    FOR UPDATE SKIP LOCKED)
                UPDATE messages m SET status = 'failed',
                    error = 'processing stopped ' || m.attempts || \(PostgresStore.exhaustedSuffix),
                    lease_token = NULL, lease_expires_at = NULL, updated_at = voicemsg_now()
                FROM dead WHERE m.id = dead.id
                """, logger: logger)
            let claimed = try await connection.query(
                """
                WITH next AS (
                    SELECT id FROM messages
                    WHERE (status = 'queued' AND available_at <= voicemsg_now())
                       OR (status = 'processing' AND lease_expires_at <= voicemsg_now()
                           AND attempts < max_attempts)
                    ORDER BY available_at, id
                    LIMIT 1
                    FOR UPDATE SKIP LOCKED)
                UPDATE messages m SET status = 'processing', attempts = m.attempts + 1,
                    lease_token = \(leaseToken), lease_expires_at = voicemsg_now() + \(leaseSeconds),
                    worker_id = \(workerID), updated_at = voicemsg_now()
                FROM next WHERE m.id = next.id
                RETURNING m.id, m.run_id, m.marker, m.sender, m.attempts, m.max_attempts
                """, logger: logger
            ).collect()
            guard let row = claimed.first?.makeRandomAccess() else { return nil }
            let id = try row["id"].decode(String.self)
            let runID = try row["run_id"].decode(String.self)
            let details = try await connection.query(
                """
                SELECT r.title, o.bytes FROM runs r
                LEFT JOIN originals o ON o.message_id = \(id)
                WHERE r.id = \(runID)
                """, logger: logger
            ).collect().first!.makeRandomAccess()
            return JobClaim(
                messageID: id, runID: runID, runTitle: try details["title"].decode(String.self),
                marker: try row["marker"].decode(String.self),
                sender: try row["sender"].decode(String?.self),
                attempt: try row["attempts"].decode(Int.self),
                maxAttempts: try row["max_attempts"].decode(Int.self),
                leaseToken: leaseToken, workerID: workerID,
                original: try details["bytes"].decode(Data?.self) ?? Data())
        }
    }

    static var exhaustedSuffix: String {
        let sample = leaseExhaustedError(attempts: 0)
        return String(sample.dropFirst("processing stopped 0".count))
    }

    public func heartbeat(_ claim: JobClaim, leaseSeconds: Double) async throws -> Bool {
        try await changesOne(
            """
            UPDATE messages SET lease_expires_at = voicemsg_now() + \(leaseSeconds),
                updated_at = voicemsg_now()
            WHERE id = \(claim.messageID) AND status = 'processing' AND lease_token = \(claim.leaseToken)
            RETURNING id
            """)
    }

    public func complete(_ claim: JobClaim, result: JobResult) async throws -> Bool {
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection -> Bool in
            // The row lock taken here orders this against a concurrent rescue: whichever
            // commits first wins, and the other sees a different lease token and changes nothing.
            let updated = try await connection.query(
                """
                UPDATE messages SET status = 'ready', error = NULL, lease_token = NULL,
                    lease_expires_at = NULL, duration_seconds = \(result.durationSeconds),
                    audio_bytes = \(result.audio.count), audio_sha256 = \(result.sha256),
                    completed_by = \(claim.workerID), updated_at = voicemsg_now()
                WHERE id = \(claim.messageID) AND status = 'processing'
                  AND lease_token = \(claim.leaseToken)
                RETURNING id
                """, logger: logger
            ).collect()
            guard !updated.isEmpty else { return false }
            try await connection.query(
                """
                INSERT INTO results (message_id, bytes)
                VALUES (\(claim.messageID), \(ByteBuffer(bytes: result.audio)))
                """, logger: logger)
            try await connection.query(
                "DELETE FROM originals WHERE message_id = \(claim.messageID)", logger: logger)
            return true
        }
    }

    public func fail(_ claim: JobClaim, error: String, retryAfterSeconds: Double?) async throws -> Bool {
        if let retryAfterSeconds {
            return try await changesOne(
                """
                UPDATE messages SET status = 'queued', error = \(error), lease_token = NULL,
                    lease_expires_at = NULL, available_at = voicemsg_now() + \(retryAfterSeconds),
                    updated_at = voicemsg_now()
                WHERE id = \(claim.messageID) AND status = 'processing'
                  AND lease_token = \(claim.leaseToken)
                RETURNING id
                """)
        }
        return try await changesOne(
            """
            UPDATE messages SET status = 'failed', error = \(error), lease_token = NULL,
                lease_expires_at = NULL, updated_at = voicemsg_now()
            WHERE id = \(claim.messageID) AND status = 'processing' AND lease_token = \(claim.leaseToken)
            RETURNING id
            """)
    }

    public func release(_ claim: JobClaim) async throws -> Bool {
        let released = try await changesOne(
            """
            UPDATE messages SET status = 'queued', attempts = GREATEST(attempts - 1, 0),
                lease_token = NULL, lease_expires_at = NULL, available_at = voicemsg_now(),
                updated_at = voicemsg_now()
            WHERE id = \(claim.messageID) AND status = 'processing' AND lease_token = \(claim.leaseToken)
            RETURNING id
            """)
        if released { await signalWork() }
        return released
    }

    /// Runs an UPDATE … RETURNING and tells whether it changed exactly one row.
    private func changesOne(_ query: PostgresQuery) async throws -> Bool {
        try await client.query(query, logger: logger).collect().count == 1
    }
}
