import ArgumentParser
import Foundation
import Logging
import VoicemsgServer

/// Real workers, as `voicemsg worker` runs them, around a `FaultyProcessor`: the crash, poison
/// and shutdown tests start it as a child process, and the queue bench measures the queue alone
/// with it. It is built with the tests and never shipped.
@main
struct FaultyWorker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Queue workers whose jobs return the upload, with faults for tests.")

    @Option(help: "SQLite data folder.")
    var dataDir: String?

    @Option(help: "PostgreSQL URL.")
    var database: String?

    @Option(help: "Jobs processed at once.")
    var concurrency: Int = 1

    @Option(help: "Seconds a job stays claimed without a heartbeat.")
    var leaseSeconds: Double = QueueConfiguration().lease.inSeconds

    @Option(help: "Seconds between looks for work when nothing wakes an idle worker.")
    var pollSeconds: Double = QueueConfiguration().pollInterval.inSeconds

    @Option(help: "Seconds jobs in flight may take to finish after SIGTERM or SIGINT.")
    var shutdownGraceSeconds: Double = QueueConfiguration().shutdownGrace.inSeconds

    @Option(help: "Milliseconds each job sleeps before it returns.")
    var delayMs: Int = 0

    @Option(help: "A job from this sender kills the process with SIGKILL.")
    var crashSender: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error.")
    var logLevel: String = "info"

    func validate() throws {
        guard (dataDir == nil) != (database == nil) else {
            throw ValidationError("give either --data-dir or --database")
        }
    }

    func run() async throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "voicemsg.worker")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        var queue = QueueConfiguration()
        queue.lease = .seconds(leaseSeconds)
        queue.pollInterval = .seconds(pollSeconds)
        queue.shutdownGrace = .seconds(shutdownGraceSeconds)
        let workers = try buildWorkers(
            store: StoreLocation(dataDirectory: dataDir, databaseURL: database),
            concurrency: concurrency,
            processor: FaultyProcessor(delayMilliseconds: delayMs, crashSender: crashSender),
            queue: queue, logger: logger)
        try await workers.runUntilSignalled(shutdownGrace: queue.shutdownGrace, logger: logger)
    }
}
