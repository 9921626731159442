import ArgumentParser
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

    @Option(help: "In-process workers (default: the number of cores; 0 for none).")
    var workers: Int?

    @OptionGroup var log: LogOptions
    @OptionGroup(title: "Listening") var listening: ListenOptions
    @OptionGroup(title: "Storage") var storage: StorageOptions
    @OptionGroup(title: "Limits") var limits: LimitOptions
    @OptionGroup(title: "Timeouts") var timeouts: TimeoutOptions
    @OptionGroup(title: "Queue") var queue: QueueOptions

    /// The server these options describe, from the configuration's defaults; reads the TLS
    /// files, so a wrong one stops the command here, before the store is opened.
    func serverConfiguration() throws -> ServerConfiguration {
        var configuration = ServerDefaults.configuration
        if let workers { configuration.workers = max(0, workers) }
        try listening.apply(to: &configuration)
        storage.apply(to: &configuration)
        limits.apply(to: &configuration.api)
        timeouts.apply(to: &configuration.api)
        queue.apply(to: &configuration.queue)
        configuration.api.maxAttempts = queue.maxAttempts
        return configuration
    }

    func run() async throws {
        let logger = makeServerLogger(label: "voicemsg.serve", level: log.logLevel)
        let configuration = try serverConfiguration()
        do {
            let app = try buildApplication(configuration, logger: logger)
            try await app.runUntilSignalled(shutdownGrace: configuration.queue.shutdownGrace, logger: logger)
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
