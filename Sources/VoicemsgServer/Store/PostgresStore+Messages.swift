import Foundation
import PostgresNIO

extension PostgresStore {
    public func createRun(_ run: RunRecord) async throws {
        try await client.query(
            """
            INSERT INTO runs (id, title, planned_distance_meters, owner_token_hash, invite_token_hash,
                              created_at)
            VALUES (\(run.id), \(run.title), \(run.plannedDistanceMeters), \(run.ownerTokenHash),
                    \(run.inviteTokenHash), \(run.createdAt))
            """, logger: logger)
    }

    public func run(id: String) async throws -> RunRecord? {
        let rows = try await client.query("SELECT * FROM runs WHERE id = \(id)", logger: logger)
        for try await row in rows { return try Self.runRecord(row) }
        return nil
    }

    public func enqueue(_ message: NewMessage, original: Data) async throws -> MessageRecord {
        let logger = self.logger
        let columns = Self.messageColumns
        let record = try await client.withTransaction(logger: logger) { connection -> MessageRecord in
            // ON CONFLICT keeps two concurrent retries with one key from both inserting.
            let inserted = try await connection.query(
                """
                INSERT INTO messages (id, run_id, marker, marker_meters, sender, idempotency_key,
                    status, attempts, max_attempts, available_at, created_at, updated_at)
                VALUES (\(message.id), \(message.runID), \(message.marker), \(message.markerMeters),
                    \(message.sender), \(message.idempotencyKey), 'queued', 0, \(message.maxAttempts),
                    voicemsg_now(), voicemsg_now(), voicemsg_now())
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
                try await connection.query("SELECT pg_notify(\(PostgresStore.channel), '')", logger: logger)
            }
            let row = try await connection.query(
                "SELECT \(unescaped: columns) FROM messages WHERE id = \(id)", logger: logger
            ).collect().first!
            return try PostgresStore.messageRecord(row)
        }
        signal.signal()
        return record
    }

    public func message(id: String) async throws -> MessageRecord? {
        let rows = try await client.query(
            "SELECT \(unescaped: Self.messageColumns) FROM messages WHERE id = \(id)", logger: logger)
        for try await row in rows { return try Self.messageRecord(row) }
        return nil
    }

    public func messages(runID: String) async throws -> [MessageRecord] {
        let rows = try await client.query(
            """
            SELECT \(unescaped: Self.messageColumns) FROM messages
            WHERE run_id = \(runID) ORDER BY created_at, id
            """, logger: logger)
        var records: [MessageRecord] = []
        for try await row in rows { records.append(try Self.messageRecord(row)) }
        return records
    }

    public func audio(messageID: String) async throws -> Data? {
        let rows = try await client.query(
            "SELECT bytes FROM results WHERE message_id = \(messageID)", logger: logger)
        for try await (bytes) in rows.decode(Data.self) { return bytes }
        return nil
    }

    public func hasOriginal(messageID: String) async throws -> Bool {
        let rows = try await client.query(
            "SELECT 1 FROM originals WHERE message_id = \(messageID)", logger: logger)
        for try await _ in rows { return true }
        return false
    }

    public func statusCounts() async throws -> [MessageStatus: Int] {
        let rows = try await client.query(
            "SELECT status, COUNT(*)::bigint FROM messages GROUP BY status", logger: logger)
        var counts: [MessageStatus: Int] = [:]
        for try await (status, count) in rows.decode((String, Int).self) {
            if let status = MessageStatus(rawValue: status) { counts[status] = count }
        }
        return counts
    }
}
