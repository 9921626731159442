import Foundation

/// The job queue, with one meaning on every backend.
///
/// `SQLiteJobQueue` (one machine, no setup) and `PostgresJobQueue` (many machines) share the schema and
/// these rules:
/// - a claim takes an available job, or one whose lease expired, round-robin across runs: the
///   oldest job of the run served least recently (by the latest change to any job of it that
///   was claimed; a run never served first), so a run
///   flooding the queue delays another run's message by at most one job per worker; it marks it `processing`,
///   counts the attempt and hands out a fresh lease token, all in one write;
/// - a job whose lease expired after its last allowed attempt fails instead of being claimed
///   again, so input that kills its worker cannot loop;
/// - every call that changes a claimed job checks the lease token and reports `false` when the
///   lease was lost, changing nothing;
/// - completion stores the audio, the job state and deletes the original in one transaction.
public protocol JobQueue: RetentionStore {
    /// Stores the message and its original upload in one transaction, queued for processing.
    /// When the idempotency key was already used in this run, returns that message instead.
    func enqueue(_ message: NewMessage, original: Data) async throws -> MessageRecord
    /// The same, with the upload in a file of `length` bytes (see the default below).
    func enqueue(_ message: NewMessage, originalFile: URL, length: Int) async throws -> MessageRecord

    /// Claims the next job for `workerID`, under a lease of `leaseSeconds`.
    func claim(workerID: String, leaseSeconds: Double) async throws -> JobClaim?
    /// Extends the lease; false when it was lost.
    func heartbeat(_ claim: JobClaim, leaseSeconds: Double) async throws -> Bool
    /// Writes the result and marks the message ready; false when the lease was lost.
    func complete(_ claim: JobClaim, result: JobResult) async throws -> Bool
    /// Records a failed attempt: queued again after `retryAfterSeconds`, or failed for good when
    /// that is nil. False when the lease was lost.
    func fail(_ claim: JobClaim, error: String, retryAfterSeconds: Double?) async throws -> Bool
    /// Gives the job back without counting the attempt (graceful shutdown). False when the lease
    /// was lost.
    func release(_ claim: JobClaim) async throws -> Bool
    /// Removes the message, its original, its result and so its job, in one transaction; false
    /// when there was no such message. A worker holding the job loses its lease: its
    /// heartbeat, completion or failure then changes nothing, so the message stays deleted.
    func delete(messageID: String) async throws -> Bool
}

extension JobQueue {
    /// `enqueue` with the upload in a file of `length` bytes. This default maps the file; the
    /// SQLite queue copies it into the database in pieces, so no upload is held whole in memory,
    /// and the PostgreSQL queue lets one upload at a time into memory on its way.
    func enqueue(_ message: NewMessage, originalFile: URL, length: Int) async throws -> MessageRecord {
        try await enqueue(message, original: Data(contentsOf: originalFile, options: .alwaysMapped))
    }

    /// Text stored on a job that used up its attempts without any of them finishing.
    static func leaseExhaustedError(attempts: Int) -> String {
        "processing stopped \(attempts) times without finishing (the worker crashed or was killed); giving up"
    }
}
