import Logging
import TestSupport

/// A log kept in memory, each line as `StreamLogHandler` writes it to a server's stderr.
final class LogCapture: TextOutputStream, Sendable {
    private let lines = Locked("")

    func write(_ string: String) {
        lines.withLock { $0 += string }
    }

    var text: String { lines.withLock { $0 } }

    func logger(label: String, level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: label) { StreamLogHandler(label: $0, stream: self) }
        logger.logLevel = level
        return logger
    }
}
