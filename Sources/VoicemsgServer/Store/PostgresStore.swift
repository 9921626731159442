import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// The shared store for many machines: PostgreSQL through postgres-nio.
///
/// Same tables and rules as `SQLiteStore`. Claims take rows with `FOR UPDATE SKIP LOCKED`, so
/// workers on any number of machines never wait on each other's jobs; times come from the
/// database's clock, so leases mean the same to every machine. A `NOTIFY` on enqueue wakes
/// listening workers everywhere, and idle workers poll as a fallback. Audio lives in the
/// database, so any server can serve it.
public final class PostgresStore: Store, Service {
    static let channel = "voicemsg_jobs"

    let client: PostgresClient
    let logger: Logger
    let signal = WorkSignal()
    let clientTask: Task<Void, Never>
    public let location: String

    init(configuration: PostgresClient.Configuration, url: String, logger: Logger) {
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        self.location = "PostgreSQL \(PostgresURL.redacted(url))"
        clientTask = Task { await client.run() }
    }

    /// Connects, migrates, and returns the store with the service that keeps it running.
    static func open(url: String, logger: Logger) async throws -> (store: any Store, services: [any Service]) {
        let store = PostgresStore(
            configuration: try PostgresURL.configuration(url), url: url, logger: logger)
        // Let the pool's run loop start before the first lease, or postgres-nio warns.
        for _ in 0..<5 { await Task.yield() }
        do {
            try await store.migrate()
        } catch {
            store.clientTask.cancel()
            throw StoreError("cannot use the database at \(PostgresURL.redacted(url)): \(String(reflecting: error))")
        }
        return (store, [store])
    }

    /// Listens for new work until graceful shutdown, then closes the connections. It is the
    /// first service of its group, so it stops last, after the workers released their jobs.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await self.listen()
        }
        clientTask.cancel()
        await clientTask.value
    }

    private func listen() async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        // A wake-up may have been missed while (re)connecting.
                        self.signal.signal()
                        for try await _ in notifications { self.signal.signal() }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("LISTEN failed, polling until it is back: \(error)")
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    public func migrate() async throws {
        try await client.withTransaction(logger: logger) { connection in
            // Many processes may start at once; one migrates while the others wait.
            try await connection.query("SELECT pg_advisory_xact_lock(7305118)", logger: logger)
            for statement in Self.schema {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
        }
    }

    public func waitForWork(timeoutSeconds: Double) async {
        await signal.wait(timeoutSeconds: timeoutSeconds)
    }

    public func signalWork() async {
        signal.signal()
        _ = try? await client.query("SELECT pg_notify(\(Self.channel), '')", logger: logger)
    }
}
