import Foundation
import Logging
import PostgresNIO

/// The shared backend's database: PostgreSQL through postgres-nio, for many machines. The
/// PostgreSQL parts of the store share its connection pool.
///
/// Times come from the database's clock (`voicemsg_now()`), so leases mean the same to every
/// machine, and audio lives in the database, so any server can serve it.
///
/// The pool, `client`, is a `Service`: it runs in the process's `ServiceGroup`, which starts it
/// before anything queries and closes it after everything else has stopped.
struct PostgresBackend: Sendable {
    let client: PostgresClient
    let url: PostgresURL
    let logger: Logger
    /// Logs an outage once when it starts and once when it ends.
    let outage: PostgresOutage

    var redactedURL: String { url.redacted }

    init(url text: String, logger: Logger) throws {
        url = try PostgresURL(text)
        outage = PostgresOutage(logger: logger, redactedURL: url.redacted)
        // The pool logs each failed connection attempt at info on this logger, several a
        // second at the start of an outage. The outage is told once, from the store's own
        // calls (`run`), so the pool's lines below notice are left out; it logs nothing else
        // above debug.
        var background = logger
        background.logLevel = max(logger.logLevel, .notice)
        client = PostgresClient(configuration: url.clientConfiguration, backgroundLogger: background)
        self.logger = logger
    }

    /// Runs `body` with the pool, which must finish its queries and their rows inside it: a
    /// driver's error comes out as a `StoreError`, and the outage hears whether PostgreSQL
    /// answered (a call its caller cancelled says nothing about that).
    func run<T: Sendable>(_ body: (PostgresClient) async throws -> T) async throws -> T {
        let started = ContinuousClock.now
        do {
            let value = try await body(client)
            outage.reached(callStartedAt: started)
            return value
        } catch {
            let error = Self.storeError(error)
            if let error = error as? StoreError, error.code == .unreachable, !Task.isCancelled { outage.failed(error) }
            throw error
        }
    }

    /// The rows of `query`, each decoded by `decode`.
    func rows<T: Sendable>(_ query: PostgresQuery, _ decode: (PostgresRow) throws -> T) async throws -> [T] {
        try await run { client in
            try await client.query(query, logger: logger).collect().map(decode)
        }
    }

    /// Runs `body` in one transaction.
    func transaction<T: Sendable>(_ body: (PostgresConnection) async throws -> sending T) async throws -> T {
        try await run { client in
            try await client.withTransaction(logger: logger, body)
        }
    }

    /// Runs an UPDATE … RETURNING and tells whether it changed exactly one row.
    func changesOne(_ query: PostgresQuery) async throws -> Bool {
        try await rows(query) { _ in () }.count == 1
    }
}
