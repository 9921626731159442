import Foundation
import PostgresNIO
import _ConnectionPoolModule

extension PostgresBackend {
    /// postgres-nio's errors as the store's: the client's error code, and for errors the server
    /// sent, their SQLSTATE class. A `StoreError` or a cancellation passes unchanged.
    static func storeError(_ error: any Error) -> any Error {
        switch error {
        case is StoreError, is CancellationError:
            return error
        case let error as PostgresTransactionError:
            // BEGIN, the transaction's body or COMMIT failed; the transaction did not commit.
            guard let inner = error.beginError ?? error.closureError ?? error.commitError else {
                return StoreError(.unexpected, "the transaction failed", cause: error)
            }
            return storeError(inner)
        case let error as PSQLError:
            return storeError(error)
        case let error as PostgresDecodingError:
            return StoreError(.unreadableRow, "a stored row could not be read (column \(error.columnName))", cause: error)
        case let error as ConnectionPoolError where error == .connectionCreationCircuitBreakerTripped:
            // The pool failed to connect for so long that it refuses requests until it connects.
            return StoreError(.unreachable, "no connection could be made for a while", cause: error)
        default:
            return StoreError(.unexpected, String(reflecting: error), cause: error)
        }
    }

    private static func storeError(_ error: PSQLError) -> StoreError {
        switch error.code {
        case .connectionError:
            return StoreError(.unreachable, error.underlying.map { shortReason("\($0)") } ?? "connection failed", cause: error)
        case .serverClosedConnection:
            return StoreError(.unreachable, "the server closed the connection", cause: error)
        case .clientClosedConnection:
            return StoreError(.unreachable, "the connection was closed", cause: error)
        case .uncleanShutdown:
            return StoreError(.unreachable, "the connection ended uncleanly", cause: error)
        case .sslUnsupported, .failedToAddSSLHandler, .unsupportedAuthMechanism, .authMechanismRequiresPassword,
            .saslError:
            return StoreError(.misconfigured, "cannot sign in: \(error.code)", cause: error)
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            let words = error.serverInfo?[.message] ?? "error \(state)"
            switch state {
            case "53100":  // disk_full
                return StoreError(.storageFull, words, cause: error)
            case _ where state.hasPrefix("57P"):  // admin_shutdown, crash_shutdown, cannot_connect_now
                return StoreError(.unreachable, words, cause: error)
            case _ where state.hasPrefix("23"):  // integrity constraint violations
                return StoreError(.conflict, words, cause: error)
            case _ where state.hasPrefix("28") || state == "3D000":  // refused credentials, no such database
                return StoreError(.misconfigured, words, cause: error)
            default:
                return StoreError(.unexpected, words, cause: error)
            }
        default:
            return StoreError(.unexpected, "\(error.code)", cause: error)
        }
    }

    /// The innermost reason of SwiftNIO's nested connection errors, such as "Connection refused
    /// (errno: 111)", rather than their whole description.
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
