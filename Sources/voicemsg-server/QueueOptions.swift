import ArgumentParser
import VoicemsgServer

/// Queue timing shared by `serve` and `worker`. The defaults suit production; tests shorten them.
struct QueueOptions: ParsableArguments {
    private static var defaults: QueueConfiguration { ServerDefaults.configuration.queue }

    @Option(help: "Seconds a job stays claimed without a heartbeat (at least \(QueueConfiguration.shortestLease.defaultValueDescription); renewed every third of it).")
    var leaseSeconds: Duration = defaults.lease

    @Option(help: "Attempts before a message fails for good, counting crashed attempts; each message takes it when it is uploaded.")
    var maxAttempts: Int = ServerDefaults.configuration.api.maxAttempts

    @Option(help: "First retry delay in seconds after a transient failure; doubles each time.")
    var retryBaseSeconds: Duration = defaults.retryBaseDelay

    @Option(help: "Seconds between looks for work when nothing wakes an idle worker.")
    var pollSeconds: Duration = defaults.pollInterval

    @Option(help: "Seconds jobs in flight may take to finish after SIGTERM or SIGINT.")
    var shutdownGraceSeconds: Duration = defaults.shutdownGrace

    func validate() throws {
        guard leaseSeconds > .zero, pollSeconds > .zero, retryBaseSeconds >= .zero, shutdownGraceSeconds >= .zero else {
            throw ValidationError("times must be positive")
        }
        let shortest = QueueConfiguration.shortestLease
        guard leaseSeconds >= shortest else {
            throw ValidationError(
                "--lease-seconds must be at least \(shortest.defaultValueDescription): a live worker renews its lease every third of it, and a shorter lease can expire under a slow database")
        }
        guard maxAttempts >= 1 else { throw ValidationError("--max-attempts must be at least 1") }
    }

    func apply(to queue: inout QueueConfiguration) {
        queue.lease = leaseSeconds
        queue.retryBaseDelay = retryBaseSeconds
        queue.pollInterval = pollSeconds
        queue.shutdownGrace = shutdownGraceSeconds
    }
}

/// How much the server says on stderr.
struct LogOptions: ParsableArguments {
    @Option(help: "Log level: trace, debug, info, notice, warning, error.")
    var logLevel: String = "info"
}
