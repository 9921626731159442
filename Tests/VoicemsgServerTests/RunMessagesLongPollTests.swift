import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

@testable import VoicemsgServer

/// `GET /v1/runs/{id}/messages?wait=N` with `If-None-Match`, the runner's page's live list, on
/// both backends: it answers at once when the client's list is stale, waits while it is
/// current, wakes on an upload, a status change, a played report or a delete, and ends with 304
/// when nothing changed.
@Suite struct RunMessagesLongPollTests {
    typealias API = MessageAPITests
    typealias Client = API.Client

    static func list(_ client: Client, _ run: CreateRunResponse, wait: String?, etag: String?) async throws -> TestResponse {
        var headers = bearer(run.ownerToken)
        if let etag { headers[.ifNoneMatch] = etag }
        let query = wait.map { "?wait=\($0)" } ?? ""
        return try await client.execute(uri: "/v1/runs/\(run.id)/messages\(query)", method: .get, headers: headers)
    }

    /// Starts a poll on the list as `etag` has it, waits until it is parked, runs `change`, and
    /// returns the poll's answer.
    static func poll(
        _ client: Client, _ store: Store, _ run: CreateRunResponse, etag: String,
        after change: () async throws -> Void
    ) async throws -> TestResponse {
        let waiting = store.changes.waiterCount
        let poll = Task { try await list(client, run, wait: "30", etag: etag) }
        #expect(try await eventually(within: 20) { store.changes.waiterCount > waiting })
        try await change()
        return try await poll.value
    }

