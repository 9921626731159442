import PostgresNIO

extension MessageRecord {
    /// The columns `init(_:)` reads, for SELECT lists.
    static let postgresColumns = """
        id, run_id, marker, marker_meters, sender, status, error, attempts, max_attempts,
        duration_seconds, audio_bytes, audio_sha256, worker_id, completed_by, created_at,
        sender_token_hash, played_at, played_at_meters, played_at_run_seconds
        """

    init(_ row: PostgresRow) throws {
        let row = row.makeRandomAccess()
        self.init(
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
            createdAt: try row["created_at"].decode(Double.self),
            senderTokenHash: try row.optional("sender_token_hash", String.self),
            playedAt: try row.optional("played_at", Double.self),
            playedAtMeters: try row.optional("played_at_meters", Double.self),
            playedAtRunSeconds: try row.optional("played_at_run_seconds", Double.self),
            requestFingerprint: try row.optional("request_fingerprint", String.self))
    }
}

extension PostgresRandomAccessRow {
    /// A column added by a later migration: nil when the row comes from a `SELECT *` on a
    /// database that has not had it yet (the migration tests' older process enqueues there).
    func optional<T: PostgresDecodable>(_ column: String, _ type: T.Type) throws -> T? where T._DecodableType == T {
        guard contains(column) else { return nil }
        return try self[column].decode(T?.self)
    }
}

extension RunRecord {
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
