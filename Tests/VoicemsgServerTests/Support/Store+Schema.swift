import Foundation
import GRDB
import PostgresNIO
import TestSupport

@testable import VoicemsgServer

/// What the migration tests read of a store's schema, on either backend.
extension Store {
    /// Applies the first migration only, as the first release of the schema did.
    func migrateToFirstVersion() async throws {
        switch schema {
        case let sqlite as SQLiteBackend: try await sqlite.migrate(upTo: SQLiteBackend.version1)
        case let postgres as PostgresBackend: try await postgres.migrate(upTo: 1)
        default: throw TestFailure("unknown backend \(type(of: schema))")
        }
    }

    /// Creates a run as a process that knows only the first schema does: with the columns the
    /// first migration made, and no other.
    func createRunAtFirstVersion(plannedDistance: Double? = 10_000) async throws -> RunRecord {
        let run = RunRecord(
            id: SecureIdentifier.makeID(), title: "Test run", plannedDistanceMeters: plannedDistance,
            ownerTokenHash: SecureIdentifier.hash(token: SecureIdentifier.makeToken()),
            inviteTokenHash: SecureIdentifier.hash(token: SecureIdentifier.makeToken()),
            createdAt: Date().timeIntervalSince1970)
        switch schema {
        case let sqlite as SQLiteBackend:
            try await sqlite.pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO runs (id, title, planned_distance_meters, owner_token_hash, invite_token_hash, created_at)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [run.id, run.title, run.plannedDistanceMeters, run.ownerTokenHash, run.inviteTokenHash, run.createdAt])
            }
        case let postgres as PostgresBackend:
            try await postgres.client.query(
                """
                INSERT INTO runs (id, title, planned_distance_meters, owner_token_hash, invite_token_hash, created_at)
                VALUES (\(run.id), \(run.title), \(run.plannedDistanceMeters), \(run.ownerTokenHash),
                        \(run.inviteTokenHash), \(run.createdAt))
                """, logger: testLogger)
        default: throw TestFailure("unknown backend \(type(of: schema))")
        }
        return run
    }

    /// Enqueues a message as a process that knows only the first schema does: the message and
    /// its upload in one transaction, with the columns the first migration made and no other.
    /// `marker` is the canonical text (`<meters>m` by default). Returns the message's id.
    func enqueueAtFirstVersion(
        runID: String, meters: Double = 1000, marker: String? = nil, bytes: Data = Data("recording".utf8)
    ) async throws -> String {
        let id = SecureIdentifier.makeID()
        let marker = marker ?? "\(Int(meters))m"
        switch schema {
        case let sqlite as SQLiteBackend:
            try await sqlite.pool.write { db in
                let now = Date().timeIntervalSince1970
                try db.execute(
                    sql: """
                        INSERT INTO messages (id, run_id, marker, marker_meters, sender, idempotency_key,
                            status, attempts, max_attempts, available_at, created_at, updated_at)
                        VALUES (?, ?, ?, ?, 'tester', NULL, 'queued', 0, 3, ?, ?, ?)
                        """,
                    arguments: [id, runID, marker, meters, now, now, now])
                try db.execute(sql: "INSERT INTO originals (message_id, bytes) VALUES (?, ?)", arguments: [id, bytes])
            }
        case let postgres as PostgresBackend:
            try await postgres.client.withTransaction(logger: testLogger) { connection in
                try await connection.query(
                    """
                    INSERT INTO messages (id, run_id, marker, marker_meters, sender, idempotency_key,
                        status, attempts, max_attempts, available_at, created_at, updated_at)
                    VALUES (\(id), \(runID), \(marker), \(meters), 'tester', NULL, 'queued', 0, 3,
                        voicemsg_now(), voicemsg_now(), voicemsg_now())
                    """, logger: testLogger)
                try await connection.query(
                    "INSERT INTO originals (message_id, bytes) VALUES (\(id), \(ByteBuffer(bytes: bytes)))",
                    logger: testLogger)
            }
        default: throw TestFailure("unknown backend \(type(of: schema))")
        }
        return id
    }

    /// Claims the oldest queued message as a process that knows only the first schema does:
    /// its lease in the columns the first migration made, read back from those alone.
    func claimAtFirstVersion(workerID: String, leaseSeconds: Double) async throws -> JobClaim? {
        let token = SecureIdentifier.makeToken()
        let next = "SELECT id FROM messages WHERE status = 'queued' ORDER BY available_at, id LIMIT 1"
        var claimed: (id: String, runID: String, marker: String, attempts: Int, maxAttempts: Int)?
        switch schema {
        case let sqlite as SQLiteBackend:
            claimed = try await sqlite.pool.write { db in
                let now = Date().timeIntervalSince1970
                return try Row.fetchOne(
                    db,
                    sql: """
                        UPDATE messages SET status = 'processing', attempts = attempts + 1, lease_token = ?,
                            lease_expires_at = ?, worker_id = ?, updated_at = ?
                        WHERE id = (\(next)) RETURNING id, run_id, marker, attempts, max_attempts
                        """,
                    arguments: [token, now + leaseSeconds, workerID, now]
                ).map { row -> (String, String, String, Int, Int) in
                    (row["id"], row["run_id"], row["marker"], row["attempts"], row["max_attempts"])
                }
            }
        case let postgres as PostgresBackend:
            let rows = try await postgres.client.query(
                """
                UPDATE messages SET status = 'processing', attempts = attempts + 1, lease_token = \(token),
                    lease_expires_at = voicemsg_now() + \(leaseSeconds), worker_id = \(workerID),
                    updated_at = voicemsg_now()
                WHERE id = (\(unescaped: next)) RETURNING id, run_id, marker, attempts, max_attempts
                """, logger: testLogger)
            for try await row in rows.decode((String, String, String, Int, Int).self) { claimed = row }
        default: throw TestFailure("unknown backend \(type(of: schema))")
        }
        guard let claimed else { return nil }
        return JobClaim(
            messageID: claimed.id, runID: claimed.runID, runTitle: "",
            marker: StoredMarker(canonical: claimed.marker, kind: nil, value: nil), sender: nil,
            attempt: claimed.attempts, maxAttempts: claimed.maxAttempts, leaseToken: token, workerID: workerID,
            original: Data())
    }

    /// Drops the record of applied migrations, leaving the tables: a database as the server made
    /// it before migrations were recorded.
    func forgetMigrations() async throws {
        switch schema {
        case let sqlite as SQLiteBackend:
            try await sqlite.pool.write { db in try db.execute(sql: "DROP TABLE grdb_migrations") }
        case let postgres as PostgresBackend:
            try await postgres.client.query("DROP TABLE schema_migrations", logger: testLogger)
        default: throw TestFailure("unknown backend \(type(of: schema))")
        }
    }

    /// The migrations the database records as applied, oldest first.
    func appliedMigrations() async throws -> [String] {
        switch schema {
        case let sqlite as SQLiteBackend:
            return try await sqlite.pool.read { db in try SQLiteBackend.migrator.appliedMigrations(db) }
        case let postgres as PostgresBackend:
            let rows = try await postgres.client.query(
                "SELECT version FROM schema_migrations ORDER BY version", logger: testLogger)
            var versions: [String] = []
            for try await version in rows.decode(Int.self) { versions.append("\(version)") }
            return versions
        default: throw TestFailure("unknown backend \(type(of: schema))")
        }
    }

    /// Every migration the code knows, as `appliedMigrations()` names them.
    var knownMigrations: [String] {
        switch schema {
        case is SQLiteBackend: SQLiteBackend.migrator.migrations
        case is PostgresBackend: PostgresBackend.migrations.map { "\($0.version)" }
        default: []
        }
    }

    /// The names of the indexes on `messages`.
    func messageIndexes() async throws -> Set<String> {
        switch schema {
        case let sqlite as SQLiteBackend:
            return try await sqlite.pool.read { db in
                Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages'"))
            }
        case let postgres as PostgresBackend:
            let rows = try await postgres.client.query(
                "SELECT indexname FROM pg_indexes WHERE tablename = 'messages'", logger: testLogger)
            var names = Set<String>()
            for try await name in rows.decode(String.self) { names.insert(name) }
            return names
        default: throw TestFailure("unknown backend \(type(of: schema))")
        }
    }
}
