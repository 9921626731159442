import PostgresNIO

// Rows decode by column name from explicit SELECT lists, strictly: a NULL where a value must be
// or a value of another type is a `PostgresDecodingError`, and a status this version does not
// know a `StoreError`, never a default. The columns are the migrations' (see `Store`).

extension MessageRecord {
    /// The columns `init(_:)` reads, for SELECT lists.
    static let postgresColumns = """
        id, run_id, marker, marker_meters, sender, status, error, attempts, max_attempts,
        duration_seconds, audio_bytes, audio_sha256, worker_id, completed_by, created_at,
        sender_token_hash, played_at, played_at_meters, played_at_run_seconds, request_fingerprint
        """

    init(_ row: PostgresRow) throws {
        let row = row.makeRandomAccess()
        self.init(
            id: try row["id"].decode(String.self),
            runID: try row["run_id"].decode(String.self),
            marker: try row["marker"].decode(String.self),
            markerMeters: try row["marker_meters"].decode(Double.self),
            sender: try row["sender"].decode(String?.self),
            status: try MessageStatus(stored: row["status"].decode(String.self)),
            error: try row["error"].decode(String?.self),
            attempts: try row["attempts"].decode(Int.self),
            maxAttempts: try row["max_attempts"].decode(Int.self),
            durationSeconds: try row["duration_seconds"].decode(Double?.self),
            audioBytes: try row["audio_bytes"].decode(Int?.self),
            audioSHA256: try row["audio_sha256"].decode(String?.self),
            workerID: try row["worker_id"].decode(String?.self),
            completedBy: try row["completed_by"].decode(String?.self),
            createdAt: try row["created_at"].decode(Double.self),
            senderTokenHash: try row["sender_token_hash"].decode(String?.self),
            playedAt: try row["played_at"].decode(Double?.self),
            playedAtMeters: try row["played_at_meters"].decode(Double?.self),
            playedAtRunSeconds: try row["played_at_run_seconds"].decode(Double?.self),
            requestFingerprint: try row["request_fingerprint"].decode(String?.self))
    }
}

extension RunRecord {
    /// The columns `init(_:)` reads, for SELECT lists.
    static let postgresColumns = """
        id, title, planned_distance_meters, runner_name, owner_token_hash, invite_token_hash, created_at
        """

    init(_ row: PostgresRow) throws {
        let row = row.makeRandomAccess()
        self.init(
            id: try row["id"].decode(String.self),
            title: try row["title"].decode(String.self),
            plannedDistanceMeters: try row["planned_distance_meters"].decode(Double?.self),
            runnerName: try row["runner_name"].decode(String?.self),
            ownerTokenHash: try row["owner_token_hash"].decode(String.self),
            inviteTokenHash: try row["invite_token_hash"].decode(String.self),
            createdAt: try row["created_at"].decode(Double.self))
    }
}
