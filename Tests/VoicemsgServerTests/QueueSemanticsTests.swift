import Foundation
import Testing

@testable import VoicemsgServer

/// The queue's rules, checked the same way on both backends.
@Suite struct QueueSemanticsTests {
    @Test func claimCountsTheAttemptAndHandsEachJobOutOnSQLite() async throws { try await claimCountsTheAttemptAndHandsEachJobOut(.sqlite) }
    @Test(.needsPostgreSQL) func claimCountsTheAttemptAndHandsEachJobOutOnPostgreSQL() async throws { try await claimCountsTheAttemptAndHandsEachJobOut(.postgres) }
    private func claimCountsTheAttemptAndHandsEachJobOut(_ backend: Backend) async throws {
        try await withStore(backend) { store, _ in
            let (run, _, _) = try await makeRun(in: store)
            let message = try await enqueue(in: store, runID: run.id, bytes: Data([1, 2, 3]))
            #expect(message.status == .queued)
            #expect(message.attempts == 0)

            let claim = try #require(try await store.claim(workerID: "a", leaseSeconds: 30))
            #expect(claim.messageID == message.id)
            #expect(claim.attempt == 1)
            #expect(claim.runTitle == "Test run")
            #expect(claim.original == Data([1, 2, 3]))
            #expect(try await store.claim(workerID: "b", leaseSeconds: 30) == nil)

            let record = try #require(try await store.message(id: message.id))
            #expect(record.status == .processing)
            #expect(record.attempts == 1)
        }
    }

    @Test func completionStoresTheResultAndDropsTheOriginalOnSQLite() async throws { try await completionStoresTheResultAndDropsTheOriginal(.sqlite) }
    @Test(.needsPostgreSQL) func completionStoresTheResultAndDropsTheOriginalOnPostgreSQL() async throws { try await completionStoresTheResultAndDropsTheOriginal(.postgres) }
    private func completionStoresTheResultAndDropsTheOriginal(_ backend: Backend) async throws {
        try await withStore(backend) { store, _ in
            let (run, _, _) = try await makeRun(in: store)
            let message = try await enqueue(in: store, runID: run.id)
            let claim = try #require(try await store.claim(workerID: "a", leaseSeconds: 30))
            #expect(try await store.hasOriginal(messageID: message.id))
            let result = JobResult(audio: Data("OggS result".utf8), durationSeconds: 1.5, aac: Data("M4A result".utf8))
            #expect(try await store.complete(claim, result: result))
            // The AAC version is stored in the same transaction, with its own SHA-256.
            #expect(try await store.audio.aac(messageID: message.id) == StoredAAC(Data("M4A result".utf8)))

            let record = try #require(try await store.message(id: message.id))
            #expect(record.status == .ready)
            #expect(record.durationSeconds == 1.5)
            #expect(record.audioBytes == result.audio.count)
            #expect(record.audioSHA256 == result.sha256)
            #expect(record.completedBy == "a")
            #expect(try await store.audio(messageID: message.id) == result.audio)
            #expect(try await !store.hasOriginal(messageID: message.id))
            // A second completion of the same claim changes nothing.
            #expect(try await !store.complete(claim, result: result))
        }
    }

    @Test func staleWorkerCannotOverwriteTheNewOwnersResultOnSQLite() async throws { try await staleWorkerCannotOverwriteTheNewOwnersResult(.sqlite) }
    @Test(.needsPostgreSQL) func staleWorkerCannotOverwriteTheNewOwnersResultOnPostgreSQL() async throws { try await staleWorkerCannotOverwriteTheNewOwnersResult(.postgres) }
    private func staleWorkerCannotOverwriteTheNewOwnersResult(_ backend: Backend) async throws {
        try await withStore(backend) { store, _ in
            let (run, _, _) = try await makeRun(in: store)
            let message = try await enqueue(in: store, runID: run.id)
            let stale = try #require(try await store.claim(workerID: "stale", leaseSeconds: 0.2))
            try await Task.sleep(for: .milliseconds(400))

            let rescued = try #require(try await store.claim(workerID: "new", leaseSeconds: 30))
            #expect(rescued.messageID == message.id)
            #expect(rescued.attempt == 2, "an expired lease counts as an attempt")
            #expect(rescued.original == stale.original, "the original is kept until success")

            #expect(try await !store.heartbeat(stale, leaseSeconds: 30))
            #expect(try await store.heartbeat(rescued, leaseSeconds: 30))
            #expect(try await store.complete(rescued, result: JobResult(audio: Data("new".utf8), durationSeconds: 1)))
            #expect(try await !store.complete(stale, result: JobResult(audio: Data("stale".utf8), durationSeconds: 9)))
            #expect(try await !store.fail(stale, error: "late", retryAfterSeconds: nil))
            #expect(try await !store.release(stale))

            let record = try #require(try await store.message(id: message.id))
            #expect(record.status == .ready)
            #expect(record.completedBy == "new")
            #expect(record.durationSeconds == 1)
            #expect(try await store.audio(messageID: message.id) == Data("new".utf8))
        }
    }

