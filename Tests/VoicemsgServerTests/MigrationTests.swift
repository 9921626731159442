import Foundation
import RunTracking
import Testing
import TestSupport

@testable import VoicemsgServer

/// Schema changes are numbered migrations: a database keeps its data across them, and many
/// processes may start on one database at once.
@Suite struct MigrationTests {
    /// Opens `location` with its services running, without migrating.
    static func openUnmigrated(_ location: StoreLocation) async throws -> (store: Store, services: StoreServices) {
        let store = try location.open(logger: testLogger)
        return (store, await StoreServices.start(store))
    }

    /// Opens `location` with its services running, migrated to the first version alone: a
    /// database as the first release left it.
    static func openAtFirstVersion(_ location: StoreLocation) async throws -> (store: Store, services: StoreServices) {
        let (store, services) = try await openUnmigrated(location)
        try await store.migrateToFirstVersion()
        return (store, services)
    }

    @Test func databaseAtMigrationOneUpgradesWhileInUseOnSQLite() async throws { try await databaseAtMigrationOneUpgradesWhileInUse(.sqlite) }
    @Test(.needsPostgreSQL) func databaseAtMigrationOneUpgradesWhileInUseOnPostgreSQL() async throws { try await databaseAtMigrationOneUpgradesWhileInUse(.postgres) }
    private func databaseAtMigrationOneUpgradesWhileInUse(_ backend: Backend) async throws {
        let directory = try TemporaryDirectory()
        let location = try backend.makeLocation(in: directory)
        let (old, oldServices) = try await Self.openAtFirstVersion(location)
        #expect(try await old.appliedMigrations() == Array(old.knownMigrations.prefix(1)))
        #expect(try await !old.messageIndexes().contains("messages_leased"))
        let run = try await old.createRunAtFirstVersion()
        let waiting = try await old.enqueueAtFirstVersion(runID: run.id, bytes: Data("before the upgrade".utf8))
        let held = try await old.enqueueAtFirstVersion(runID: run.id, meters: 2000)
        let claim = try #require(try await old.claimAtFirstVersion(workerID: "old", leaseSeconds: 30))
        #expect(claim.messageID == waiting)

        // A newer process starts on the same database while the old one holds a job.
        let new = try await OpenStore.open(location)
        #expect(try await new.store.appliedMigrations() == new.store.knownMigrations)
        #expect(try await new.store.messageIndexes().isSuperset(of: ["messages_claim", "messages_run", "messages_leased"]))

        // The data and the lease survived: the old process completes its job, the new one
        // takes the next.
        #expect(try await old.complete(claim, result: JobResult(audio: Data("done".utf8), durationSeconds: 1)))
        #expect(try await new.store.audio(messageID: waiting) == Data("done".utf8))
        let next = try #require(try await new.store.claim(workerID: "new", leaseSeconds: 30))
        #expect(next.messageID == held)
        #expect(next.runTitle == "Test run")
        #expect(next.marker == StoredMarker(canonical: "2000m", kind: "absolute", value: 2000))
        #expect(try await new.store.message(id: waiting)?.status == .ready)

        // A message made before AAC versions has none; it takes one later, once.
        #expect(try await new.store.audio.aac(messageID: waiting) == nil)
        let aac = StoredAAC(Data("an M4A".utf8))
        #expect(try await new.store.audio.storeAAC(aac, messageID: waiting))
        #expect(try await new.store.audio.aac(messageID: waiting) == aac)
        #expect(try await !new.store.audio.storeAAC(StoredAAC(Data("another".utf8)), messageID: waiting))
        #expect(try await new.store.audio.aac(messageID: waiting) == aac)
        #expect(try await new.store.audio(messageID: waiting) == Data("done".utf8))

        // Migrating again finds nothing to do.
        try await new.store.migrate()
        #expect(try await new.store.appliedMigrations() == new.store.knownMigrations)
        await new.close()
        await oldServices.stop()
    }

    @Test func databaseFromBeforeMigrationsWereRecordedIsAdoptedOnSQLite() async throws { try await databaseFromBeforeMigrationsWereRecordedIsAdopted(.sqlite) }
    @Test(.needsPostgreSQL) func databaseFromBeforeMigrationsWereRecordedIsAdoptedOnPostgreSQL() async throws { try await databaseFromBeforeMigrationsWereRecordedIsAdopted(.postgres) }
    private func databaseFromBeforeMigrationsWereRecordedIsAdopted(_ backend: Backend) async throws {
        let directory = try TemporaryDirectory()
        let location = try backend.makeLocation(in: directory)
        let (old, oldServices) = try await Self.openAtFirstVersion(location)
        let run = try await old.createRunAtFirstVersion()
        let message = try await old.enqueueAtFirstVersion(runID: run.id)
        try await old.forgetMigrations()
        await oldServices.stop()

        let new = try await OpenStore.open(location)
        #expect(try await new.store.appliedMigrations() == new.store.knownMigrations)
        #expect(try await new.store.messageIndexes().contains("messages_leased"))
        #expect(try await new.store.message(id: message)?.status == .queued)
        #expect(try await new.store.claim(workerID: "new", leaseSeconds: 30)?.messageID == message)
        await new.close()
    }

