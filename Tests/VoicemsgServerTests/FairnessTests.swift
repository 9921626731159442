import Foundation
import Testing

@testable import VoicemsgServer

/// Workers serve runs round-robin: a flood from one run delays another run's message by at
/// most one job per worker, on both backends.
@Suite struct FairnessTests {
    @Test func oneWorkerServesTheSecondRunBeforeTheFloodsTenthJobOnSQLite() async throws { try await oneWorkerServesTheSecondRunBeforeTheFloodsTenthJob(.sqlite) }
    @Test(.needsPostgreSQL) func oneWorkerServesTheSecondRunBeforeTheFloodsTenthJobOnPostgreSQL() async throws { try await oneWorkerServesTheSecondRunBeforeTheFloodsTenthJob(.postgres) }
    private func oneWorkerServesTheSecondRunBeforeTheFloodsTenthJob(_ backend: Backend) async throws {
        try await withStore(backend) { store, _ in
            let (runA, _, _) = try await makeRun(in: store)
            let (runB, _, _) = try await makeRun(in: store)
            var flood: [String] = []
            for index in 0..<50 {
                flood.append(try await enqueue(in: store, runID: runA.id, meters: Double(100 + index)).id)
            }
            let lone = try await enqueue(in: store, runID: runB.id).id

            // One worker: claim, complete, repeat, noting when each message became ready.
            var readyOrder: [String] = []
            while let claim = try await store.queue.claim(workerID: "only", leaseSeconds: 30) {
                #expect(try await store.queue.complete(claim, result: JobResult(audio: Data([1, 2, 3]), durationSeconds: 1)))
                readyOrder.append(claim.messageID)
            }
            #expect(readyOrder.count == 51)
            let loneAt = try #require(readyOrder.firstIndex(of: lone))
            let tenthOfFlood = try #require(readyOrder.firstIndex(of: flood[9]))
            #expect(loneAt < tenthOfFlood)
            // Round-robin: the flood's first job was claimed before B existed in the queue's eyes
            // (older), B's comes next.
            #expect(loneAt == 1, "B's message was ready \(loneAt + 1)th")
            // Within a run, jobs still go oldest first.
            #expect(readyOrder.filter { $0 != lone } == flood)
        }
    }

    /// Three runs with several jobs each alternate rather than draining one run first.
    @Test func runsAlternateOnSQLite() async throws { try await runsAlternate(.sqlite) }
    @Test(.needsPostgreSQL) func runsAlternateOnPostgreSQL() async throws { try await runsAlternate(.postgres) }
    private func runsAlternate(_ backend: Backend) async throws {
        try await withStore(backend) { store, _ in
            var runOf: [String: String] = [:]
            var runs: [String] = []
            for _ in 0..<3 {
                let (run, _, _) = try await makeRun(in: store)
                runs.append(run.id)
                for _ in 0..<4 { runOf[try await enqueue(in: store, runID: run.id).id] = run.id }
            }
            var served: [String] = []
            while let claim = try await store.queue.claim(workerID: "only", leaseSeconds: 30) {
                _ = try await store.queue.complete(claim, result: JobResult(audio: Data([1]), durationSeconds: 1))
                served.append(runOf[claim.messageID]!)
            }
            #expect(served.count == 12)
            // Every window of three consecutive claims serves each run once.
            for start in stride(from: 0, to: 12, by: 3) {
                #expect(Set(served[start..<start + 3]).count == 3, "\(served)")
            }
        }
    }
}