    @Test func listWaitsForAChangeAndAnswersWithTheNewListOnSQLite() async throws { try await listWaitsForAChangeAndAnswersWithTheNewList(.sqlite) }
    @Test(.needsPostgreSQL) func listWaitsForAChangeAndAnswersWithTheNewListOnPostgreSQL() async throws { try await listWaitsForAChangeAndAnswersWithTheNewList(.postgres) }
    private func listWaitsForAChangeAndAnswersWithTheNewList(_ backend: Backend) async throws {
        try await TestServer(backend).router { client, store in
            let run = try await API.createRun(client)
            let empty = try await Self.list(client, run, wait: nil, etag: nil)
            let emptyTag = try #require(empty.headers[.eTag])
            #expect(try json(RunMessagesResponse.self, empty).messages.isEmpty)

            // A stale ETag (or none) is answered at once, even with a wait.
            #expect(try await Self.list(client, run, wait: "30", etag: "\"stale\"").status == .ok)
            #expect(try await Self.list(client, run, wait: "30", etag: nil).status == .ok)

            // An upload wakes a poll on the empty list.
            var message: (id: String, token: String)?
            let added = try await Self.poll(client, store, run, etag: emptyTag) {
                message = try await API.send(client, run: run)
            }
            #expect(added.status == .ok)
            let addedList = try json(RunMessagesResponse.self, added).messages
            #expect(addedList.map(\.id) == [try #require(message).id])
            #expect(addedList.map(\.status) == [.queued])
            let addedTag = try #require(added.headers[.eTag])
            #expect(addedTag != emptyTag)

            // A worker's claim and its result each wake it.
            var claim: JobClaim?
            let processing = try await Self.poll(client, store, run, etag: addedTag) {
                claim = try await store.claim(workerID: "w", leaseSeconds: 30)
            }
            #expect(try json(RunMessagesResponse.self, processing).messages.map(\.status) == [.processing])
            let claimed = try #require(claim)
            var completed = false
            let ready = try await Self.poll(client, store, run, etag: try #require(processing.headers[.eTag])) {
                completed = try await store.complete(claimed, result: JobResult(audio: Data("OggS".utf8), durationSeconds: 3))
            }
            #expect(completed)
            let readyList = try json(RunMessagesResponse.self, ready).messages
            #expect(readyList.map(\.status) == [.ready])
            #expect(readyList.first?.durationSeconds == 3)
            let readyTag = try #require(ready.headers[.eTag])

            // Nothing changes: after the wait, 304 with the same ETag.
            let unchanged = try await Self.list(client, run, wait: "1", etag: readyTag)
            #expect(unchanged.status == .notModified)
            #expect(unchanged.headers[.eTag] == readyTag)
            #expect(unchanged.body.readableBytes == 0)

            // A played report, then a delete, each wake it.
            let id = try #require(message).id
            var reported: HTTPResponse.Status?
            let played = try await Self.poll(client, store, run, etag: readyTag) {
                reported = try await API.played(client, id, run.ownerToken, #"{"atMeters": 5100, "runSeconds": 1800}"#).status
            }
            #expect(reported == .ok)
            #expect(try json(RunMessagesResponse.self, played).messages.first?.playedAtMeters == 5100)
            var deletion: HTTPResponse.Status?
            let deleted = try await Self.poll(client, store, run, etag: try #require(played.headers[.eTag])) {
                deletion = try await API.delete(client, id, run.ownerToken)
            }
            #expect(deletion == .noContent)
            #expect(deleted.status == .ok)
            #expect(try json(RunMessagesResponse.self, deleted).messages.isEmpty)
            #expect(deleted.headers[.eTag] == emptyTag, "the same list gives the same ETag")
        }
    }

    /// A change to another run wakes the poll to re-read, but its own list did not change: it
    /// keeps waiting and ends with 304.
    @Test func anotherRunsUploadDoesNotEndThePollOnSQLite() async throws { try await anotherRunsUploadDoesNotEndThePoll(.sqlite) }
    @Test(.needsPostgreSQL) func anotherRunsUploadDoesNotEndThePollOnPostgreSQL() async throws { try await anotherRunsUploadDoesNotEndThePoll(.postgres) }
    private func anotherRunsUploadDoesNotEndThePoll(_ backend: Backend) async throws {
        try await TestServer(backend).router { client, store in
            let run = try await API.createRun(client)
            let other = try await API.createRun(client)
            let tag = try #require(try await Self.list(client, run, wait: nil, etag: nil).headers[.eTag])
            let poll = Task { try await Self.list(client, run, wait: "2", etag: tag) }
            #expect(try await eventually(within: 20) { store.changes.waiterCount > 0 })
            _ = try await API.send(client, run: other)
            let answer = try await poll.value
            #expect(answer.status == .notModified)
            #expect(answer.headers[.eTag] == tag)
        }
    }

    @Test func listWaitIsBoundedAndOwnerOnlyOnSQLite() async throws { try await listWaitIsBoundedAndOwnerOnly(.sqlite) }
    @Test(.needsPostgreSQL) func listWaitIsBoundedAndOwnerOnlyOnPostgreSQL() async throws { try await listWaitIsBoundedAndOwnerOnly(.postgres) }
    private func listWaitIsBoundedAndOwnerOnly(_ backend: Backend) async throws {
        try await TestServer(backend).app.test(.router) { client in
            let run = try await API.createRun(client)
            for wait in ["31", "-1", "soon", "nan", "inf"] {
                let response = try await Self.list(client, run, wait: wait, etag: nil)
                #expect(response.status == .badRequest, "wait=\(wait)")
                #expect(String(buffer: response.body).contains("wait must be a number of seconds from 0 to 30"))
            }
            var headers = bearer(run.inviteToken)
            headers[.ifNoneMatch] = "\"x\""
            let invite = try await client.execute(uri: "/v1/runs/\(run.id)/messages?wait=1", method: .get, headers: headers)
            #expect(invite.status == .forbidden)
        }
    }
}

/// The single message's long poll also ends on a played report, which leaves the status at
/// ready: the sender's page learns at once that the runner heard it.
@Suite struct MessagePlayedLongPollTests {
    typealias API = MessageAPITests

    @Test func aWaitingSenderHearsThePlayedReportOnSQLite() async throws { try await aWaitingSenderHearsThePlayedReport(.sqlite) }
    @Test(.needsPostgreSQL) func aWaitingSenderHearsThePlayedReportOnPostgreSQL() async throws { try await aWaitingSenderHearsThePlayedReport(.postgres) }
    private func aWaitingSenderHearsThePlayedReport(_ backend: Backend) async throws {
        try await TestServer(backend).router { client, store in
            let run = try await API.createRun(client)
            let message = try await API.send(client, run: run)
            try await API.completeAll(store)
            let answered = Locked(false)
            let poll = Task {
                defer { answered.withLock { $0 = true } }
                return try await API.get(client, "/v1/messages/\(message.id)?wait=30&status=ready", message.token)
            }
            #expect(try await eventually(within: 20) { store.changes.waiterCount > 0 })
            let report = try await API.played(client, message.id, run.ownerToken, #"{"atMeters": 21100, "runSeconds": 6727}"#)
            #expect(report.status == .ok)
            // Well before the 30 s wait ends: the report itself ended it.
            #expect(try await eventually(within: 20) { answered.withLock { $0 } })
            let answer = try await poll.value
            #expect(answer.status == .ok)
            let status = try json(MessageResponse.self, answer)
            #expect(status.status == .ready)
            #expect(status.playedAtMeters == 21100)
            #expect(status.playedAtRunSeconds == 6727)
        }
    }
}
