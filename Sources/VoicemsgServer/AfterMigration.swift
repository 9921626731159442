import Logging
import ServiceLifecycle

/// Migrates the store, then runs the services that use it as a group of their own, so that none
/// of them sees an old schema. It runs after the store's own services: the database connections
/// are there to migrate with, and they outlive everything that uses them. The HTTP server, which
/// Hummingbird runs after every service has started, waits for the migration with
/// `waitUntilMigrated()`.
struct AfterMigration: Service {
    let store: Store
    let services: [any Service]
    let logger: Logger
    let onMigrated: @Sendable () -> Void
    /// Ends when the migration is done, or with its error; ends empty when the process stopped
    /// first. The HTTP server is its one reader.
    private let outcome: AsyncThrowingStream<Void, any Error>
    private let report: AsyncThrowingStream<Void, any Error>.Continuation

    init(store: Store, services: [any Service], logger: Logger, onMigrated: @escaping @Sendable () -> Void = {}) {
        self.store = store
        self.services = services
        self.logger = logger
        self.onMigrated = onMigrated
        (outcome, report) = AsyncThrowingStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    func run() async throws {
        // While the database is unreachable the migration waits for it; a signal meanwhile
        // ends the process cleanly, with nothing started.
        do {
            try await cancelWhenGracefulShutdown { try await store.migrate() }
        } catch where Task.isShuttingDownGracefully {
            logger.info("stopped before the database could be reached")
            report.finish()
            return
        } catch {
            report.finish(throwing: error)
            throw error
        }
        report.yield()
        report.finish()
        onMigrated()
        try await ServiceGroup(
            configuration: .init(services: services.map { .init(service: $0) }, logger: logger)
        ).run()
    }

    /// Returns once the schema is migrated; throws the migration's error, or
    /// `StoppedBeforeMigration` when the process is stopped first.
    func waitUntilMigrated() async throws {
        let outcome = self.outcome
        let migrated = try await cancelWhenGracefulShutdown {
            try await outcome.first { _ in true } != nil
        }
        guard migrated else { throw StoppedBeforeMigration() }
    }
}

/// The process was stopped while the database could not yet be reached: nothing was started,
/// and the process ends as cleanly as after any other graceful shutdown.
struct StoppedBeforeMigration: Error {}
