import ArgumentParser
import Foundation
import VoicemsgServer

/// `voicemsg worker`: workers only, on any machine that reaches the shared database.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Process queued messages from a shared PostgreSQL database.",
        discussion: """
            Claims jobs with FOR UPDATE SKIP LOCKED, so any number of workers on any number of \
            machines share the queue. Stops gracefully on SIGTERM or SIGINT: no new jobs, jobs \
            in flight finish within the grace period, the rest go back to the queue.
            """)

    @Option(help: "PostgreSQL URL, postgres://user:password@host:port/database. \(DatabaseURL.environmentHelp)")
    var database: String?

    @Option(help: "Jobs processed at once (default: the number of cores).")
    var concurrency: Int?

    @OptionGroup var log: LogOptions
    @OptionGroup(title: "Queue") var queue: QueueOptions

    func validate() throws {
        guard let database = DatabaseURL.resolve(database) else {
            throw ValidationError("--database is required: a postgres:// URL (or the environment variable \(DatabaseURL.environmentVariable))")
        }
        guard database.hasPrefix("postgres://") || database.hasPrefix("postgresql://") else {
            throw ValidationError("--database must be a postgres:// URL; SQLite is served by `voicemsg serve` alone")
        }
        if let concurrency, concurrency < 1 { throw ValidationError("--concurrency must be at least 1") }
    }

    func run() async throws {
        let logger = makeServerLogger(label: "voicemsg.worker", level: log.logLevel)
        var configuration = ServerDefaults.configuration.queue
        queue.apply(to: &configuration)
        do {
            let workers = try buildWorkers(
                store: .postgres(url: DatabaseURL.resolve(database) ?? ""),
                concurrency: concurrency ?? ServerDefaults.configuration.workers,
                processor: PipelineMessageProcessor(), queue: configuration, logger: logger)
            try await workers.runUntilSignalled(shutdownGrace: configuration.shutdownGrace, logger: logger)
        } catch let error as StoreError {
            throw ValidationError(error.description)
        }
    }
}
