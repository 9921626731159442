import ArgumentParser
import VoicemsgServer

/// Queue timing shared by `serve` and `worker`. The defaults suit production; tests shorten them.
struct QueueOptions: ParsableArguments {
    /// A busy worker renews its lease every third of it; below this a renewal delayed by a slow
    /// database or a busy machine can let a live worker's job be taken over.
    static let shortestLeaseSeconds = 10.0

    @Option(help: "Seconds a job stays claimed without a heartbeat (at least 10; renewed every third of it).")
    var leaseSeconds: Double = 30

    @Option(help: "Attempts before a message fails for good, counting crashed attempts.")
    var maxAttempts: Int = 5

    @Option(help: "First retry delay in seconds after a transient failure; doubles each time.")
    var retryBaseSeconds: Double = 2

    @Option(help: "Seconds between looks for work when nothing wakes an idle worker.")
    var pollSeconds: Double = 2

    @Option(help: "Seconds jobs in flight may take to finish after SIGTERM or SIGINT.")
    var shutdownGraceSeconds: Double = 20

    @Option(help: "Log level: trace, debug, info, notice, warning, error.")
    var logLevel: String = "info"

    func validate() throws {
        guard leaseSeconds > 0, pollSeconds > 0, retryBaseSeconds >= 0, shutdownGraceSeconds >= 0 else {
            throw ValidationError("times must be positive")
        }
        guard leaseSeconds >= Self.shortestLeaseSeconds else {
            throw ValidationError(
                "--lease-seconds must be at least \(Int(Self.shortestLeaseSeconds)): a live worker renews its lease every third of it, and a shorter lease can expire under a slow database")
        }
        guard maxAttempts >= 1 else { throw ValidationError("--max-attempts must be at least 1") }
    }

    var configuration: QueueConfiguration {
        var configuration = QueueConfiguration()
        configuration.leaseSeconds = leaseSeconds
        configuration.maxAttempts = maxAttempts
        configuration.retryBaseSeconds = retryBaseSeconds
        configuration.pollSeconds = pollSeconds
        configuration.shutdownGraceSeconds = shutdownGraceSeconds
        return configuration
    }
}
