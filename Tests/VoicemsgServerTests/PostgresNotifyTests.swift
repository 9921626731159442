import Foundation
import Testing
import TestSupport

@testable import VoicemsgServer

/// LISTEN/NOTIFY: an upload through one machine's store wakes an idle worker on another.
@Suite struct PostgresNotifyTests {
    @Test(.needsPostgreSQL) func enqueueWakesAWorkerWaitingOnAnotherConnection() async throws {
        let directory = try TemporaryDirectory()
        let location = try Backend.postgres.makeLocation(in: directory)
        let server = try await OpenStore.open(location)
        let worker = try await OpenStore.open(location)
        let (run, _, _) = try await makeRun(in: server.store)

        // Let the worker's LISTEN settle, then wait far longer than the test could take, so
        // only a notification can end the wait early.
        try await Task.sleep(for: .milliseconds(500))
        // Use up the wake-up every (re)connected listener gives itself.
        await worker.store.waitForWork(timeoutSeconds: 0.2)
        let woke = Task {
            await worker.store.waitForWork(timeoutSeconds: 600)
            return true
        }
        try await Task.sleep(for: .milliseconds(200))
        try await enqueue(in: server.store, runID: run.id)
        let result = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { await woke.value }
            group.addTask {
                try await Task.sleep(for: .seconds(60))
                return false
            }
            let first = try await group.next()!
            // Awaiting a task's value ignores cancellation; cancel the task itself.
            woke.cancel()
            group.cancelAll()
            return first
        }
        woke.cancel()
        #expect(result, "the waiting worker was woken by NOTIFY")
        #expect(try await worker.store.claim(workerID: "remote", leaseSeconds: 30) != nil)
        await server.close()
        await worker.close()
    }
}
