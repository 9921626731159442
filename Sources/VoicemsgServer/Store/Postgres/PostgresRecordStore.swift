import Foundation
import PostgresNIO

/// Runs and messages in the PostgreSQL database.
struct PostgresRecordStore: RecordStore {
    let database: PostgresBackend
    /// Wakes this process's long polls when a message is marked played.
    let changes: MessageChangeSignal

    private var client: PostgresClient { database.client }
    private var logger: Logger { database.logger }

    func createRun(_ run: RunRecord) async throws {
        try await client.query(
            """
            INSERT INTO runs (id, title, planned_distance_meters, runner_name, owner_token_hash,
                              invite_token_hash, created_at)
            VALUES (\(run.id), \(run.title), \(run.plannedDistanceMeters), \(run.runnerName),
                    \(run.ownerTokenHash), \(run.inviteTokenHash), \(run.createdAt))
            """, logger: logger)
    }

    func run(id: String) async throws -> RunRecord? {
        let rows = try await client.query("SELECT * FROM runs WHERE id = \(id)", logger: logger)
        for try await row in rows { return try RunRecord(row) }
        return nil
    }

    func message(id: String) async throws -> MessageRecord? {
        let rows = try await client.query(
            "SELECT \(unescaped: MessageRecord.postgresColumns) FROM messages WHERE id = \(id)", logger: logger)
        for try await row in rows { return try MessageRecord(row) }
        return nil
    }

    func messages(runID: String) async throws -> [MessageRecord] {
        let rows = try await client.query(
            """
            SELECT \(unescaped: MessageRecord.postgresColumns) FROM messages
            WHERE run_id = \(runID) ORDER BY created_at, id
            """, logger: logger)
        var records: [MessageRecord] = []
        for try await row in rows { records.append(try MessageRecord(row)) }
        return records
    }

    func markPlayed(messageID: String, atMeters: Double, runSeconds: Double) async throws -> MessageRecord? {
        // Only the first report counts; a repeat finds played_at set and changes nothing.
        let changed = try await database.changesOne(
            """
            UPDATE messages SET played_at = voicemsg_now(), played_at_meters = \(atMeters),
                played_at_run_seconds = \(runSeconds)
            WHERE id = \(messageID) AND status = 'ready' AND played_at IS NULL
            RETURNING id
            """)
        if changed { changes.notify() }
        return try await message(id: messageID)
    }

    func statusCounts() async throws -> [MessageStatus: Int] {
        let rows = try await client.query(
            "SELECT status, COUNT(*)::bigint FROM messages GROUP BY status", logger: logger)
        var counts: [MessageStatus: Int] = [:]
        for try await (status, count) in rows.decode((String, Int).self) {
            if let status = MessageStatus(rawValue: status) { counts[status] = count }
        }
        return counts
    }
}
