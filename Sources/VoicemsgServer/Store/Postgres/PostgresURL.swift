import Foundation
import PostgresNIO

/// Reads `postgres://user:password@host:port/database?sslmode=…` into a client configuration.
enum PostgresURL {
    static func configuration(_ text: String) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(string: text),
            ["postgres", "postgresql"].contains(components.scheme?.lowercased() ?? ""),
            let host = components.host, !host.isEmpty
        else {
            throw StoreError("not a PostgreSQL URL: expected postgres://user:password@host:port/database")
        }
        let database = String(components.path.drop { $0 == "/" })
        let sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        let tls: PostgresClient.Configuration.TLS
        switch sslMode {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
        default: tls = .require(.makeClientConfiguration())
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432,
            username: components.user?.removingPercentEncoding ?? "postgres",
            password: components.password?.removingPercentEncoding,
            database: database.isEmpty ? nil : database, tls: tls)
        configuration.options.maximumConnections = 16
        return configuration
    }

    /// The URL without its password, for logs.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text) else { return "postgres://…" }
        if components.password != nil { components.password = "***" }
        return components.string ?? "postgres://…"
    }
}
