import Foundation
import PostgresNIO

/// `postgres://user:password@host:port/database?sslmode=…`, read once into what the pool and a
/// single connection are configured with.
struct PostgresURL: Sendable {
    var host: String
    var port: Int
    var username: String
    var password: String?
    var database: String?
    /// `disable` (the default), `prefer`/`allow`, or anything else, which requires TLS.
    var sslMode: String
    /// The URL without its password, for logs and errors.
    var redacted: String

    init(_ text: String) throws {
        guard let components = URLComponents(string: text),
            ["postgres", "postgresql"].contains(components.scheme?.lowercased() ?? ""),
            let host = components.host, !host.isEmpty
        else {
            throw StoreError(.misconfigured, "not a PostgreSQL URL: expected postgres://user:password@host:port/database")
        }
        self.host = host
        port = components.port ?? 5432
        username = components.user?.removingPercentEncoding ?? "postgres"
        password = components.password?.removingPercentEncoding
        let database = String(components.path.drop { $0 == "/" })
        self.database = database.isEmpty ? nil : database
        sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        redacted = Self.redacted(text)
    }

    var clientConfiguration: PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS
        switch sslMode {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
        default: tls = .require(.makeClientConfiguration())
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        configuration.options.maximumConnections = 16
        return configuration
    }

    /// The same settings for one connection outside the pool.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch sslMode {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        default: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        return PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
    }

    /// `text` without its password, for logs.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text) else { return "postgres://…" }
        if components.password != nil { components.password = "***" }
        return components.string ?? "postgres://…"
    }
}
