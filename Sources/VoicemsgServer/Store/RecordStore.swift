import Foundation

/// Runs and messages as the API reads them.
///
/// A message is created by `JobQueue.enqueue`, which stores its upload and queues it in the same
/// transaction; its status then changes only through the queue.
public protocol RecordStore: Sendable {
    func createRun(_ run: RunRecord) async throws
    func run(id: String) async throws -> RunRecord?

    func message(id: String) async throws -> MessageRecord?
    func messages(runID: String) async throws -> [MessageRecord]
    /// Records, once, that the runner's app played a ready message: now (the database's clock),
    /// at `atMeters` into the run and `runSeconds` after its start. A later report changes
    /// nothing. Returns the message as stored afterwards; nil when there is no such message.
    func markPlayed(messageID: String, atMeters: Double, runSeconds: Double) async throws -> MessageRecord?
    /// The run's course; nil when it has none (or there is no such run).
    func course(runID: String) async throws -> StoredCourse?
    /// Keeps `course` as the run's course, replacing any, or removes it (nil), unless a
    /// message of the run has been played: the check and the change are one transaction.
    func setCourse(_ course: StoredCourse?, runID: String) async throws -> CourseChange
    /// How many messages are in each state, for metrics.
    func statusCounts() async throws -> [MessageStatus: Int]
}
