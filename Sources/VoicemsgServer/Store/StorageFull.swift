import GRDB
import HTTPTypes
import Hummingbird
import PostgresNIO

/// Whether a store's error means its disk is full, so the upload gets 507 (try again later)
/// rather than 500: SQLite's SQLITE_FULL, PostgreSQL's disk_full (53100).
enum StorageFull {
    static func matches(_ error: any Error) -> Bool {
        if let error = error as? DatabaseError { return error.resultCode == .SQLITE_FULL }
        if let error = error as? PSQLError { return error.serverInfo?[.sqlState] == "53100" }
        return false
    }

    /// 507 for a change other than an upload: it rolled back, so nothing changed.
    static let unchanged = HTTPError(
        HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"),
        message: "the server's disk is full; nothing was changed; try again once space is freed")
}
