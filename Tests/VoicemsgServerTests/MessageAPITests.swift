import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

@testable import VoicemsgServer

/// What one message's endpoints allow, on both backends: the sender token, deletion, the played
/// report and the long poll. Jobs are claimed and completed by hand.
@Suite struct MessageAPITests {
    typealias Client = any TestClientProtocol

    static func createRun(_ client: Client) async throws -> CreateRunResponse {
        try await client.createRun(title: "Half", planned: 21_097)
    }

    static func upload(_ client: Client, run: String, token: String, key: String? = nil) async throws -> TestResponse {
        var headers = bearer(token)
        if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
        return try await client.execute(
            uri: "/v1/runs/\(run)/messages?marker=5km&sender=Ann", method: .post, headers: headers,
            body: ByteBuffer(bytes: [UInt8](repeating: 7, count: 1000)))
    }

    /// Uploads one message with the invite token; returns its id and sender token.
    static func send(_ client: Client, run: CreateRunResponse) async throws -> (id: String, token: String) {
        let response = try await upload(client, run: run.id, token: run.inviteToken)
        #expect(response.status == .accepted)
        let uploaded = try json(UploadResponse.self, response)
        return (uploaded.id, try #require(uploaded.senderToken))
    }

    static func completeAll(_ store: Store) async throws {
        while let claim = try await store.claim(workerID: "test", leaseSeconds: 30) {
            _ = try await store.complete(claim, result: JobResult(audio: Data("OggS \(claim.messageID)".utf8), durationSeconds: 2))
        }
    }

    static func get(_ client: Client, _ uri: String, _ token: String?) async throws -> TestResponse {
        try await client.execute(uri: uri, method: .get, headers: token.map(bearer) ?? [:])
    }

    static func delete(_ client: Client, _ id: String, _ token: String?) async throws -> HTTPResponse.Status {
        try await client.execute(uri: "/v1/messages/\(id)", method: .delete, headers: token.map(bearer) ?? [:]).status
    }

    static func played(_ client: Client, _ id: String, _ token: String, _ body: String) async throws -> TestResponse {
        var headers = bearer(token)
        headers[.contentType] = "application/json"
        return try await client.execute(
            uri: "/v1/messages/\(id)/played", method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    // MARK: The sender token

    @Test func uploadReturnsASenderTokenOnlyWhenItCreatesTheMessageOnSQLite() async throws { try await uploadReturnsASenderTokenOnlyWhenItCreatesTheMessage(.sqlite) }
    @Test(.needsPostgreSQL) func uploadReturnsASenderTokenOnlyWhenItCreatesTheMessageOnPostgreSQL() async throws { try await uploadReturnsASenderTokenOnlyWhenItCreatesTheMessage(.postgres) }
    private func uploadReturnsASenderTokenOnlyWhenItCreatesTheMessage(_ backend: Backend) async throws {
        try await TestServer(backend).router { client, store in
            let run = try await Self.createRun(client)
            let first = try json(
                UploadResponse.self, try await Self.upload(client, run: run.id, token: run.inviteToken, key: "k1"))
            let token = try #require(first.senderToken)
            #expect(token.count == 43)
            let stored = try #require(try await store.message(id: first.id))
            #expect(stored.senderTokenHash == SecureIdentifier.hash(token: token))
            #expect(stored.senderTokenHash != token)

            // The replay gets the same message and no new token; the first one still works.
            let replayResponse = try await Self.upload(client, run: run.id, token: run.inviteToken, key: "k1")
            #expect(replayResponse.status == .accepted)
            let replay = try json(UploadResponse.self, replayResponse)
            #expect(replay.id == first.id)
            #expect(replay.senderToken == nil)
            #expect(!String(buffer: replayResponse.body).contains("senderToken"))
            #expect(try await store.message(id: first.id)?.senderTokenHash == SecureIdentifier.hash(token: token))
            let status = try await Self.get(client, "/v1/messages/\(first.id)", token)
            #expect(status.status == .ok)
            #expect(try json(MessageResponse.self, status).id == first.id)
        }
    }

    @Test func senderTokenReachesItsOwnMessageOnlyOnSQLite() async throws { try await senderTokenReachesItsOwnMessageOnly(.sqlite) }
    @Test(.needsPostgreSQL) func senderTokenReachesItsOwnMessageOnlyOnPostgreSQL() async throws { try await senderTokenReachesItsOwnMessageOnly(.postgres) }
    private func senderTokenReachesItsOwnMessageOnly(_ backend: Backend) async throws {
        try await TestServer(backend).router { client, store in
            let run = try await Self.createRun(client)
            let mine = try await Self.send(client, run: run)
            let theirs = try await Self.send(client, run: run)
            let otherRun = try await Self.createRun(client)
            let elsewhere = try await Self.send(client, run: otherRun)

            #expect(try await Self.get(client, "/v1/messages/\(mine.id)", mine.token).status == .ok)
            #expect(try await Self.get(client, "/v1/messages/\(mine.id)/audio", mine.token).status == .notFound)
            try await Self.completeAll(store)
            let audio = try await Self.get(client, "/v1/messages/\(mine.id)/audio", mine.token)
            #expect(audio.status == .ok)
            #expect(Data(buffer: audio.body) == (try await store.audio(messageID: mine.id)))

            for id in [theirs.id, elsewhere.id] {
                #expect(try await Self.get(client, "/v1/messages/\(id)", mine.token).status == .forbidden)
                #expect(try await Self.get(client, "/v1/messages/\(id)/audio", mine.token).status == .forbidden)
                #expect(try await Self.delete(client, id, mine.token) == .forbidden)
            }
            #expect(try await Self.get(client, "/v1/runs/\(run.id)/manifest", mine.token).status == .forbidden)
            #expect(try await Self.upload(client, run: run.id, token: mine.token).status == .forbidden)
            #expect(try await Self.played(client, mine.id, mine.token, "{\"atMeters\":1,\"runSeconds\":1}").status == .forbidden)
            #expect(try await store.message(id: theirs.id) != nil)
            #expect(try await store.message(id: elsewhere.id) != nil)
            #expect(try await store.message(id: mine.id)?.playedAt == nil)

            // The sender may take their own message back.
            #expect(try await Self.delete(client, mine.id, mine.token) == .noContent)
            #expect(try await Self.get(client, "/v1/messages/\(mine.id)", run.ownerToken).status == .notFound)
        }
    }

    @Test func inviteTokenCannotDeleteListOrPlayMessagesOnSQLite() async throws { try await inviteTokenCannotDeleteListOrPlayMessages(.sqlite) }
    @Test(.needsPostgreSQL) func inviteTokenCannotDeleteListOrPlayMessagesOnPostgreSQL() async throws { try await inviteTokenCannotDeleteListOrPlayMessages(.postgres) }
    private func inviteTokenCannotDeleteListOrPlayMessages(_ backend: Backend) async throws {
        try await TestServer(backend).router { client, store in
            let run = try await Self.createRun(client)
            let message = try await Self.send(client, run: run)
            try await Self.completeAll(store)
            #expect(try await Self.delete(client, message.id, run.inviteToken) == .forbidden)
            #expect(try await Self.get(client, "/v1/messages/\(message.id)/audio", run.inviteToken).status == .forbidden)
            #expect(try await Self.get(client, "/v1/runs/\(run.id)/manifest", run.inviteToken).status == .forbidden)
            let played = try await Self.played(client, message.id, run.inviteToken, "{\"atMeters\":1,\"runSeconds\":1}")
            #expect(played.status == .forbidden)
            let stored = try #require(try await store.message(id: message.id))
            #expect(stored.status == .ready)
            #expect(stored.playedAt == nil)
            #expect(try await store.audio(messageID: message.id) != nil)
        }
    }

    // MARK: Deletion

    @Test func deleteRemovesTheMessageItsAudioAndItsJobOnSQLite() async throws { try await deleteRemovesTheMessageItsAudioAndItsJob(.sqlite) }
    @Test(.needsPostgreSQL) func deleteRemovesTheMessageItsAudioAndItsJobOnPostgreSQL() async throws { try await deleteRemovesTheMessageItsAudioAndItsJob(.postgres) }
    private func deleteRemovesTheMessageItsAudioAndItsJob(_ backend: Backend) async throws {
        try await TestServer(backend).router { client, store in
            let run = try await Self.createRun(client)
            let ready = try await Self.send(client, run: run)
            try await Self.completeAll(store)
            let queued = try await Self.send(client, run: run)
            let kept = try await Self.send(client, run: run)
            #expect(try await store.hasOriginal(messageID: queued.id))

            #expect(try await Self.delete(client, ready.id, nil) == .unauthorized)
            #expect(try await Self.delete(client, ready.id, run.ownerToken) == .noContent)
            #expect(try await Self.get(client, "/v1/messages/\(ready.id)", run.ownerToken).status == .notFound)
            #expect(try await Self.get(client, "/v1/messages/\(ready.id)/audio", run.ownerToken).status == .notFound)
            #expect(try await store.audio(messageID: ready.id) == nil)
            let manifest = try json(
                ManifestResponse.self, try await Self.get(client, "/v1/runs/\(run.id)/manifest", run.ownerToken))
            #expect(manifest.messages.isEmpty)
            #expect(manifest.pending == 2)

            #expect(try await Self.delete(client, queued.id, run.ownerToken) == .noContent)
            #expect(try await !store.hasOriginal(messageID: queued.id))
            #expect(try await Self.delete(client, queued.id, run.ownerToken) == .notFound)
            // Only the kept message's job is left to claim.
            let claim = try #require(try await store.claim(workerID: "w", leaseSeconds: 30))
            #expect(claim.messageID == kept.id)
            #expect(try await store.claim(workerID: "w", leaseSeconds: 30) == nil)
            #expect(try await store.messages(runID: run.id).map(\.id) == [kept.id])
        }
    }

    @Test func aMessageDeletedWhileProcessingStaysDeletedOnSQLite() async throws { try await aMessageDeletedWhileProcessingStaysDeleted(.sqlite) }
    @Test(.needsPostgreSQL) func aMessageDeletedWhileProcessingStaysDeletedOnPostgreSQL() async throws { try await aMessageDeletedWhileProcessingStaysDeleted(.postgres) }
    private func aMessageDeletedWhileProcessingStaysDeleted(_ backend: Backend) async throws {
        try await TestServer(backend).router { client, store in
            let run = try await Self.createRun(client)
            let message = try await Self.send(client, run: run)
            let claim = try #require(try await store.claim(workerID: "w", leaseSeconds: 30))
            #expect(claim.messageID == message.id)
            #expect(try await Self.delete(client, message.id, message.token) == .noContent)

            #expect(try await !store.heartbeat(claim, leaseSeconds: 30))
            #expect(try await !store.complete(claim, result: JobResult(audio: Data("OggS".utf8), durationSeconds: 1)))
            #expect(try await !store.fail(claim, error: "late", retryAfterSeconds: 1))
            #expect(try await store.message(id: message.id) == nil)
            #expect(try await store.audio(messageID: message.id) == nil)
            #expect(try await store.statusCounts().isEmpty)
            let manifest = try json(
                ManifestResponse.self, try await Self.get(client, "/v1/runs/\(run.id)/manifest", run.ownerToken))
            #expect(manifest.messages.isEmpty && manifest.pending == 0 && manifest.failed == 0)
        }
    }

    // MARK: The played report

    @Test func playedIsRecordedOnceAndShownInTheStatusOnSQLite() async throws { try await playedIsRecordedOnceAndShownInTheStatus(.sqlite) }
    @Test(.needsPostgreSQL) func playedIsRecordedOnceAndShownInTheStatusOnPostgreSQL() async throws { try await playedIsRecordedOnceAndShownInTheStatus(.postgres) }
    private func playedIsRecordedOnceAndShownInTheStatus(_ backend: Backend) async throws {
        try await TestServer(backend).router { client, store in
            let run = try await Self.createRun(client)
            let message = try await Self.send(client, run: run)
            let early = try await Self.played(client, message.id, run.ownerToken, "{\"atMeters\":100,\"runSeconds\":30}")
            #expect(early.status == .conflict)
            #expect(String(buffer: early.body).contains("queued"))
            try await Self.completeAll(store)

            let first = try await Self.played(client, message.id, run.ownerToken, "{\"atMeters\":21100,\"runSeconds\":6727}")
            #expect(first.status == .ok)
            let reported = try json(MessageResponse.self, first)
            #expect(reported.playedAtMeters == 21100)
            #expect(reported.playedAtRunSeconds == 6727)
            let playedAt = try #require(reported.playedAt)
            // The server's clock, in seconds since 1970 (a sanity bound, not a timing check).
            #expect(abs(playedAt - Date().timeIntervalSince1970) < 3600)

            // The app reports again, with other numbers: the first report stands.
            let again = try await Self.played(client, message.id, run.ownerToken, "{\"atMeters\":22000,\"runSeconds\":7000}")
            #expect(again.status == .ok)
            let repeated = try json(MessageResponse.self, again)
            #expect(repeated.playedAt == playedAt)
            #expect(repeated.playedAtMeters == 21100)
            #expect(repeated.playedAtRunSeconds == 6727)

            // The sender sees when they were heard.
            let status = try json(
                MessageResponse.self, try await Self.get(client, "/v1/messages/\(message.id)", message.token))
            #expect(status.playedAt == playedAt)
            #expect(status.playedAtMeters == 21100)
            #expect(status.playedAtRunSeconds == 6727)
        }
    }

    @Test(arguments: [
        "", "not json", "{\"atMeters\":1}", "{\"runSeconds\":1}", "{\"atMeters\":-1,\"runSeconds\":1}",
        "{\"atMeters\":1,\"runSeconds\":-0.5}", "{\"atMeters\":1e7,\"runSeconds\":1}",
        "{\"atMeters\":1,\"runSeconds\":1e9}", "{\"atMeters\":\"5km\",\"runSeconds\":1}",
    ])
    func badPlayedReportsGet400AndChangeNothing(_ body: String) async throws {
        try await TestServer(.sqlite).router { client, store in
            let run = try await Self.createRun(client)
            let message = try await Self.send(client, run: run)
            try await Self.completeAll(store)
            let response = try await Self.played(client, message.id, run.ownerToken, body)
            #expect(response.status == .badRequest)
            #expect(try await store.message(id: message.id)?.playedAt == nil)
        }
    }

    // MARK: The long poll

    @Test func longPollAnswersAtOnceWhenTheStatusDiffersOnSQLite() async throws { try await longPollAnswersAtOnceWhenTheStatusDiffers(.sqlite) }
    @Test(.needsPostgreSQL) func longPollAnswersAtOnceWhenTheStatusDiffersOnPostgreSQL() async throws { try await longPollAnswersAtOnceWhenTheStatusDiffers(.postgres) }
    private func longPollAnswersAtOnceWhenTheStatusDiffers(_ backend: Backend) async throws {
        try await TestServer(backend).router { client, store in
            let run = try await Self.createRun(client)
            let message = try await Self.send(client, run: run)
            let path = "/v1/messages/\(message.id)"
            let response = try await Self.get(client, path + "?wait=30&status=processing", message.token)
            #expect(response.status == .ok)
            #expect(try json(MessageResponse.self, response).status == .queued)
            for query in ["wait=31&status=queued", "wait=-1&status=queued", "wait=soon&status=queued", "wait=5&status=done"] {
                #expect(try await Self.get(client, "\(path)?\(query)", message.token).status == .badRequest, "\(query)")
            }
            // Another run's token learns nothing by waiting.
            let other = try await Self.createRun(client)
            #expect(try await Self.get(client, path + "?wait=1&status=queued", other.ownerToken).status == .forbidden)
        }
    }

    @Test func longPollWakesWhenTheStatusChangesOnSQLite() async throws { try await longPollWakesWhenTheStatusChanges(.sqlite) }
    @Test(.needsPostgreSQL) func longPollWakesWhenTheStatusChangesOnPostgreSQL() async throws { try await longPollWakesWhenTheStatusChanges(.postgres) }
    private func longPollWakesWhenTheStatusChanges(_ backend: Backend) async throws {
        try await TestServer(backend).router { client, store in
            let run = try await Self.createRun(client)
            let message = try await Self.send(client, run: run)
            let path = "/v1/messages/\(message.id)?wait=30&status="

            // Each step starts a poll, lets it park, then changes the message.
            let processing = Task { try await Self.get(client, path + "queued", message.token) }
            #expect(try await eventually(within: 20) { store.changes.waiterCount > 0 })
            let claim = try #require(try await store.claim(workerID: "w", leaseSeconds: 30))
            let first = try await processing.value
            #expect(try json(MessageResponse.self, first).status == .processing)

            let ready = Task { try await Self.get(client, path + "processing", message.token) }
            #expect(try await eventually(within: 20) { store.changes.waiterCount > 0 })
            #expect(try await store.complete(claim, result: JobResult(audio: Data("OggS".utf8), durationSeconds: 1)))
            #expect(try json(MessageResponse.self, try await ready.value).status == .ready)

            // Nothing changes: the poll ends after its wait with the status unchanged.
            let unchanged = try await Self.get(client, "/v1/messages/\(message.id)?wait=1&status=ready", message.token)
            #expect(unchanged.status == .ok)
            #expect(try json(MessageResponse.self, unchanged).status == .ready)

            let deleted = Task { try await Self.get(client, path + "ready", run.ownerToken) }
            #expect(try await eventually(within: 20) { store.changes.waiterCount > 0 })
            #expect(try await Self.delete(client, message.id, run.ownerToken) == .noContent)
            #expect(try await deleted.value.status == .notFound)
        }
    }

    /// A change made by another process (another server on PostgreSQL, or a second process on
    /// the SQLite folder) reaches the poll through its re-check.
    @Test func longPollSeesChangesFromAnotherProcessOnSQLite() async throws { try await longPollSeesChangesFromAnotherProcess(.sqlite) }
    @Test(.needsPostgreSQL) func longPollSeesChangesFromAnotherProcessOnPostgreSQL() async throws { try await longPollSeesChangesFromAnotherProcess(.postgres) }
    private func longPollSeesChangesFromAnotherProcess(_ backend: Backend) async throws {
        let server = try TestServer(backend)
        try await server.router { client, store in
            // The same data opened again, as another server or a worker process opens it.
            try await withStore(at: server.configuration.store) { elsewhere in
                let run = try await Self.createRun(client)
                let message = try await Self.send(client, run: run)
                let poll = Task { try await Self.get(client, "/v1/messages/\(message.id)?wait=30&status=queued", message.token) }
                #expect(try await eventually(within: 20) { store.changes.waiterCount > 0 })
                #expect(try await elsewhere.claim(workerID: "other machine", leaseSeconds: 30)?.messageID == message.id)
                #expect(try json(MessageResponse.self, try await poll.value).status == .processing)
            }
        }
    }
}
