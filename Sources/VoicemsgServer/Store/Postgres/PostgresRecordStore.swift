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

    func course(runID: String) async throws -> StoredCourse? {
        try await database.rows(
            "SELECT length_meters, point_count, points FROM courses WHERE run_id = \(runID)"
        ) { row in
            let (length, count, points) = try row.decode((Double, Int, String).self)
            return StoredCourse(lengthMeters: length, pointCount: count, pointsJSON: points)
        }.first
    }

    func setCourse(_ course: StoredCourse?, runID: String) async throws -> CourseChange {
        let logger = database.logger
        return try await database.transaction { connection -> CourseChange in
            // The run's row locked, so that two changes of one course take turns.
            let runs = try await connection.query("SELECT id FROM runs WHERE id = \(runID) FOR UPDATE", logger: logger)
            guard try await runs.collect().count == 1 else { return .noSuchRun }
            let played = try await connection.query(
                "SELECT 1 FROM messages WHERE run_id = \(runID) AND played_at IS NOT NULL LIMIT 1", logger: logger)
            guard try await played.collect().isEmpty else { return .runStarted }
            try await connection.query("DELETE FROM courses WHERE run_id = \(runID)", logger: logger)
            if let course {
                try await connection.query(
                    """
                    INSERT INTO courses (run_id, length_meters, point_count, points, updated_at)
                    VALUES (\(runID), \(course.lengthMeters), \(course.pointCount), \(course.pointsJSON), voicemsg_now())
                    """, logger: logger)
            }
            return .done
        }
    }

    func statusCounts() async throws -> [MessageStatus: Int] {
        let counts = try await database.rows("SELECT status, COUNT(*)::bigint FROM messages GROUP BY status") { row in
            let (status, count) = try row.decode((String, Int).self)
            return (try MessageStatus(stored: status), count)
        }
        return Dictionary(uniqueKeysWithValues: counts)
    }
}
