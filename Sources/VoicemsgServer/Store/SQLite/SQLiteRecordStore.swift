import Foundation
import GRDB

/// Runs and messages in the SQLite database.
struct SQLiteRecordStore: RecordStore {
    let database: SQLiteBackend
    /// Wakes this process's long polls when a message is marked played.
    let changes: MessageChangeSignal

    func createRun(_ run: RunRecord) async throws {
        try await database.immediate { db in
            try db.execute(
                sql: """
                    INSERT INTO runs (id, title, planned_distance_meters, runner_name, owner_token_hash,
                                      invite_token_hash, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    run.id, run.title, run.plannedDistanceMeters, run.runnerName, run.ownerTokenHash,
                    run.inviteTokenHash, run.createdAt,
                ])
        }
    }

    func run(id: String) async throws -> RunRecord? {
        try await database.read { db in
            try RunRecord.fetchOne(db, sql: "SELECT * FROM runs WHERE id = ?", arguments: [id])
        }
    }

    func message(id: String) async throws -> MessageRecord? {
        try await database.read { db in
            try MessageRecord.fetchOne(db, sql: "SELECT * FROM messages WHERE id = ?", arguments: [id])
        }
    }

    func messages(runID: String) async throws -> [MessageRecord] {
        try await database.read { db in
            try MessageRecord.fetchAll(
                db, sql: "SELECT * FROM messages WHERE run_id = ? ORDER BY created_at, id", arguments: [runID])
        }
    }

    func markPlayed(messageID: String, atMeters: Double, runSeconds: Double) async throws -> MessageRecord? {
        let (record, changed) = try await database.immediate { db -> (MessageRecord?, Bool) in
            // Only the first report counts; a repeat finds played_at set and changes nothing.
            try db.execute(
                sql: """
                    UPDATE messages SET played_at = ?, played_at_meters = ?, played_at_run_seconds = ?
                    WHERE id = ? AND status = 'ready' AND played_at IS NULL
                    """, arguments: [SQLiteBackend.now(), atMeters, runSeconds, messageID])
            let changed = db.changesCount == 1
            let record = try MessageRecord.fetchOne(db, sql: "SELECT * FROM messages WHERE id = ?", arguments: [messageID])
            return (record, changed)
        }
        if changed { changes.notify() }
        return record
    }

    func course(runID: String) async throws -> StoredCourse? {
        try await database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT length_meters, point_count, points FROM courses WHERE run_id = ?", arguments: [runID]
            ).map { row in
                StoredCourse(lengthMeters: row["length_meters"], pointCount: row["point_count"], pointsJSON: row["points"])
            }
        }
    }

    func setCourse(_ course: StoredCourse?, runID: String) async throws -> CourseChange {
        try await database.immediate { db -> CourseChange in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM runs WHERE id = ?)", arguments: [runID]) == true else {
                return .noSuchRun
            }
            let started = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM messages WHERE run_id = ? AND played_at IS NOT NULL)",
                arguments: [runID])
            guard started != true else { return .runStarted }
            try db.execute(sql: "DELETE FROM courses WHERE run_id = ?", arguments: [runID])
            if let course {
                try db.execute(
                    sql: "INSERT INTO courses (run_id, length_meters, point_count, points, updated_at) VALUES (?, ?, ?, ?, ?)",
                    arguments: [runID, course.lengthMeters, course.pointCount, course.pointsJSON, SQLiteBackend.now()])
            }
            return .done
        }
    }

    func statusCounts() async throws -> [MessageStatus: Int] {
        try await database.read { db in
            var counts: [MessageStatus: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT status, COUNT(*) AS n FROM messages GROUP BY status") {
                counts[try MessageStatus(stored: row.decode(forColumn: "status"))] = try row.decode(forColumn: "n")
            }
            return counts
        }
    }
}
