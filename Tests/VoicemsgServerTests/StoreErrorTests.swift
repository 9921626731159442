import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PostgresNIO
import TestSupport
import Testing

@testable import VoicemsgServer

/// Each backend's failures come out of the store as one `StoreError` with a code, which the
/// HTTP layer answers by: a full disk is 507 with nothing stored, a stored value this version
/// does not know is an error rather than a default, and a PostgreSQL that cannot be used says
/// why as the process starts.
@Suite struct StoreErrorTests {
    /// SQLite's `max_page_count` caps the database at the pages it has, so that any write
    /// needing one more page fails with SQLITE_FULL, as on a full disk.
    static func capAtItsPages(_ store: Store) async throws {
        let sqlite = try #require(store.schema as? SQLiteBackend)
        try await sqlite.pool.writeWithoutTransaction { db in
            let pages = try #require(try Int.fetchOne(db, sql: "PRAGMA page_count"))
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
    }

    @Test func aFullDatabaseIsStorageFullAnd507WithNothingStored() async throws {
        try await TestServer { $0.api.runCreationsPerMinute = 1000 }.router { client, store in
            let (run, _, invite) = try await makeRun(in: store)
            try await Self.capAtItsPages(store)

            let refused = await #expect(throws: StoreError.self) {
                try await enqueue(in: store, runID: run.id, bytes: Data(count: 100_000))
            }
            #expect(refused?.code == .storageFull)

            let upload = try await client.execute(
                uri: "/v1/runs/\(run.id)/messages?marker=1km", method: .post,
                headers: bearer(invite), body: ByteBuffer(bytes: [UInt8](repeating: 7, count: 100_000)))
            #expect(upload.status.code == 507)
            #expect(String(buffer: upload.body).contains("nothing was stored"), "\(String(buffer: upload.body))")

            // Any other change the full disk refuses is 507 too, not an internal error: runs
            // are created until the next one needs a page.
            var statuses: [Int] = []
            var last = ""
            for index in 0..<200 {
                let title = String(repeating: "\(index % 10)", count: 200)
                let created = try await client.execute(
                    uri: "/v1/runs", method: .post, body: ByteBuffer(string: "{\"title\":\"\(title)\"}"))
                statuses.append(created.status.code)
                last = String(buffer: created.body)
                if created.status.code != 201 { break }
            }
            #expect(statuses.last == 507, "\(statuses)")
            #expect(statuses.dropLast().allSatisfy { $0 == 201 }, "\(statuses)")
            #expect(last.contains("nothing was changed"), "\(last)")
            #expect(try await store.messages(runID: run.id).isEmpty)
        }
    }

    /// Writes `status` into a message's row behind the store's back, as a newer version with a
    /// status this one does not know would.
    static func setStatus(_ status: String, of id: String, in store: Store) async throws {
        switch store.schema {
        case let sqlite as SQLiteBackend:
            try await sqlite.pool.write { db in
                try db.execute(sql: "UPDATE messages SET status = ? WHERE id = ?", arguments: [status, id])
            }
        case let postgres as PostgresBackend:
            try await postgres.client.query("UPDATE messages SET status = \(status) WHERE id = \(id)", logger: testLogger)
        default: throw TestFailure("unknown backend \(type(of: store.schema))")
        }
    }

    @Test func aStatusThisVersionDoesNotKnowIsAnErrorOnSQLite() async throws { try await aStatusThisVersionDoesNotKnowIsAnError(.sqlite) }
    @Test(.needsPostgreSQL) func aStatusThisVersionDoesNotKnowIsAnErrorOnPostgreSQL() async throws { try await aStatusThisVersionDoesNotKnowIsAnError(.postgres) }
    private func aStatusThisVersionDoesNotKnowIsAnError(_ backend: Backend) async throws {
        let directory = try TemporaryDirectory()
        let open = try await OpenStore.open(try backend.makeLocation(in: directory))
        let store = open.store
        let (run, _, _) = try await makeRun(in: store)
        let message = try await enqueue(in: store, runID: run.id)
        try await Self.setStatus("paused", of: message.id, in: store)

        let one = await #expect(throws: StoreError.self) { try await store.message(id: message.id) }
        #expect(one?.code == .unreadableRow)
        let list = await #expect(throws: StoreError.self) { try await store.messages(runID: run.id) }
        #expect(list?.code == .unreadableRow)
        let counts = await #expect(throws: StoreError.self) { try await store.statusCounts() }
        #expect(counts?.code == .unreadableRow)
        await open.close()
    }

    @Test func aURLThatIsNotPostgreSQLIsMisconfigured() throws {
        let error = #expect(throws: StoreError.self) {
            try StoreLocation.postgres(url: "mysql://somewhere/db").open(logger: testLogger)
        }
        #expect(error?.code == .misconfigured)
    }

    /// The pool would retry for a minute and then fail without the reason; the store's own
    /// connection at startup fails at once with the server's words.
    @Test(.needsPostgreSQL) func aDatabaseThatDoesNotExistFailsTheStartAtOnceSayingWhy() async throws {
        let url = try #require(Backend.postgresURL)
        var components = try #require(URLComponents(string: url))
        components.path = "/no_such_database"
        let store = try StoreLocation.postgres(url: try #require(components.string)).open(logger: testLogger)
        let services = await StoreServices.start(store)
        let error = await #expect(throws: StoreError.self) { try await store.migrate() }
        #expect(error?.code == .misconfigured)
        #expect(error?.message.contains("no_such_database") == true, "\(String(describing: error))")
        await services.stop()
    }

    /// Nothing listens at the URL: the store's first connection fails, and that failure is
    /// the outage's one line, with the reason, while the migration waits for the pool.
    @Test func anUnreachablePostgreSQLAtStartIsLoggedOnceWithTheReason() async throws {
        let log = LogCapture()
        let logger = log.logger(label: "voicemsg.tests")
        let port = try freeLoopbackPort()
        let store = try StoreLocation.postgres(url: "postgres://voicemsg@127.0.0.1:\(port)/postgres").open(logger: logger)
        let services = await StoreServices.start(store)
        let migrating = Task { try await store.migrate() }
        let logged = try await eventually(within: 30) { log.text.contains("unreachable (") }
        migrating.cancel()
        _ = await migrating.result
        await services.stop()
        let outage = log.text.split(separator: "\n").filter { $0.contains("unreachable (") }
        #expect(logged && outage.count == 1, "\(log.text)")
        #expect(outage.first?.contains("refused") == true, "\(outage)")
    }
}