    @Test func heartbeatsKeepTheLeaseOnSQLite() async throws { try await heartbeatsKeepTheLease(.sqlite) }
    @Test(.needsPostgreSQL) func heartbeatsKeepTheLeaseOnPostgreSQL() async throws { try await heartbeatsKeepTheLease(.postgres) }
    private func heartbeatsKeepTheLease(_ backend: Backend) async throws {
        try await withStore(backend) { store, _ in
            let (run, _, _) = try await makeRun(in: store)
            try await enqueue(in: store, runID: run.id)
            // A 10 s lease, beaten once to a minute, must still be held after its first 10 s are
            // over. Only waiting longer than asked is left to the machine's scheduling, so a
            // loaded machine cannot make a beat late; a beat refused after the lease ran out
            // unbeaten would be right, and is told apart.
            let claimed = ContinuousClock.now
            let claim = try #require(try await store.claim(workerID: "a", leaseSeconds: 10))
            let beat = try await store.heartbeat(claim, leaseSeconds: 60)
            guard beat || ContinuousClock.now - claimed < .seconds(10) else { return }
            #expect(beat)
            try await Task.sleep(until: claimed + .milliseconds(10_500))
            #expect(try await store.heartbeat(claim, leaseSeconds: 60), "held past the lease it was claimed with")
            #expect(try await store.claim(workerID: "b", leaseSeconds: 30) == nil)
        }
    }

