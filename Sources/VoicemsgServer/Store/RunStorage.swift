/// What a run holds in the store, for its owner (`GET /v1/runs/{id}`).
public struct RunStorage: Sendable, Equatable, Codable {
    /// Messages in any state.
    public var messages: Int
    /// Uploads still kept: those of messages waiting or in progress, and of failed messages
    /// until the retention period deletes them.
    public var originals: Int
    public var originalBytes: Int
    /// Processed audio of ready messages (the Opus and the AAC version), kept until the message
    /// or the run is deleted.
    public var audioBytes: Int
    /// When the oldest failed message still holding its upload failed (seconds since 1970).
    public var oldestFailedOriginalAt: Double?
    /// When the newest one failed.
    public var newestFailedOriginalAt: Double?

    public init(
        messages: Int, originals: Int, originalBytes: Int, audioBytes: Int,
        oldestFailedOriginalAt: Double?, newestFailedOriginalAt: Double?
    ) {
        self.messages = messages
        self.originals = originals
        self.originalBytes = originalBytes
        self.audioBytes = audioBytes
        self.oldestFailedOriginalAt = oldestFailedOriginalAt
        self.newestFailedOriginalAt = newestFailedOriginalAt
    }
}

/// Retention: what the store keeps, and for how long.
public protocol RetentionStore: Sendable {
    /// Deletes the uploads of messages that failed at or before `cutoff` (seconds since 1970);
    /// the messages stay, with their error. Returns how many uploads were deleted.
    func purgeFailedOriginals(failedAtOrBefore cutoff: Double) async throws -> Int
    /// Deletes the run with every message, upload and result it holds, in one transaction;
    /// false when there was no such run. Workers holding its jobs lose their leases.
    func deleteRun(id: String) async throws -> Bool
    /// What the run holds.
    func storage(runID: String) async throws -> RunStorage
}
