import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Whether PostgreSQL is reachable, so that an outage is logged once when it starts and once
/// when it ends, however many connection attempts, queries and workers meet it meanwhile.
///
/// The connection pool retries on its own with a backoff, and queries wait for it; what the pool
/// tells of its attempts reaches us only through its background logger (`OutageLogHandler`).
final class PostgresOutage: Sendable {
    private struct State {
        var downSince: ContinuousClock.Instant?
    }

    private let state = NIOLockedValueBox(State())
    private let logger: Logger
    private let redactedURL: String

    init(logger: Logger, redactedURL: String) {
        self.logger = logger
        self.redactedURL = redactedURL
    }

    var isDown: Bool { state.withLockedValue { $0.downSince != nil } }

    /// A connection attempt failed or a connection was lost: the first since PostgreSQL was last
    /// reached logs one line.
    func failed(_ reason: String) {
        let first = state.withLockedValue { state in
            guard state.downSince == nil else { return false }
            state.downSince = .now
            return true
        }
        guard first else { return }
        logger.warning(
            "PostgreSQL at \(redactedURL) unreachable (\(Self.shortReason(reason))); waiting and reconnecting with backoff")
    }

    /// A connection was made or a query answered: the end of an outage logs one line.
    func reached() {
        let since = state.withLockedValue { state in
            defer { state.downSince = nil }
            return state.downSince
        }
        guard let since else { return }
        let seconds = (ContinuousClock.now - since).components.seconds
        logger.notice("PostgreSQL at \(redactedURL) reachable again after \(seconds) s")
    }

    /// A query or the LISTEN connection met `error` (see `isConnectionLoss`).
    func failed(_ error: any Error) {
        if let error = error as? PSQLError, error.code == .server, let message = error.serverInfo?[.message] {
            failed(message)
        } else {
            failed(String(reflecting: error))
        }
    }

    /// The innermost reason of PostgresNIO's nested error text, such as "Connection refused
    /// (errno: 111)", rather than its whole description.
    static func shortReason(_ text: String) -> String {
        var reason = Substring(text)
        if let range = reason.range(of: "error: ", options: .backwards) { reason = reason[range.upperBound...] }
        while let last = reason.last, last == ")" || last == "]" {
            // Drop the closing brackets of the wrapping errors, not those of "(errno: 111)".
            let opens = reason.count(where: { $0 == "(" || $0 == "[" })
            let closes = reason.count(where: { $0 == ")" || $0 == "]" })
            guard closes > opens else { break }
            reason = reason.dropLast()
        }
        let line = reason.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.isEmpty ? text : String(line.prefix(200))
    }
}

/// The connection pool's background logger: its "Connection creation failed" lines, one per
/// attempt and so several a second at first, become the outage's single line, and a connection
/// made during an outage ends it. Everything else passes to the process's log as it was.
struct OutageLogHandler: LogHandler {
    var inner: any LogHandler
    let outage: PostgresOutage

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    /// Info, to hear failed attempts at any configured level; debug during an outage, to hear
    /// the pool's "Connection established".
    var logLevel: Logger.Level {
        get { min(inner.logLevel, outage.isDown ? .debug : .info) }
        set { inner.logLevel = newValue }
    }

    func log(event: LogEvent) {
        switch event.message.description {
        case "Connection creation failed":
            let reason = event.metadata?["psql_error"].map { "\($0)" } ?? "connection failed"
            outage.failed(reason)
            return
        case "Connection established":
            outage.reached()
        default:
            break
        }
        guard event.level >= inner.logLevel else { return }
        inner.log(event: event)
    }
}

extension PostgresOutage {
    /// Whether `error` means the database went away (a refused or reset connection, a server
    /// shutting down), rather than a statement it refused.
    static func isConnectionLoss(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
            return true
        case .server:
            // Class 57P: admin_shutdown, crash_shutdown, cannot_connect_now.
            return error.serverInfo?[.sqlState]?.hasPrefix("57P") ?? false
        default:
            return false
        }
    }
}
