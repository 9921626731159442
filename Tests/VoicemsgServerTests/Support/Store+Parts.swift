import Foundation

@testable import VoicemsgServer

/// The tests reach every part of the store they opened through that one store: these forward
/// each call to the part that answers it.
extension Store {
    func createRun(_ run: RunRecord) async throws { try await records.createRun(run) }
    func run(id: String) async throws -> RunRecord? { try await records.run(id: id) }
    func message(id: String) async throws -> MessageRecord? { try await records.message(id: id) }
    func messages(runID: String) async throws -> [MessageRecord] { try await records.messages(runID: runID) }
    func statusCounts() async throws -> [MessageStatus: Int] { try await records.statusCounts() }

    func audio(messageID: String) async throws -> Data? { try await audio.audio(messageID: messageID) }
    func hasOriginal(messageID: String) async throws -> Bool { try await audio.hasOriginal(messageID: messageID) }

    func enqueue(_ message: NewMessage, original: Data) async throws -> MessageRecord {
        try await queue.enqueue(message, original: original)
    }
    func claim(workerID: String, leaseSeconds: Double) async throws -> JobClaim? {
        try await queue.claim(workerID: workerID, leaseSeconds: leaseSeconds)
    }
    func heartbeat(_ claim: JobClaim, leaseSeconds: Double) async throws -> Bool {
        try await queue.heartbeat(claim, leaseSeconds: leaseSeconds)
    }
    func complete(_ claim: JobClaim, result: JobResult) async throws -> Bool {
        try await queue.complete(claim, result: result)
    }
    func fail(_ claim: JobClaim, error: String, retryAfterSeconds: Double?) async throws -> Bool {
        try await queue.fail(claim, error: error, retryAfterSeconds: retryAfterSeconds)
    }
    func release(_ claim: JobClaim) async throws -> Bool { try await queue.release(claim) }

    func waitForWork(timeoutSeconds: Double) async { await signal.waitForWork(timeoutSeconds: timeoutSeconds) }
}
