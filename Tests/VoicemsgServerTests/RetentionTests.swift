import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

@testable import VoicemsgServer

/// Failed uploads are deleted after the retention period; a run is deleted whole by its owner;
/// the owner sees what is stored and until when. On both backends.
@Suite struct RetentionTests {
    @Test func aClockSetForwardDeletesFailedOriginalsAndKeepsReadyMessagesOnSQLite() async throws { try await aClockSetForwardDeletesFailedOriginalsAndKeepsReadyMessages(.sqlite) }
    @Test(.needsPostgreSQL) func aClockSetForwardDeletesFailedOriginalsAndKeepsReadyMessagesOnPostgreSQL() async throws { try await aClockSetForwardDeletesFailedOriginalsAndKeepsReadyMessages(.postgres) }
    private func aClockSetForwardDeletesFailedOriginalsAndKeepsReadyMessages(_ backend: Backend) async throws {
        try await TestServer(backend).router { client, store in
            let (run, owner, invite) = try await makeRun(in: store)
            let failing = try await enqueue(in: store, runID: run.id, meters: 1000, bytes: Data(repeating: 1, count: 700))
            let ready = try await enqueue(in: store, runID: run.id, meters: 2000, bytes: Data(repeating: 2, count: 300))
            let claimFailing = try #require(try await store.queue.claim(workerID: "w", leaseSeconds: 30))
            #expect(claimFailing.messageID == failing.id)
            #expect(try await store.queue.fail(claimFailing, error: "not audio", retryAfterSeconds: nil))
            let claimReady = try #require(try await store.queue.claim(workerID: "w", leaseSeconds: 30))
            // The AAC version counts with the Opus as the run's processed audio.
            #expect(try await store.queue.complete(
                claimReady, result: JobResult(audio: Data(repeating: 9, count: 30), durationSeconds: 1, aac: Data(repeating: 8, count: 20))))
            let waiting = try await enqueue(in: store, runID: run.id, meters: 3000, bytes: Data(repeating: 3, count: 200))

            let before = try await store.queue.storage(runID: run.id)
            #expect(before.messages == 3 && before.originals == 2 && before.originalBytes == 900 && before.audioBytes == 50)
            #expect(before.oldestFailedOriginalAt != nil)

            // Six days on, nothing goes; eight days on, the failed upload goes and nothing else.
            let week = 7 * 86_400.0
            let now = Date().timeIntervalSince1970
            #expect(try await RetentionSweeper.sweep(store, keepFailedSeconds: week, now: now + 6 * 86_400) == 0)
            #expect(try await RetentionSweeper.sweep(store, keepFailedSeconds: week, now: now + 8 * 86_400) == 1)
            let after = try await store.queue.storage(runID: run.id)
            #expect(after.messages == 3 && after.originals == 1 && after.originalBytes == 200 && after.audioBytes == 50)
            #expect(after.oldestFailedOriginalAt == nil)
            #expect(try await store.records.message(id: failing.id)?.status == .failed)
            #expect(try await store.records.message(id: failing.id)?.error == "not audio")
            #expect(try await store.audio.audio(messageID: ready.id) == Data(repeating: 9, count: 30))
            #expect(try await store.records.message(id: waiting.id)?.status == .queued)

            // Through the API: the owner sees the storage and its dates, the invite does not.
            let ownerInfo = try json(
                RunInfoResponse.self, try await client.execute(uri: "/v1/runs/\(run.id)", method: .get, headers: bearer(owner)))
            let storage = try #require(ownerInfo.storage)
            #expect(storage.stored == after)
            #expect(storage.failedOriginalsKeptSeconds == week)
            let inviteInfo = try json(
                RunInfoResponse.self, try await client.execute(uri: "/v1/runs/\(run.id)", method: .get, headers: bearer(invite)))
            #expect(inviteInfo.storage == nil)

            // Deletion: only the owner, and then nothing is left.
            let byInvite = try await client.execute(uri: "/v1/runs/\(run.id)", method: .delete, headers: bearer(invite))
            #expect(byInvite.status == .forbidden)
            let byOwner = try await client.execute(uri: "/v1/runs/\(run.id)", method: .delete, headers: bearer(owner))
            #expect(byOwner.status == .noContent)
            #expect(try await store.records.run(id: run.id) == nil)
            #expect(try await store.records.messages(runID: run.id).isEmpty)
            #expect(try await store.audio.audio(messageID: ready.id) == nil)
            #expect(try await store.queue.storage(runID: run.id).originals == 0)
            #expect(try await store.queue.claim(workerID: "w", leaseSeconds: 30) == nil)
        }
    }

    /// A failed message's storage info names when its upload will be deleted.
    @Test func theOwnerIsToldUntilWhenAFailedUploadIsKept() async throws {
        try await TestServer { $0.api.failedOriginalRetention = .seconds(3600) }.router { client, store in
            let (run, owner, _) = try await makeRun(in: store)
            try await enqueue(in: store, runID: run.id)
            let claim = try #require(try await store.queue.claim(workerID: "w", leaseSeconds: 30))
            _ = try await store.queue.fail(claim, error: "silent", retryAfterSeconds: nil)
            let response = try await client.execute(uri: "/v1/runs/\(run.id)", method: .get, headers: bearer(owner))
            let storage = try #require(try json(RunInfoResponse.self, response).storage)
            let failedAt = try #require(storage.stored.oldestFailedOriginalAt)
            #expect(storage.nextFailedOriginalDeletionAt == failedAt + 3600)
            #expect(storage.lastFailedOriginalDeletionAt == failedAt + 3600)
        }
    }
}
