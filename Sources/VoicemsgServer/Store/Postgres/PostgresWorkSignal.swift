import Logging
import PostgresNIO
import ServiceLifecycle

/// The wake-up on PostgreSQL: a `NOTIFY` on enqueue wakes listening workers on every machine,
/// and idle workers poll as a fallback.
///
/// It is a `Service`: it listens until graceful shutdown. It runs after the connection pool in
/// the group, so it stops before the pool closes.
final class PostgresWorkSignal: WorkSignal, Service {
    static let channel = "voicemsg_jobs"

    let database: PostgresBackend
    /// Wakes this process's waiting workers; a notification from any machine signals it.
    let local = LocalWorkSignal()

    init(database: PostgresBackend) {
        self.database = database
    }

    func waitForWork(timeoutSeconds: Double) async {
        await local.waitForWork(timeoutSeconds: timeoutSeconds)
    }

    func signalWork() async {
        local.signal()
        _ = try? await database.rows("SELECT pg_notify(\(Self.channel), '')") { _ in () }
    }

    /// Listens for new work until graceful shutdown.
    func run() async throws {
        await cancelWhenGracefulShutdown {
            await self.listen()
        }
    }

    private func listen() async {
        while !Task.isCancelled {
            do {
                try await database.run { client in
                    try await client.withConnection { connection in
                        try await connection.listen(on: Self.channel) { notifications in
                            // A wake-up may have been missed while (re)connecting.
                            self.local.signal()
                            for try await _ in notifications { self.local.signal() }
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                // A lost connection is the outage's one line, which `run` logged; anything else
                // is news of its own.
                if (error as? StoreError)?.code != .unreachable {
                    database.logger.warning("LISTEN failed, polling until it is back: \(String(reflecting: error))")
                }
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
