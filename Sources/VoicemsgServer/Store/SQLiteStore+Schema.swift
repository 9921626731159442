import GRDB

extension SQLiteStore {
    /// The same tables as `PostgresStore.schema`, in SQLite's types. Times are seconds since 1970.
    static let schema = [
        """
        CREATE TABLE IF NOT EXISTS runs (
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            planned_distance_meters REAL,
            owner_token_hash TEXT NOT NULL,
            invite_token_hash TEXT NOT NULL,
            created_at REAL NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS messages (
            id TEXT PRIMARY KEY,
            run_id TEXT NOT NULL REFERENCES runs(id),
            marker TEXT NOT NULL,
            marker_meters REAL NOT NULL,
            sender TEXT,
            idempotency_key TEXT,
            status TEXT NOT NULL,
            error TEXT,
            attempts INTEGER NOT NULL,
            max_attempts INTEGER NOT NULL,
            available_at REAL NOT NULL,
            lease_token TEXT,
            lease_expires_at REAL,
            worker_id TEXT,
            completed_by TEXT,
            duration_seconds REAL,
            audio_bytes INTEGER,
            audio_sha256 TEXT,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            UNIQUE (run_id, idempotency_key))
        """,
        "CREATE INDEX IF NOT EXISTS messages_claim ON messages (status, available_at)",
        "CREATE INDEX IF NOT EXISTS messages_run ON messages (run_id)",
        """
        CREATE TABLE IF NOT EXISTS originals (
            message_id TEXT PRIMARY KEY REFERENCES messages(id),
            bytes BLOB NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS results (
            message_id TEXT PRIMARY KEY REFERENCES messages(id),
            bytes BLOB NOT NULL)
        """,
    ]

    static func runRecord(_ row: Row) -> RunRecord {
        RunRecord(
            id: row["id"], title: row["title"], plannedDistanceMeters: row["planned_distance_meters"],
            ownerTokenHash: row["owner_token_hash"], inviteTokenHash: row["invite_token_hash"],
            createdAt: row["created_at"])
    }

    static func messageRecord(_ row: Row) throws -> MessageRecord {
        MessageRecord(
            id: row["id"], runID: row["run_id"], marker: row["marker"],
            markerMeters: row["marker_meters"], sender: row["sender"],
            status: MessageStatus(rawValue: row["status"]) ?? .failed, error: row["error"],
            attempts: row["attempts"], maxAttempts: row["max_attempts"],
            durationSeconds: row["duration_seconds"], audioBytes: row["audio_bytes"],
            audioSHA256: row["audio_sha256"], workerID: row["worker_id"], completedBy: row["completed_by"],
            createdAt: row["created_at"])
    }
}
