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

    @Option(help: "Address to listen on: 0.0.0.0 takes connections on every interface (phones on the LAN); 127.0.0.1 this machine only.")
    var host: String = "0.0.0.0"

    @Option(help: "SQLite data folder (default ./voicemsg-data).")
    var dataDir: String?

    @Option(help: "PostgreSQL URL, postgres://user:password@host:port/database.")
    var database: String?

    @Option(help: "In-process workers (default: the number of cores; 0 for none).")
    var workers: Int?

    @Option(help: "Largest upload in bytes.")
    var maxUploadBytes: Int = 25 * 1024 * 1024

    @Option(help: "Longest recording in seconds; the recording page counts down to it.")
    var maxRecordingSeconds: Double = 600

    @Option(help: ArgumentHelp(
        "PEM certificate (chain) to serve HTTPS with; needs --tls-key.",
        discussion: "Browsers give the microphone to a page on another machine only over HTTPS.",
        valueName: "file"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("PEM private key of --tls-cert.", valueName: "file"))
    var tlsKey: String?

    @Option(help: "Runs one client address may create per minute; more get 429 with Retry-After.")
    var runsPerMinute: Int = 20

    @Flag(help: "Close run creation to the public: only requests bearing the token in VOICEMSG_ADMIN_TOKEN create runs.")
    var adminOnlyRuns = false

    @Option(help: "Days the upload of a failed message is kept before it is deleted.")
    var failedRetentionDays: Double = 7
    @Option(
        help: """
            Seconds without a byte from a client before its connection is closed: while headers \
            arrive, between body bytes, and idle between requests.
            """)
    var idleTimeoutSeconds: Double = 30
    @Option(
        help: """
            Seconds from a request's first byte until its headers must have arrived whole, \
            however steadily they trickle in; past it the connection is closed.
            """)
    var headerTimeoutSeconds: Double = 10
    @Option(
        help: """
            The slowest upload kept: after 20 s, a body must average this many bytes a second or \
            it is cut off with 408 (0: no limit).
            """)
    var minUploadBytesPerSecond: Double = 500

    @Option(help: "Queued and processing messages past which uploads get 503.")
    var maxQueueDepth: Int = 10_000

    @Option(help: "Uploads each token may start per minute; more get 429.")
    var uploadsPerMinutePerToken: Int = 60

    @Option(help: "Messages a run may hold; more get 409.")
    var maxMessagesPerRun: Int = 1_000

    @Option(help: "Uploads received and stored at once; more get 503 with Retry-After, so that health checks and the API stay responsive.")
    var maxConcurrentUploads: Int = 128

    @OptionGroup var queue: QueueOptions

    func validate() throws {
        if dataDir != nil && database != nil {
            throw ValidationError("give either --data-dir or --database, not both")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard maxUploadBytes > 0 else { throw ValidationError("--max-upload-bytes must be positive") }
        guard failedRetentionDays.isFinite, failedRetentionDays >= 0 else {
            throw ValidationError("--failed-retention-days must be 0 or more")
        }
        guard runsPerMinute > 0 else { throw ValidationError("--runs-per-minute must be positive") }
        if adminOnlyRuns, Self.adminToken == nil {
            throw ValidationError(
                "--admin-only-runs needs the admin token in the environment variable VOICEMSG_ADMIN_TOKEN (at least 32 characters)")
        }
        guard maxRecordingSeconds.isFinite, maxRecordingSeconds >= 1 else {
            throw ValidationError("--max-recording-seconds must be at least 1")
        }
        if (tlsCert == nil) != (tlsKey == nil) {
            throw ValidationError("HTTPS needs both --tls-cert and --tls-key")
        }
        guard maxQueueDepth > 0, uploadsPerMinutePerToken > 0, maxMessagesPerRun > 0, maxConcurrentUploads > 0 else {
            throw ValidationError(
                "--max-queue-depth, --uploads-per-minute-per-token, --max-messages-per-run and --max-concurrent-uploads must be positive")
        }
        guard idleTimeoutSeconds.isFinite, idleTimeoutSeconds >= 0.1 else {
            throw ValidationError("--idle-timeout-seconds must be at least 0.1")
        }
        guard headerTimeoutSeconds.isFinite, headerTimeoutSeconds >= 0.1 else {
            throw ValidationError("--header-timeout-seconds must be at least 0.1")
        }
        guard minUploadBytesPerSecond.isFinite, minUploadBytesPerSecond >= 0 else {
            throw ValidationError("--min-upload-bytes-per-second must be 0 or more")
        }
    }

    func run() async throws {
        let logger = makeServerLogger(label: "voicemsg.serve", level: queue.logLevel)
        var api = APIConfiguration()
        api.maxUploadBytes = maxUploadBytes
        api.maxAttempts = queue.maxAttempts
        api.maxRecordingSeconds = maxRecordingSeconds
        var pipeline = PipelineMessageProcessor.uploadConfiguration
        pipeline.limits.maximumDurationSeconds = maxRecordingSeconds

        api.runCreationsPerMinute = runsPerMinute
        api.failedOriginalRetentionSeconds = failedRetentionDays * 86_400
        // From the environment, not the command line, so it does not show in `ps`.
        api.adminTokenHash = adminOnlyRuns ? Self.adminToken.map(SecureIdentifier.hash(token:)) : nil
        api.idleTimeoutSeconds = idleTimeoutSeconds
        api.headerTimeoutSeconds = headerTimeoutSeconds
        api.minimumUploadBytesPerSecond = minUploadBytesPerSecond
        api.maxQueueDepth = maxQueueDepth
        api.uploadsPerMinutePerToken = uploadsPerMinutePerToken
        api.maxMessagesPerRun = maxMessagesPerRun
        api.maxConcurrentUploads = maxConcurrentUploads
        let workerCount = workers ?? ProcessInfo.processInfo.activeProcessorCount
        // Checked before anything starts; the error is one line naming the option and file.
        let tls = try tlsCert.flatMap { cert in try tlsKey.map { try TLSIdentity(certificatePath: cert, keyPath: $0) } }
        do {
            try await ServerLauncher.serve(
                location: StoreLocation(dataDirectory: dataDir, databaseURL: database),
                host: host, port: port, workers: workerCount, processor: PipelineMessageProcessor(configuration: pipeline),
                api: api, queue: queue.configuration, tls: tls, logger: logger)
        } catch let error as StoreError {
            throw ValidationError(error.description)
        }
    }
}

extension ServeCommand {
    /// The operator's admin token, when it is long enough to be unguessable.
    static var adminToken: String? {
        ProcessInfo.processInfo.environment["VOICEMSG_ADMIN_TOKEN"].flatMap { $0.count >= 32 ? $0 : nil }
    }
}

/// A logger on stderr at `level`; the log system is set up once per process.
func makeServerLogger(label: String, level: String) -> Logger {
    LoggingSystem.bootstrap(StreamLogHandler.standardError)
    var logger = Logger(label: label)
    logger.logLevel = Logger.Level(rawValue: level) ?? .info
    return logger
}
