import Foundation
import GRDB

/// The default store: one SQLite database in a data folder, for one machine with no setup.
///
/// The database runs in WAL mode (readers never block the writer) with a busy timeout, and every
/// change to the queue is one `BEGIN IMMEDIATE` transaction, so two writers, even in two
/// processes sharing the folder, never interleave inside a claim.
public final class SQLiteStore: Store {
    let pool: DatabasePool
    let signal = WorkSignal()
    public let location: String

    /// Opens (creating when needed) `voicemsg.sqlite` in `dataDirectory`.
    public init(dataDirectory: String, busyTimeoutSeconds: Double = 10) throws {
        try FileManager.default.createDirectory(
            atPath: dataDirectory, withIntermediateDirectories: true)
        let path = URL(fileURLWithPath: dataDirectory).appendingPathComponent("voicemsg.sqlite").path
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeoutSeconds)
        configuration.label = "voicemsg"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        location = "SQLite \(path)"
    }

    static func now() -> Double { Date().timeIntervalSince1970 }

    /// Runs `body` in one IMMEDIATE transaction: the write lock is taken at BEGIN, so the reads
    /// inside see exactly what the writes act on.
    func immediate<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await pool.writeWithoutTransaction { db in
            var result: T?
            try db.inTransaction(.immediate) {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }

    public func migrate() async throws {
        try await immediate { db in
            for statement in SQLiteStore.schema { try db.execute(sql: statement) }
        }
    }

    public func createRun(_ run: RunRecord) async throws {
        try await immediate { db in
            try db.execute(
                sql: """
                    INSERT INTO runs (id, title, planned_distance_meters, owner_token_hash,
                                      invite_token_hash, created_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    run.id, run.title, run.plannedDistanceMeters, run.ownerTokenHash,
                    run.inviteTokenHash, run.createdAt,
                ])
        }
    }

    public func run(id: String) async throws -> RunRecord? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM runs WHERE id = ?", arguments: [id])
                .map(SQLiteStore.runRecord)
        }
    }

    public func enqueue(_ message: NewMessage, original: Data) async throws -> MessageRecord {
        let record = try await immediate { db -> MessageRecord in
            if let key = message.idempotencyKey,
                let existing = try Row.fetchOne(
                    db, sql: "SELECT * FROM messages WHERE run_id = ? AND idempotency_key = ?",
                    arguments: [message.runID, key])
            {
                return try SQLiteStore.messageRecord(existing)
            }
            let now = SQLiteStore.now()
            try db.execute(
                sql: """
                    INSERT INTO messages (id, run_id, marker, marker_meters, sender, idempotency_key,
                        status, attempts, max_attempts, available_at, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?, ?)
                    """,
                arguments: [
                    message.id, message.runID, message.marker, message.markerMeters, message.sender,
                    message.idempotencyKey, message.maxAttempts, now, now, now,
                ])
            try db.execute(
                sql: "INSERT INTO originals (message_id, bytes) VALUES (?, ?)",
                arguments: [message.id, original])
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM messages WHERE id = ?", arguments: [message.id])!
            return try SQLiteStore.messageRecord(row)
        }
        signal.signal()
        return record
    }

    public func message(id: String) async throws -> MessageRecord? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM messages WHERE id = ?", arguments: [id])
                .map(SQLiteStore.messageRecord)
        }
    }

    public func messages(runID: String) async throws -> [MessageRecord] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM messages WHERE run_id = ? ORDER BY created_at, id",
                arguments: [runID]
            ).map(SQLiteStore.messageRecord)
        }
    }

    public func audio(messageID: String) async throws -> Data? {
        try await pool.read { db in
            try Data.fetchOne(
                db, sql: "SELECT bytes FROM results WHERE message_id = ?", arguments: [messageID])
        }
    }

    public func hasOriginal(messageID: String) async throws -> Bool {
        try await pool.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM originals WHERE message_id = ?",
                arguments: [messageID]) ?? 0 > 0
        }
    }

    public func statusCounts() async throws -> [MessageStatus: Int] {
        try await pool.read { db in
            var counts: [MessageStatus: Int] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT status, COUNT(*) AS n FROM messages GROUP BY status")
            {
                if let status = MessageStatus(rawValue: row["status"]) { counts[status] = row["n"] }
            }
            return counts
        }
    }

    public func waitForWork(timeoutSeconds: Double) async {
        await signal.wait(timeoutSeconds: timeoutSeconds)
    }

    public func signalWork() async { signal.signal() }
}
