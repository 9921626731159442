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
    let logger: Logger
    /// The URL without its password, for logs and errors.
    let redactedURL: String
    /// Logs an outage once when it starts and once when it ends.
    let outage: PostgresOutage

    init(url: String, logger: Logger) throws {
        redactedURL = PostgresURL.redacted(url)
        outage = PostgresOutage(logger: logger, redactedURL: redactedURL)
        var background = logger
        background.handler = OutageLogHandler(inner: logger.handler, outage: outage)
        client = PostgresClient(configuration: try PostgresURL.configuration(url), backgroundLogger: background)
        self.logger = logger
    }

    /// Runs an UPDATE … RETURNING and tells whether it changed exactly one row.
    func changesOne(_ query: PostgresQuery) async throws -> Bool {
        try await reportingOutage {
            try await client.query(query, logger: logger).collect().count == 1
        }
    }

    /// Runs `body`, telling `outage` whether the database answered; a lost connection is
    /// thrown as `DatabaseUnreachable`, which workers retry quietly.
    func reportingOutage<T>(_ body: () async throws -> T) async throws -> T {
        do {
            let value = try await body()
            outage.reached()
            return value
        } catch where PostgresOutage.isConnectionLoss(error) {
            outage.failed(error)
            throw DatabaseUnreachable(description: "PostgreSQL at \(redactedURL) unreachable")
        }
    }
}
