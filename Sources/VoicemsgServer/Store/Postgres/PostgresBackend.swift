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

    init(url: String, logger: Logger) throws {
        client = PostgresClient(configuration: try PostgresURL.configuration(url), backgroundLogger: logger)
        self.logger = logger
        redactedURL = PostgresURL.redacted(url)
    }

    /// Runs an UPDATE … RETURNING and tells whether it changed exactly one row.
    func changesOne(_ query: PostgresQuery) async throws -> Bool {
        try await client.query(query, logger: logger).collect().count == 1
    }
}
