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
    /// How many messages are in each state, for metrics.
    func statusCounts() async throws -> [MessageStatus: Int]
}
