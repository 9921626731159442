import Foundation

/// Runs, messages, their audio and the job queue, with one meaning on every backend.
///
/// `SQLiteStore` (one machine, no setup) and `PostgresStore` (many machines) share the schema and
/// these rules:
/// - a claim takes the oldest available job, or one whose lease expired, marks it `processing`,
///   counts the attempt and hands out a fresh lease token, all in one write;
/// - a job whose lease expired after its last allowed attempt fails instead of being claimed
///   again, so input that kills its worker cannot loop;
/// - every call that changes a claimed job checks the lease token and reports `false` when the
///   lease was lost, changing nothing;
/// - completion stores the audio, the job state and deletes the original in one transaction.
public protocol Store: Sendable {
    /// Creates the tables if needed. Safe to call from every process at startup.
    func migrate() async throws

    func createRun(_ run: RunRecord) async throws
    func run(id: String) async throws -> RunRecord?

    /// Stores the message and its original upload in one transaction, queued for processing.
    /// When the idempotency key was already used in this run, returns that message instead.
    func enqueue(_ message: NewMessage, original: Data) async throws -> MessageRecord
    func message(id: String) async throws -> MessageRecord?
    func messages(runID: String) async throws -> [MessageRecord]
    /// The processed Ogg Opus bytes of a ready message.
    func audio(messageID: String) async throws -> Data?
    /// True while the original upload is kept (it is deleted once processing succeeds).
    func hasOriginal(messageID: String) async throws -> Bool
    /// How many messages are in each state, for metrics.
    func statusCounts() async throws -> [MessageStatus: Int]

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

    /// Waits until new work may be available or `timeoutSeconds` pass, whichever comes first.
    func waitForWork(timeoutSeconds: Double) async
    /// Tells waiting workers in this process (and, on PostgreSQL, on every machine) to look.
    func signalWork() async

    /// A short description of where the data lives, for the startup line.
    var location: String { get }
}

extension Store {
    /// Text stored on a job that used up its attempts without any of them finishing.
    static func leaseExhaustedError(attempts: Int) -> String {
        "processing stopped \(attempts) times without finishing (the worker crashed or was killed); giving up"
    }
}
