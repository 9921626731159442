import Foundation
import GRDB

/// The default backend's database: one SQLite file in a data folder, for one machine with no
/// setup. The SQLite parts of the store share it.
///
/// The database runs in WAL mode (readers never block the writer) with a busy timeout, and every
/// change to the queue is one `BEGIN IMMEDIATE` transaction, so two writers, even in two
/// processes sharing the folder, never interleave inside a claim.
struct SQLiteBackend: Sendable {
    let pool: DatabasePool
    let path: String

    /// Opens (creating when needed) `voicemsg.sqlite` in `dataDirectory`.
    init(dataDirectory: String, busyTimeoutSeconds: Double = 10) throws {
        do {
            try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        } catch {
            throw StoreError(
                .misconfigured, "cannot create the data folder \(dataDirectory): \(error.localizedDescription)",
                cause: error)
        }
        path = URL(fileURLWithPath: dataDirectory).appendingPathComponent("voicemsg.sqlite").path
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeoutSeconds)
        configuration.label = "voicemsg"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            // FULL, not NORMAL: in WAL mode NORMAL may lose the last commits to a power loss,
            // and a 202 promises the upload is kept.
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw StoreError.context("cannot open the database at \(path)", Self.storeError(error))
        }
    }

    static func now() -> Double { Date().timeIntervalSince1970 }

    /// Runs `body` in one IMMEDIATE transaction: the write lock is taken at BEGIN, so the reads
    /// inside see exactly what the writes act on. Errors come out as `StoreError`.
    func immediate<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        } catch {
            throw Self.storeError(error)
        }
    }
}
