import Foundation
import PostgresNIO

/// Runs and messages in the PostgreSQL database.
struct PostgresRecordStore: RecordStore {
    let database: PostgresBackend
    /// Wakes this process's long polls when a message is marked played.
    let changes: MessageChangeSignal

    func createRun(_ run: RunRecord) async throws {
        _ = try await database.rows(
            """
            INSERT INTO runs (id, title, planned_distance_meters, runner_name, owner_token_hash,
                              invite_token_hash, created_at)
            VALUES (\(run.id), \(run.title), \(run.plannedDistanceMeters), \(run.runnerName),
                    \(run.ownerTokenHash), \(run.inviteTokenHash), \(run.createdAt))
            """
        ) { _ in () }
    }

    func run(id: String) async throws -> RunRecord? {
        try await database.rows(
            "SELECT \(unescaped: RunRecord.postgresColumns) FROM runs WHERE id = \(id)", RunRecord.init
        ).first
    }

    func message(id: String) async throws -> MessageRecord? {
        try await database.rows(
            "SELECT \(unescaped: MessageRecord.postgresColumns) FROM messages WHERE id = \(id)", MessageRecord.init
        ).first
    }

    func messages(runID: String) async throws -> [MessageRecord] {
        try await database.rows(
            """
            SELECT \(unescaped: MessageRecord.postgresColumns) FROM messages
            WHERE run_id = \(runID) ORDER BY created_at, id
            """, MessageRecord.init)
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
        let counts = try await database.rows("SELECT status, COUNT(*)::bigint FROM messages GROUP BY status") { row in
            let (status, count) = try row.decode((String, Int).self)
            return (try MessageStatus(stored: status), count)
        }
        return Dictionary(uniqueKeysWithValues: counts)
    }
}
