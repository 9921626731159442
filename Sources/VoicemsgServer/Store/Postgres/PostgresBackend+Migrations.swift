import PostgresNIO

/// One schema change on PostgreSQL, recorded by its number in `schema_migrations` once applied.
struct PostgresMigration: Sendable {
    var version: Int
    var name: String
    var statements: [String]
}

extension PostgresBackend: SchemaMigrations {
    /// The schema's history, oldest first. Add a migration for every change; never edit one that
    /// has shipped. The tables are the same as on SQLite, in PostgreSQL's types. Times are
    /// seconds since 1970 from the database's clock (`voicemsg_now()`), so every machine agrees on
    /// leases.
    static let migrations = [
        // `IF NOT EXISTS` adopts a database created before migrations were recorded.
        PostgresMigration(
            version: 1, name: "runs, messages, originals and results",
            statements: [
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
            ]),
        // The claim's two scans: the oldest queued job, and the earliest expired lease. Each
        // stops at the first unlocked row instead of sorting every waiting job.
        PostgresMigration(
            version: 2, name: "partial indexes for the claim's two scans",
            statements: [
                "CREATE INDEX IF NOT EXISTS messages_queued ON messages (available_at, id) WHERE status = 'queued'",
                "CREATE INDEX IF NOT EXISTS messages_leased ON messages (lease_expires_at) WHERE status = 'processing'",
            ]),
        // Per-message sender tokens (their hashes) and the played state.
        PostgresMigration(
            version: 3, name: "sender tokens and played state",
            statements: [
                """
                ALTER TABLE messages
                    ADD COLUMN IF NOT EXISTS sender_token_hash TEXT,
                    ADD COLUMN IF NOT EXISTS played_at DOUBLE PRECISION,
                    ADD COLUMN IF NOT EXISTS played_at_meters DOUBLE PRECISION,
                    ADD COLUMN IF NOT EXISTS played_at_run_seconds DOUBLE PRECISION
                """
            ]),
        // The fingerprint an Idempotency-Key is bound to (the body's SHA-256 and the parameters).
        PostgresMigration(
            version: 4, name: "idempotency fingerprints",
            statements: ["ALTER TABLE messages ADD COLUMN IF NOT EXISTS request_fingerprint TEXT"]),
        // The runner's name, given when the run is planned.
        PostgresMigration(
            version: 5, name: "runner names",
            statements: ["ALTER TABLE runs ADD COLUMN IF NOT EXISTS runner_name TEXT"]),
        // The marker as the upload parsed it, beside its canonical text (`StoredMarker`), so
        // that a worker never parses the text again; the rows already stored get it from their
        // text.
        PostgresMigration(
            version: 6, name: "markers as parsed",
            statements: [
                """
                ALTER TABLE messages
                    ADD COLUMN IF NOT EXISTS marker_kind TEXT,
                    ADD COLUMN IF NOT EXISTS marker_value DOUBLE PRECISION
                """,
                StoredMarker.fillFromCanonicalText,
            ]),
        // The AAC version of each message beside its Ogg Opus, with its SHA-256 (its ETag);
        // NULL for messages made before it, which get theirs the first time it is asked for.
        PostgresMigration(
            version: 7, name: "AAC versions",
            statements: [
                "ALTER TABLE results ADD COLUMN IF NOT EXISTS aac_bytes BYTEA, ADD COLUMN IF NOT EXISTS aac_sha256 TEXT"
            ]),
        // A run's course, simplified, with its length (`StoredCourse`): a table of its own, so
        // that the many reads of a run's row never carry its places.
        PostgresMigration(
            version: 8, name: "courses",
            statements: [
                """
                CREATE TABLE IF NOT EXISTS courses (
                    run_id TEXT PRIMARY KEY REFERENCES runs(id),
                    length_meters DOUBLE PRECISION NOT NULL,
                    point_count BIGINT NOT NULL,
                    points TEXT NOT NULL,
                    updated_at DOUBLE PRECISION NOT NULL)
                """
            ]),
    ]

    /// Any fixed number serves as the lock's key, as long as nothing else in the database uses it.
    static let migrationLock = 7_305_118

    func migrate() async throws {
        try await migrate(upTo: nil)
    }

    /// Applies the migrations the database has not recorded, up to version `target` (all when
    /// nil; tests use it to make an older database), in one transaction.
    ///
    /// Many processes may start at once: the transaction first takes an advisory lock, so one
    /// migrates while the others wait, and they then find nothing left to do. A migration that
    /// fails leaves the database as it was.
    func migrate(upTo target: Int?) async throws {
        let logger = self.logger
        do {
            try await connectOnce()
            try await transaction { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: logger)
                try await connection.query(
                    """
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        version INTEGER PRIMARY KEY,
                        name TEXT NOT NULL,
                        applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
                    """, logger: logger)
                var applied = Set<Int>()
                let rows = try await connection.query("SELECT version FROM schema_migrations", logger: logger)
                for try await version in rows.decode(Int.self) { applied.insert(version) }
                for migration in Self.migrations
                where !applied.contains(migration.version) && migration.version <= (target ?? .max) {
                    for statement in migration.statements {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.query(
                        "INSERT INTO schema_migrations (version, name) VALUES (\(migration.version), \(migration.name))",
                        logger: logger)
                    logger.info("database migrated to version \(migration.version): \(migration.name)")
                }
            }
        } catch {
            throw StoreError.context("cannot use the database at \(redactedURL)", error)
        }
    }

    /// Connects once, outside the pool, and hangs up. The pool keeps its failed connection
    /// attempts to itself: it retries with a backoff while queries wait, and fails them only
    /// after a minute, without the reason. This call's own error says at once why a process
    /// that starts cannot reach PostgreSQL: refused credentials or no such database fail the
    /// start; an unreachable server is logged as the outage, and the migration then waits for
    /// the pool like any other call.
    private func connectOnce() async throws {
        do {
            let connection = try await PostgresConnection.connect(
                configuration: url.connectionConfiguration(), id: 0, logger: logger)
            try await connection.close()
        } catch {
            let error = Self.storeError(error)
            guard let failure = error as? StoreError, failure.code == .unreachable else { throw error }
            outage.failed(failure)
        }
    }
}
