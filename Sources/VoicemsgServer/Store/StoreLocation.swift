import Foundation
import Logging
import ServiceLifecycle

/// Where the data lives: a SQLite data folder, or a PostgreSQL database shared by many machines.
public enum StoreLocation: Sendable, Equatable {
    case sqlite(dataDirectory: String)
    case postgres(url: String)

    /// `--database` wins when given; otherwise the data folder, `./voicemsg-data` by default.
    public init(dataDirectory: String?, databaseURL: String?) {
        if let databaseURL {
            self = .postgres(url: databaseURL)
        } else {
            self = .sqlite(dataDirectory: dataDirectory ?? "voicemsg-data")
        }
    }

    /// Opens the store's four parts: the SQLite file, or a PostgreSQL pool that connects once it
    /// runs. No table is touched yet: run `services` (the pool and its listener), then call
    /// `migrate()` before first use.
    public func open(logger: Logger) throws -> Store {
        switch self {
        case .sqlite(let dataDirectory):
            let database = try SQLiteBackend(dataDirectory: dataDirectory)
            let signal = LocalWorkSignal()
            let changes = MessageChangeSignal()
            return Store(
                records: SQLiteRecordStore(database: database, changes: changes),
                audio: SQLiteAudioStore(database: database),
                queue: SQLiteJobQueue(database: database, signal: signal, changes: changes),
                signal: signal, changes: changes, location: "SQLite \(database.path)", services: [], schema: database)
        case .postgres(let url):
            let database = try PostgresBackend(url: url, logger: logger)
            let signal = PostgresWorkSignal(database: database)
            let changes = MessageChangeSignal()
            return Store(
                records: PostgresRecordStore(database: database, changes: changes),
                audio: PostgresAudioStore(database: database),
                queue: PostgresJobQueue(database: database, signal: signal, changes: changes),
                signal: signal, changes: changes, location: "PostgreSQL \(database.redactedURL)",
                services: [database.client, signal], schema: database)
        }
    }
}
