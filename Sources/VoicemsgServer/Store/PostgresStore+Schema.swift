import PostgresNIO

extension PostgresStore {
    /// The same tables as `SQLiteStore.schema`, in PostgreSQL's types. Times are seconds since
    /// 1970 from the database's clock (`voicemsg_now()`), so every machine agrees on leases.
    static let schema = [
        """
        CREATE OR REPLACE FUNCTION voicemsg_now() RETURNS double precision
        LANGUAGE sql VOLATILE AS $$ SELECT extract(epoch FROM clock_timestamp())::double precision $$
        """,
        """
        CREATE TABLE IF NOT EXISTS runs (
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            planned_distance_meters DOUBLE PRECISION,
            owner_token_hash TEXT NOT NULL,
            invite_token_hash TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS messages (
            id TEXT PRIMARY KEY,
            run_id TEXT NOT NULL REFERENCES runs(id),
            marker TEXT NOT NULL,
            marker_meters DOUBLE PRECISION NOT NULL,
            sender TEXT,
            idempotency_key TEXT,
            status TEXT NOT NULL,
            error TEXT,
            attempts INTEGER NOT NULL,
            max_attempts INTEGER NOT NULL,
            available_at DOUBLE PRECISION NOT NULL,
            lease_token TEXT,
            lease_expires_at DOUBLE PRECISION,
            worker_id TEXT,
            completed_by TEXT,
            duration_seconds DOUBLE PRECISION,
            audio_bytes BIGINT,
            audio_sha256 TEXT,
            created_at DOUBLE PRECISION NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL,
            UNIQUE (run_id, idempotency_key))
        """,
        "CREATE INDEX IF NOT EXISTS messages_claim ON messages (status, available_at)",
        // The claim's two scans: the oldest queued job, and the earliest expired lease.
        "CREATE INDEX IF NOT EXISTS messages_queued ON messages (available_at, id) WHERE status = 'queued'",
        "CREATE INDEX IF NOT EXISTS messages_leased ON messages (lease_expires_at) WHERE status = 'processing'",
        "CREATE INDEX IF NOT EXISTS messages_run ON messages (run_id)",
        """
        CREATE TABLE IF NOT EXISTS originals (
            message_id TEXT PRIMARY KEY REFERENCES messages(id),
            bytes BYTEA NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS results (
            message_id TEXT PRIMARY KEY REFERENCES messages(id),
            bytes BYTEA NOT NULL)
        """,
    ]

    static let messageColumns = """
        id, run_id, marker, marker_meters, sender, status, error, attempts, max_attempts,
        duration_seconds, audio_bytes, audio_sha256, worker_id, completed_by, created_at
        """

    static func messageRecord(_ row: PostgresRow) throws -> MessageRecord {
        let row = row.makeRandomAccess()
        return MessageRecord(
            id: try row["id"].decode(String.self),
            runID: try row["run_id"].decode(String.self),
            marker: try row["marker"].decode(String.self),
            markerMeters: try row["marker_meters"].decode(Double.self),
            sender: try row["sender"].decode(String?.self),
            status: MessageStatus(rawValue: try row["status"].decode(String.self)) ?? .failed,
            error: try row["error"].decode(String?.self),
            attempts: try row["attempts"].decode(Int.self),
            maxAttempts: try row["max_attempts"].decode(Int.self),
            durationSeconds: try row["duration_seconds"].decode(Double?.self),
            audioBytes: try row["audio_bytes"].decode(Int?.self),
            audioSHA256: try row["audio_sha256"].decode(String?.self),
            workerID: try row["worker_id"].decode(String?.self),
            completedBy: try row["completed_by"].decode(String?.self),
            createdAt: try row["created_at"].decode(Double.self))
    }

    static func runRecord(_ row: PostgresRow) throws -> RunRecord {
        let row = row.makeRandomAccess()
        return RunRecord(
            id: try row["id"].decode(String.self),
            title: try row["title"].decode(String.self),
            plannedDistanceMeters: try row["planned_distance_meters"].decode(Double?.self),
            ownerTokenHash: try row["owner_token_hash"].decode(String.self),
            inviteTokenHash: try row["invite_token_hash"].decode(String.self),
            createdAt: try row["created_at"].decode(Double.self))
    }
}
