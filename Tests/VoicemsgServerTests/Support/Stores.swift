import Foundation
import TestSupport
import Logging
import ServiceLifecycle
import Testing

@testable import VoicemsgServer

/// The scratch folder every test target shares, by its short name in this one.
typealias TemporaryDirectory = TestSupport.TemporaryDirectory

/// The two store backends every queue and API test runs against. Each such test is written
/// once, taking the backend, and declared twice: `…OnSQLite()` and `…OnPostgreSQL()`, the
/// second with `.needsPostgreSQL`, so that a run without PostgreSQL reports those cases as
/// skipped, with the reason, rather than as passed.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// The URL `scripts/with-postgres.sh` exports (`make test` runs the tests through it).
    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["VOICEMSG_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A fresh, empty store location. PostgreSQL tests carry `.needsPostgreSQL`, so they never
    /// get here without a URL; one that does fails, rather than passing without running.
    func makeLocation(in directory: TemporaryDirectory) throws -> StoreLocation {
        switch self {
        case .sqlite:
            return .sqlite(dataDirectory: directory.file("data"))
        case .postgres:
            let url = try #require(Self.postgresURL, "a PostgreSQL test without .needsPostgreSQL")
            return .postgres(url: try Self.freshDatabase(in: url))
        }
    }

    /// Creates a new database on the test cluster, so each test starts empty.
    static func freshDatabase(in url: String) throws -> String {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try Tool.run("psql", [url, "-v", "ON_ERROR_STOP=1", "-qc", "CREATE DATABASE \(name)"])
        var components = URLComponents(string: url)!
        components.path = "/" + name
        return components.string!
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test where PostgreSQL is available (`make test` starts a throwaway cluster
    /// through scripts/with-postgres.sh) and reports it as skipped, with this reason, elsewhere.
    static var needsPostgreSQL: Self {
        .enabled(
            if: Backend.postgresURL != nil,
            "PostgreSQL is not available: VOICEMSG_TEST_POSTGRES_URL is unset (scripts/with-postgres.sh sets it; make test runs it)")
    }
}

/// A store's services (a PostgreSQL pool and its listener) running in a `ServiceGroup`, as in a
/// server process, until `stop()`.
struct StoreServices: Sendable {
    private let runner: Task<Void, Never>

    /// Returns once the group has started the services, which it starts in order, so the
    /// store is used as a server uses it: from a service that comes after them.
    static func start(_ store: Store) async -> StoreServices {
        let (started, continuation) = AsyncStream<Void>.makeStream()
        let runner = Task {
            let group = ServiceGroup(
                configuration: .init(
                    services: (store.services + [Started(continuation: continuation)]).map { .init(service: $0) },
                    logger: testLogger))
            try? await group.run()
            continuation.finish()
        }
        for await _ in started { break }
        return StoreServices(runner: runner)
    }

    func stop() async {
        runner.cancel()
        await runner.value
    }

    /// Says that the services before it have been started, then waits to be stopped.
    private struct Started: Service {
        let continuation: AsyncStream<Void>.Continuation

        func run() async throws {
            continuation.yield()
            try await gracefulShutdown()
        }
    }
}

/// An open, migrated store, with its services running until `close()`.
struct OpenStore: Sendable {
    let store: Store
    let location: StoreLocation
    private let services: StoreServices

    static func open(_ location: StoreLocation) async throws -> OpenStore {
        let store = try location.open(logger: testLogger)
        let services = await StoreServices.start(store)
        do {
            try await store.migrate()
        } catch {
            await services.stop()
            throw error
        }
        return OpenStore(store: store, location: location, services: services)
    }

    private init(store: Store, location: StoreLocation, services: StoreServices) {
        self.store = store
        self.location = location
        self.services = services
    }

    func close() async {
        await services.stop()
    }
}

let testLogger: Logger = {
    var logger = Logger(label: "voicemsg.tests")
    logger.logLevel = .warning
    return logger
}()

/// Opens a fresh store on `backend` in a new temporary directory, runs `body` with the store and
/// the directory, and closes the store before returning, whether `body` threw or not.
func withStore(
    _ backend: Backend, _ body: (Store, TemporaryDirectory) async throws -> Void
) async throws {
    let directory = try TemporaryDirectory()
    try await withStore(at: try backend.makeLocation(in: directory)) { try await body($0, directory) }
}

/// Opens the store at `location` with its services running, runs `body` with it, and closes it
/// before returning, whether `body` threw or not.
func withStore(at location: StoreLocation, _ body: (Store) async throws -> Void) async throws {
    let open = try await OpenStore.open(location)
    do {
        try await body(open.store)
    } catch {
        await open.close()
        throw error
    }
    await open.close()
}

/// Creates a run with known tokens directly in the store.
func makeRun(
    in store: Store, plannedDistance: Double? = 10_000
) async throws -> (run: RunRecord, owner: String, invite: String) {
    let owner = SecureIdentifier.makeToken()
    let invite = SecureIdentifier.makeToken()
    let run = RunRecord(
        id: SecureIdentifier.makeID(), title: "Test run", plannedDistanceMeters: plannedDistance,
        ownerTokenHash: SecureIdentifier.hash(token: owner),
        inviteTokenHash: SecureIdentifier.hash(token: invite),
        createdAt: Date().timeIntervalSince1970)
    try await store.createRun(run)
    return (run, owner, invite)
}

/// Enqueues a message with some bytes as its upload.
@discardableResult
func enqueue(
    in store: Store, runID: String, meters: Double = 1000, sender: String? = "tester",
    bytes: Data = Data("recording".utf8), key: String? = nil, maxAttempts: Int = 3
) async throws -> MessageRecord {
    try await store.enqueue(
        NewMessage(
            id: SecureIdentifier.makeID(), runID: runID, marker: .absolute(meters: meters),
            markerMeters: meters, sender: sender, idempotencyKey: key, maxAttempts: maxAttempts),
        original: bytes)
}

/// Polls `condition` every 50 ms until it holds or `seconds` pass.
func eventually(
    within seconds: Double, _ condition: () async throws -> Bool
) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}
