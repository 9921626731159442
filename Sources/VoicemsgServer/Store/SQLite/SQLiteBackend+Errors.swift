import Foundation
import GRDB

extension SQLiteBackend {
    /// GRDB's errors as the store's, by SQLite's primary result code. A `StoreError` or a
    /// cancellation passes unchanged.
    static func storeError(_ error: any Error) -> any Error {
        switch error {
        case is StoreError, is CancellationError:
            return error
        case let error as DatabaseError:
            let words = error.message ?? "SQLite error \(error.resultCode.rawValue)"
            switch error.resultCode {
            case .SQLITE_FULL:
                return StoreError(.storageFull, "the data folder's disk is full (\(words))", cause: error)
            case .SQLITE_CONSTRAINT:
                return StoreError(.conflict, words, cause: error)
            case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_NOTADB, .SQLITE_AUTH:
                return StoreError(.misconfigured, words, cause: error)
            default:
                return StoreError(.unexpected, words, cause: error)
            }
        case is RowDecodingError, is DecodingError:
            return StoreError(.unreadableRow, "a stored row could not be read", cause: error)
        default:
            return StoreError(.unexpected, "\(error)", cause: error)
        }
    }

    /// Runs `body` in a read-only snapshot; errors come out as `StoreError`.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.read(body)
        } catch {
            throw Self.storeError(error)
        }
    }
}