    /// Markers are stored as the upload parsed them, beside their text. Those stored before
    /// that get it from their canonical text when the database is migrated; one that a server
    /// from before writes afterwards, while it still runs, is read back from its text; and one
    /// stored now comes back exactly as parsed, not as its rounded text would parse.
    @Test func markersComeBackAsParsedAcrossTheMigrationOnSQLite() async throws { try await markersComeBackAsParsedAcrossTheMigration(.sqlite) }
    @Test(.needsPostgreSQL) func markersComeBackAsParsedAcrossTheMigrationOnPostgreSQL() async throws { try await markersComeBackAsParsedAcrossTheMigration(.postgres) }
    private func markersComeBackAsParsedAcrossTheMigration(_ backend: Backend) async throws {
        let directory = try TemporaryDirectory()
        let location = try backend.makeLocation(in: directory)
        let (old, oldServices) = try await Self.openAtFirstVersion(location)
        let run = try await old.createRunAtFirstVersion(plannedDistance: 10_000)
        let before: [(text: String, meters: Double, marker: DistanceMarker)] = [
            ("5000m", 5000, .absolute(meters: 5000)), ("1609.34m", 1609.34, .absolute(meters: 1609.34)),
            ("50%", 5000, .percent(50)), ("12.35%", 1235, .percent(12.35)),
            ("finish", 10_000, .finish), ("finish-1000m", 9000, .beforeFinish(meters: 1000)),
        ]
        var expected: [String: (StoredMarker, DistanceMarker)] = [:]
        for row in before {
            let id = try await old.enqueueAtFirstVersion(runID: run.id, meters: row.meters, marker: row.text)
            let kind = StoredMarker(row.marker)
            expected[id] = (StoredMarker(canonical: row.text, kind: kind.kind, value: kind.value), row.marker)
        }

        let new = try await OpenStore.open(location)
        // The old process goes on storing text alone; the new one stores the marker as parsed.
        let late = try await old.enqueueAtFirstVersion(runID: run.id, meters: 2500, marker: "25%")
        expected[late] = (StoredMarker(canonical: "25%", kind: nil, value: nil), .percent(25))
        let parsed = try DistanceMarker(parsing: "12.3456%")
        let now = try await new.store.enqueue(
            NewMessage(
                id: SecureIdentifier.makeID(), runID: run.id, marker: parsed, markerMeters: 1234.56, sender: nil,
                idempotencyKey: nil, maxAttempts: 3),
            original: Data("recording".utf8))
        expected[now.id] = (StoredMarker(canonical: "12.35%", kind: "percent", value: 12.3456), .percent(12.3456))
        #expect(now.marker == "12.35%")

        var claimed: [String: StoredMarker] = [:]
        while let claim = try await new.store.claim(workerID: "new", leaseSeconds: 30) {
            claimed[claim.messageID] = claim.marker
        }
        #expect(Set(claimed.keys) == Set(expected.keys))
        for (id, (stored, marker)) in expected {
            #expect(claimed[id] == stored, "\(stored.canonical)")
            #expect(try claimed[id]?.marker() == marker, "\(stored.canonical)")
        }
        await new.close()
        await oldServices.stop()
    }

    @Test func processesStartingAtOnceMigrateAFreshDatabaseOnceOnSQLite() async throws { try await processesStartingAtOnceMigrateAFreshDatabaseOnce(.sqlite) }
    @Test(.needsPostgreSQL) func processesStartingAtOnceMigrateAFreshDatabaseOnceOnPostgreSQL() async throws { try await processesStartingAtOnceMigrateAFreshDatabaseOnce(.postgres) }
    private func processesStartingAtOnceMigrateAFreshDatabaseOnce(_ backend: Backend) async throws {
        let directory = try TemporaryDirectory()
        let location = try backend.makeLocation(in: directory)
        // Each store has its own connections, as separate processes would.
        var opened: [(store: Store, services: StoreServices)] = []
        for _ in 0..<4 { opened.append(try await Self.openUnmigrated(location)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (store, _) in opened { group.addTask { try await store.migrate() } }
            try await group.waitForAll()
        }
        for (store, _) in opened {
            #expect(try await store.appliedMigrations() == store.knownMigrations)
        }
        let store = opened[0].store
        let (run, _, _) = try await makeRun(in: store)
        try await enqueue(in: store, runID: run.id)
        #expect(try await opened[3].store.claim(workerID: "w", leaseSeconds: 30) != nil)
        for (_, services) in opened { await services.stop() }
    }
}
