import Foundation
import Testing
import TestSupport

@testable import VoicemsgServer

/// The README's "transient failures retry with exponential backoff": a real worker pool on a
/// real store, with a processor that fails the way a full disk or a lost connection would
/// (an error the pipeline does not call the input's fault) twice, then succeeds.
@Suite struct WorkerRetryTests {
    /// Fails its first `failures` calls with a transient error, then succeeds; notes when each
    /// call started.
    final class FlakyProcessor: MessageProcessor {
        struct Failure: Error, CustomStringConvertible { var description: String { "the disk is busy" } }
        private let calls = Locked<[ContinuousClock.Instant]>([])
        let failures: Int

        init(failures: Int) { self.failures = failures }

        var starts: [ContinuousClock.Instant] { calls.withLock { $0 } }

        func process(_ job: ProcessingInput) throws -> JobResult {
            let count = calls.withLock { $0.append(.now); return $0.count }
            if count <= failures { throw Failure() }
            return JobResult(audio: Data("opus".utf8), durationSeconds: 1)
        }
    }

    @Test func aTransientFailureIsRetriedAfterItsBackoffOnSQLite() async throws { try await aTransientFailureIsRetriedAfterItsBackoff(.sqlite) }
    @Test(.needsPostgreSQL) func aTransientFailureIsRetriedAfterItsBackoffOnPostgreSQL() async throws { try await aTransientFailureIsRetriedAfterItsBackoff(.postgres) }
    private func aTransientFailureIsRetriedAfterItsBackoff(_ backend: Backend) async throws {
        let (record, audio, starts) = try await Self.runFlakyJob(
            on: backend, maxAttempts: 3, failures: 2, retryBaseSeconds: 0.6, until: .ready)
        #expect(record.attempts == 3, "two failed attempts and the one that succeeded")
        #expect(audio == Data("opus".utf8))

        // Backoff with jitter: after attempt n the wait lies between half and all of
        // base·2^(n-1), so at least 0.3 s, then at least 0.6 s. A lower bound only: how much
        // longer the machine takes is not the test's business.
        try #require(starts.count == 3, "\(starts.count) calls")
        let first = starts[1] - starts[0]
        let second = starts[2] - starts[1]
        print("retry waits: \(first), then \(second)")
        #expect(first >= .milliseconds(300), "retried after \(first)")
        #expect(second >= .milliseconds(600), "retried after \(second)")
    }

    /// With no attempts left the transient failure is final, with the attempts in its reason.
    @Test func theLastAttemptsFailureIsFinal() async throws {
        let (record, _, starts) = try await Self.runFlakyJob(
            on: .sqlite, maxAttempts: 2, failures: 5, retryBaseSeconds: 0.1, until: .failed)
        #expect(record.attempts == 2)
        #expect(record.error == "gave up after 2 attempts: the disk is busy")
        #expect(starts.count == 2)
    }

    /// Enqueues one message allowed `maxAttempts`, runs a one-worker pool whose processor fails
    /// `failures` times, and waits (120 s at most) for the message to reach `status`. Returns its
    /// record, its stored audio and when each processor call started. The wait is long because
    /// `make test` runs this beside the suites that decode and encode real audio, and on a
    /// 2-core machine a claimed attempt can wait tens of seconds for a thread; it ends as soon as
    /// the status is reached.
    static func runFlakyJob(
        on backend: Backend, maxAttempts: Int, failures: Int, retryBaseSeconds: Double, until status: MessageStatus
    ) async throws -> (record: MessageRecord, audio: Data?, starts: [ContinuousClock.Instant]) {
        let directory = try TemporaryDirectory()
        let open = try await OpenStore.open(try backend.makeLocation(in: directory))
        defer { Task { await open.close() } }
        let store = open.store
        let (run, _, _) = try await makeRun(in: store)
        let message = try await enqueue(in: store, runID: run.id, maxAttempts: maxAttempts)

        var queue = QueueConfiguration()
        queue.pollInterval = .milliseconds(50)
        queue.retryBaseDelay = .seconds(retryBaseSeconds)
        queue.retryMaxDelay = .seconds(60)
        let processor = FlakyProcessor(failures: failures)
        let pool = WorkerPool(store: store, processor: processor, configuration: queue, concurrency: 1,
                              metrics: ServerMetrics(), logger: testLogger)
        let workers = Task { try await pool.run() }
        defer { workers.cancel() }

        let reached = try await eventually(within: 120) { try await store.message(id: message.id)?.status == status }
        #expect(reached, "the message never became \(status)")
        let record = try #require(try await store.message(id: message.id))
        return (record, try await store.audio(messageID: message.id), processor.starts)
    }
}
