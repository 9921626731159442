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

    /// Opens and migrates the store. The services (a PostgreSQL connection pool and its listener)
    /// must run for as long as the store is used.
    public func open(logger: Logger) async throws -> (store: any Store, services: [any Service]) {
        switch self {
        case .sqlite(let dataDirectory):
            let store = try SQLiteStore(dataDirectory: dataDirectory)
            try await store.migrate()
            return (store, [])
        case .postgres(let url):
            return try await PostgresStore.open(url: url, logger: logger)
        }
    }
}
