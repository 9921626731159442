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

    @Option(help: "Longest recording in seconds; the recording page counts down to it.")
    var maxRecordingSeconds: Double = 600

    @Option(help: ArgumentHelp(
        "PEM certificate (chain) to serve HTTPS with; needs --tls-key.",
        discussion: "Browsers give the microphone to a page on another machine only over HTTPS.",
        valueName: "file"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("PEM private key of --tls-cert.", valueName: "file"))
    var tlsKey: String?

    @OptionGroup var queue: QueueOptions

    func validate() throws {
        if dataDir != nil && database != nil {
            throw ValidationError("give either --data-dir or --database, not both")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard maxUploadBytes > 0 else { throw ValidationError("--max-upload-bytes must be positive") }
        guard maxRecordingSeconds.isFinite, maxRecordingSeconds >= 1 else {
            throw ValidationError("--max-recording-seconds must be at least 1")
        }
        if (tlsCert == nil) != (tlsKey == nil) {
            throw ValidationError("HTTPS needs both --tls-cert and --tls-key")
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

/// A logger on stderr at `level`; the log system is set up once per process.
func makeServerLogger(label: String, level: String) -> Logger {
    LoggingSystem.bootstrap(StreamLogHandler.standardError)
    var logger = Logger(label: label)
    logger.logLevel = Logger.Level(rawValue: level) ?? .info
    return logger
}
