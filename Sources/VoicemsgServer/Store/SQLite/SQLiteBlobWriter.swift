import Foundation
import GRDB
import GRDBSQLite

/// Fills a blob already sized with `zeroblob(n)` from a file, a piece at a time, through
/// SQLite's incremental blob I/O: the file is never read whole into memory.
enum SQLiteBlobWriter {
    static let pieceBytes = 1 << 20

    static func copy(file: URL, length: Int, into db: Database, table: String, column: String, rowID: Int64) throws {
        let input = try FileHandle.closingOnExec(forReadingFrom: file)
        defer { try? input.close() }
        var blob: OpaquePointer?
        let opened = sqlite3_blob_open(db.sqliteConnection, "main", table, column, rowID, 1, &blob)
        defer { sqlite3_blob_close(blob) }
        guard opened == SQLITE_OK, let blob else {
            throw DatabaseError(resultCode: ResultCode(rawValue: opened), message: "could not open the upload's blob")
        }
        var offset = 0
        while offset < length {
            let piece = try input.read(upToCount: min(pieceBytes, length - offset)) ?? Data()
            guard !piece.isEmpty else {
                throw StoreError(.unexpected, "the upload's file ended after \(offset) of its \(length) bytes")
            }
            let written = piece.withUnsafeBytes { bytes in
                sqlite3_blob_write(blob, bytes.baseAddress, Int32(bytes.count), Int32(offset))
            }
            guard written == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: written), message: "could not write the upload's blob")
            }
            offset += piece.count
        }
    }
}
