import ServiceLifecycle

/// The four parts of one backend, opened together from a `StoreLocation`:
/// - `records`: runs and messages, as the API shows them;
/// - `audio`: each message's original upload and processed result;
/// - `queue`: the jobs workers claim, hold under a lease and settle;
/// - `signal`: the wake-up that tells idle workers a job may be waiting.
///
/// The parts share one database, and on PostgreSQL one connection pool. The `services` must run
/// (in the process's `ServiceGroup`) for as long as any part is used, and `migrate()` must have
/// succeeded before the first use.
public struct Store: Sendable {
    public let records: any RecordStore
    public let audio: any AudioStore
    public let queue: any JobQueue
    public let signal: any WorkSignal
    /// Wakes this process's long polls when a message changes.
    let changes: MessageChangeSignal
    /// A short description of where the data lives, for the startup line.
    public let location: String
    /// What must run while the store is used: PostgreSQL's connection pool and its LISTEN loop,
    /// in that order so that the loop stops first. None for SQLite.
    public let services: [any Service]
    let schema: any SchemaMigrations

    /// Brings the schema up to date. Safe to call from every process at startup.
    public func migrate() async throws {
        try await schema.migrate()
    }
}

/// A backend's numbered schema changes, applied in order, each once, to new and live databases.
protocol SchemaMigrations: Sendable {
    func migrate() async throws
}
