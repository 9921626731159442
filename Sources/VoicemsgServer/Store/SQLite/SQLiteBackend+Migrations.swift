import GRDB

extension SQLiteBackend: SchemaMigrations {
    /// The schema's history, oldest first; GRDB records each applied migration in
    /// `grdb_migrations` and applies only the ones a database has not seen. Add a migration for
    /// every change; never edit one that has shipped. The tables are the same as on PostgreSQL,
    /// in SQLite's types; times are seconds since 1970.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        // `IF NOT EXISTS` adopts a data folder created before migrations were recorded.
        migrator.registerMigration(version1) { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS runs (
                        id TEXT PRIMARY KEY,
                        title TEXT NOT NULL,
                        planned_distance_meters REAL,
                        owner_token_hash TEXT NOT NULL,
                        invite_token_hash TEXT NOT NULL,
                        created_at REAL NOT NULL)
                    """)
            try db.execute(
                sql: """
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
                    """)
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS messages_claim ON messages (status, available_at)")
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS messages_run ON messages (run_id)")
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS originals (
                        message_id TEXT PRIMARY KEY REFERENCES messages(id),
                        bytes BLOB NOT NULL)
                    """)
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS results (
                        message_id TEXT PRIMARY KEY REFERENCES messages(id),
                        bytes BLOB NOT NULL)
                    """)
        }
        // The claim's sweep of expired leases reads only held jobs, as on PostgreSQL, instead of
        // every job in `processing` through `messages_claim`.
        migrator.registerMigration(version2) { db in
            try db.execute(
                sql: """
                    CREATE INDEX IF NOT EXISTS messages_leased ON messages (lease_expires_at)
                    WHERE status = 'processing'
                    """)
        }
        // Per-message sender tokens (their hashes) and the played state. SQLite's ADD COLUMN
        // has no IF NOT EXISTS, so columns a database already has are skipped by name.
        migrator.registerMigration(version3) { db in
            let existing = Set(try db.columns(in: "messages").map(\.name))
            for (column, type) in [
                ("sender_token_hash", "TEXT"), ("played_at", "REAL"), ("played_at_meters", "REAL"),
                ("played_at_run_seconds", "REAL"),
            ] where !existing.contains(column) {
                try db.execute(sql: "ALTER TABLE messages ADD COLUMN \(column) \(type)")
            }
        }
        // The fingerprint an Idempotency-Key is bound to (the body's SHA-256 and the parameters).
        migrator.registerMigration(version4) { db in
            let existing = Set(try db.columns(in: "messages").map(\.name))
            if !existing.contains("request_fingerprint") {
                try db.execute(sql: "ALTER TABLE messages ADD COLUMN request_fingerprint TEXT")
            }
        }
        // The runner's name, given when the run is planned.
        migrator.registerMigration(version5) { db in
            if !(try db.columns(in: "runs").map(\.name)).contains("runner_name") {
                try db.execute(sql: "ALTER TABLE runs ADD COLUMN runner_name TEXT")
            }
        }
        // The marker as the upload parsed it, beside its canonical text (`StoredMarker`), so
        // that a worker never parses the text again; the rows already stored get it from their
        // text.
        migrator.registerMigration(version6) { db in
            let existing = Set(try db.columns(in: "messages").map(\.name))
            for (column, type) in [("marker_kind", "TEXT"), ("marker_value", "REAL")] where !existing.contains(column) {
                try db.execute(sql: "ALTER TABLE messages ADD COLUMN \(column) \(type)")
            }
            try db.execute(sql: StoredMarker.fillFromCanonicalText)
        }
        // The AAC version of each message beside its Ogg Opus, with its SHA-256 (its ETag);
        // NULL for messages made before it, which get theirs the first time it is asked for.
        migrator.registerMigration(version7) { db in
            let existing = Set(try db.columns(in: "results").map(\.name))
            for (column, type) in [("aac_bytes", "BLOB"), ("aac_sha256", "TEXT")] where !existing.contains(column) {
                try db.execute(sql: "ALTER TABLE results ADD COLUMN \(column) \(type)")
            }
        }
        // A run's course, simplified, with its length (`StoredCourse`): a table of its own, so
        // that the many reads of a run's row never carry its places.
        migrator.registerMigration(version8) { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS courses (
                        run_id TEXT PRIMARY KEY REFERENCES runs(id),
                        length_meters REAL NOT NULL,
                        point_count INTEGER NOT NULL,
                        points TEXT NOT NULL,
                        updated_at REAL NOT NULL)
                    """)
        }
        return migrator
    }()

    static let version1 = "1 runs, messages, originals and results"
    static let version2 = "2 index held jobs by lease expiry"
    static let version3 = "3 sender tokens and played state"
    static let version4 = "4 idempotency fingerprints"
    static let version5 = "5 runner names"
    static let version6 = "6 markers as parsed"
    static let version7 = "7 AAC versions"
    static let version8 = "8 courses"

    /// Applies the migrations this database has not seen.
    ///
    /// Each migration is its own IMMEDIATE transaction. A second process migrating the same
    /// fresh folder at the same moment can lose the race for one of them (its insert into
    /// `grdb_migrations` collides); it then tries again and finds that migration applied. This
    /// runs once at startup, so GRDB's blocking call is acceptable here.
    func migrate() async throws {
        try await migrate(upTo: nil)
    }

    /// Applies migrations up to `target` (all when nil): tests use it to make an older database.
    func migrate(upTo target: String?) async throws {
        let migrator = Self.migrator
        var attempt = 1
        while true {
            do {
                if let target {
                    try migrator.migrate(pool, upTo: target)
                } else {
                    try migrator.migrate(pool)
                }
                return
            } catch let error as DatabaseError where attempt <= 5 && error.resultCode == .SQLITE_CONSTRAINT {
                attempt += 1
            } catch {
                throw StoreError.context("cannot use the database at \(path)", Self.storeError(error))
            }
        }
    }
}
