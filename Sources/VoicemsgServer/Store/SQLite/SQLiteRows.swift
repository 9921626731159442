import GRDB

extension RunRecord {
    init(_ row: Row) {
        self.init(
            id: row["id"], title: row["title"], plannedDistanceMeters: row["planned_distance_meters"],
            runnerName: row["runner_name"], ownerTokenHash: row["owner_token_hash"], inviteTokenHash: row["invite_token_hash"],
            createdAt: row["created_at"])
    }
}

extension MessageRecord {
    init(_ row: Row) {
        self.init(
            id: row["id"], runID: row["run_id"], marker: row["marker"],
            markerMeters: row["marker_meters"], sender: row["sender"],
            status: MessageStatus(rawValue: row["status"]) ?? .failed, error: row["error"],
            attempts: row["attempts"], maxAttempts: row["max_attempts"],
            durationSeconds: row["duration_seconds"], audioBytes: row["audio_bytes"],
            audioSHA256: row["audio_sha256"], workerID: row["worker_id"], completedBy: row["completed_by"],
            createdAt: row["created_at"], senderTokenHash: row["sender_token_hash"],
            playedAt: row["played_at"], playedAtMeters: row["played_at_meters"],
            playedAtRunSeconds: row["played_at_run_seconds"], requestFingerprint: row["request_fingerprint"])
    }
}
