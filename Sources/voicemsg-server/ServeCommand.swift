import ArgumentParser
import Foundation
import Logging
import VoicemsgServer

/// `voicemsg serve`: the upload server with in-process workers.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the upload server and its workers.",
        discussion: """
            Keeps everything in a SQLite data folder by default. With --database postgres://…, \
            the queue and audio live in PostgreSQL and `voicemsg worker` processes on other \
            machines can share the work. Stops gracefully on SIGTERM or SIGINT.
            """)

    @Option(help: "Port to listen on (0 picks a free one).")
    var port: Int = 8080

    @Option(help: "Address to listen on.")
    var host: String = "0.0.0.0"

    @Option(help: "SQLite data folder (default ./voicemsg-data).")
    var dataDir: String?

    @Option(help: "PostgreSQL URL, postgres://user:password@host:port/database.")
    var database: String?

    @Option(help: "In-process workers (default: the number of cores; 0 for none).")
    var workers: Int?

    @Option(help: "Largest upload in bytes.")
    var maxUploadBytes: Int = 25 * 1024 * 1024

    @Option(
        help: """
            Seconds without a byte from a client before its connection is closed: while headers \
            arrive, between body bytes, and idle between requests.
            """)
    var idleTimeoutSeconds: Double = 30

    @Option(help: "Queued and processing messages past which uploads get 503.")
    var maxQueueDepth: Int = 10_000

    @Option(help: "Uploads each token may start per minute; more get 429.")
    var uploadsPerMinutePerToken: Int = 60

    @Option(help: "Messages a run may hold; more get 409.")
    var maxMessagesPerRun: Int = 1_000

    @OptionGroup var queue: QueueOptions

    func validate() throws {
        if dataDir != nil && database != nil {
            throw ValidationError("give either --data-dir or --database, not both")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard maxUploadBytes > 0 else { throw ValidationError("--max-upload-bytes must be positive") }
        guard maxQueueDepth > 0, uploadsPerMinutePerToken > 0, maxMessagesPerRun > 0 else {
            throw ValidationError(
                "--max-queue-depth, --uploads-per-minute-per-token and --max-messages-per-run must be positive")
        }
        guard idleTimeoutSeconds.isFinite, idleTimeoutSeconds >= 0.1 else {
            throw ValidationError("--idle-timeout-seconds must be at least 0.1")
        }
    }

    func run() async throws {
        let logger = makeServerLogger(label: "voicemsg.serve", level: queue.logLevel)
        var api = APIConfiguration()
        api.maxUploadBytes = maxUploadBytes
        api.maxAttempts = queue.maxAttempts
        api.idleTimeoutSeconds = idleTimeoutSeconds
        api.maxQueueDepth = maxQueueDepth
        api.uploadsPerMinutePerToken = uploadsPerMinutePerToken
        api.maxMessagesPerRun = maxMessagesPerRun
        let workerCount = workers ?? ProcessInfo.processInfo.activeProcessorCount
        do {
            try await ServerLauncher.serve(
                location: StoreLocation(dataDirectory: dataDir, databaseURL: database),
                host: host, port: port, workers: workerCount, processor: PipelineMessageProcessor(),
                api: api, queue: queue.configuration, logger: logger)
        } catch let error as StoreError {
            throw ValidationError(error.description)
        }
    }
}

/// A logger on stderr at `level`; the log system is set up once per process.
func makeServerLogger(label: String, level: String) -> Logger {
    LoggingSystem.bootstrap(StreamLogHandler.standardError)
    var logger = Logger(label: label)
    logger.logLevel = Logger.Level(rawValue: level) ?? .info
    return logger
}