    @Test func leaseExpiringOnTheLastAttemptFailsTheJobOnSQLite() async throws { try await leaseExpiringOnTheLastAttemptFailsTheJob(.sqlite) }
    @Test(.needsPostgreSQL) func leaseExpiringOnTheLastAttemptFailsTheJobOnPostgreSQL() async throws { try await leaseExpiringOnTheLastAttemptFailsTheJob(.postgres) }
    private func leaseExpiringOnTheLastAttemptFailsTheJob(_ backend: Backend) async throws {
        try await withStore(backend) { store, _ in
            let (run, _, _) = try await makeRun(in: store)
            let message = try await enqueue(in: store, runID: run.id, maxAttempts: 2)
            for attempt in 1...2 {
                let claim = try #require(try await store.claim(workerID: "w\(attempt)", leaseSeconds: 0.1))
                #expect(claim.attempt == attempt)
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(try await store.claim(workerID: "w3", leaseSeconds: 30) == nil)
            let record = try #require(try await store.message(id: message.id))
            #expect(record.status == .failed)
            #expect(record.attempts == 2)
            #expect(record.error?.contains("crashed") == true)
            #expect(try await store.hasOriginal(messageID: message.id), "a failed upload keeps its original")
        }
    }

    @Test func retryWaitsForItsBackoffAndFailureIsFinalOnSQLite() async throws { try await retryWaitsForItsBackoffAndFailureIsFinal(.sqlite) }
    @Test(.needsPostgreSQL) func retryWaitsForItsBackoffAndFailureIsFinalOnPostgreSQL() async throws { try await retryWaitsForItsBackoffAndFailureIsFinal(.postgres) }
    private func retryWaitsForItsBackoffAndFailureIsFinal(_ backend: Backend) async throws {
        try await withStore(backend) { store, _ in
            let (run, _, _) = try await makeRun(in: store)
            // Two jobs, so that no check rests on how quickly a loaded machine asks again: one
            // backs off for an hour and must stay out of reach, the other for a second and must
            // come back once the test has waited at least that long.
            let waiting = try await enqueue(in: store, runID: run.id)
            let waitingClaim = try #require(try await store.claim(workerID: "a", leaseSeconds: 30))
            #expect(waitingClaim.messageID == waiting.id)
            #expect(try await store.fail(waitingClaim, error: "disk hiccup", retryAfterSeconds: 3600))
            let waitingRecord = try #require(try await store.message(id: waiting.id))
            #expect(waitingRecord.status == .queued)
            #expect(try await store.claim(workerID: "a", leaseSeconds: 30) == nil, "not before the backoff")

            let message = try await enqueue(in: store, runID: run.id)
            let first = try #require(try await store.claim(workerID: "a", leaseSeconds: 30))
            #expect(first.messageID == message.id)
            let failed = ContinuousClock.now
            #expect(try await store.fail(first, error: "disk hiccup", retryAfterSeconds: 1))
            try await Task.sleep(until: failed + .milliseconds(1200))
            let second = try #require(try await store.claim(workerID: "a", leaseSeconds: 30), "due after its backoff")
            #expect(second.messageID == message.id)
            #expect(second.attempt == 2)
            #expect(try await store.fail(second, error: "no speech found", retryAfterSeconds: nil))
            let record = try #require(try await store.message(id: message.id))
            #expect(record.status == .failed)
            #expect(record.error == "no speech found")
            #expect(try await store.claim(workerID: "a", leaseSeconds: 30) == nil, "a final failure is final")
        }
    }

    @Test func releaseGivesTheJobBackWithoutCountingTheAttemptOnSQLite() async throws { try await releaseGivesTheJobBackWithoutCountingTheAttempt(.sqlite) }
    @Test(.needsPostgreSQL) func releaseGivesTheJobBackWithoutCountingTheAttemptOnPostgreSQL() async throws { try await releaseGivesTheJobBackWithoutCountingTheAttempt(.postgres) }
    private func releaseGivesTheJobBackWithoutCountingTheAttempt(_ backend: Backend) async throws {
        try await withStore(backend) { store, _ in
            let (run, _, _) = try await makeRun(in: store)
            let message = try await enqueue(in: store, runID: run.id)
            let claim = try #require(try await store.claim(workerID: "a", leaseSeconds: 30))
            #expect(try await store.release(claim))
            let record = try #require(try await store.message(id: message.id))
            #expect(record.status == .queued)
            #expect(record.attempts == 0)
            let again = try #require(try await store.claim(workerID: "b", leaseSeconds: 30))
            #expect(again.attempt == 1)
        }
    }

    @Test func idempotencyKeyReturnsTheFirstMessageOnSQLite() async throws { try await idempotencyKeyReturnsTheFirstMessage(.sqlite) }
    @Test(.needsPostgreSQL) func idempotencyKeyReturnsTheFirstMessageOnPostgreSQL() async throws { try await idempotencyKeyReturnsTheFirstMessage(.postgres) }
    private func idempotencyKeyReturnsTheFirstMessage(_ backend: Backend) async throws {
        try await withStore(backend) { store, _ in
            let (run, _, _) = try await makeRun(in: store)
            let first = try await enqueue(in: store, runID: run.id, key: "upload-1")
            let retry = try await enqueue(in: store, runID: run.id, key: "upload-1")
            let other = try await enqueue(in: store, runID: run.id, key: "upload-2")
            #expect(retry.id == first.id)
            #expect(other.id != first.id)
            #expect(try await store.messages(runID: run.id).count == 2)
        }
    }

    @Test func concurrentClaimersNeverShareAJobOnSQLite() async throws { try await concurrentClaimersNeverShareAJob(.sqlite) }
    @Test(.needsPostgreSQL) func concurrentClaimersNeverShareAJobOnPostgreSQL() async throws { try await concurrentClaimersNeverShareAJob(.postgres) }
    private func concurrentClaimersNeverShareAJob(_ backend: Backend) async throws {
        try await withStore(backend) { store, _ in
            let (run, _, _) = try await makeRun(in: store)
            for index in 0..<24 { try await enqueue(in: store, runID: run.id, meters: Double(index)) }
            let claimed = try await withThrowingTaskGroup(of: [String].self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        var ids: [String] = []
                        while let claim = try await store.claim(workerID: "w\(worker)", leaseSeconds: 30) {
                            ids.append(claim.messageID)
                            _ = try await store.complete(claim, result: JobResult(audio: Data([1]), durationSeconds: 0))
                        }
                        return ids
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(claimed.count == 24)
            #expect(Set(claimed).count == 24)
            #expect(try await store.statusCounts()[.ready] == 24)
        }
    }
}
