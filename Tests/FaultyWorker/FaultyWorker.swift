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
    var leaseSeconds: Double = 30

    @Option(help: "Seconds between looks for work when nothing wakes an idle worker.")
    var pollSeconds: Double = 2

    @Option(help: "Seconds jobs in flight may take to finish after SIGTERM or SIGINT.")
    var shutdownGraceSeconds: Double = 20

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
        queue.leaseSeconds = leaseSeconds
        queue.pollSeconds = pollSeconds
        queue.shutdownGraceSeconds = shutdownGraceSeconds
        try await ServerLauncher.work(
            location: StoreLocation(dataDirectory: dataDir, databaseURL: database),
            concurrency: concurrency,
            processor: FaultyProcessor(delayMilliseconds: delayMs, crashSender: crashSender),
            queue: queue, logger: logger)
    }
}
