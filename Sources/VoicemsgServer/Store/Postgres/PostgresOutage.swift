import Logging
import NIOConcurrencyHelpers

/// Whether PostgreSQL is reachable, so that an outage is logged once when it starts and once
/// when it ends, however many queries, connections and workers meet it meanwhile.
///
/// It hears only the store's own calls (`PostgresBackend.run`): one that fails as
/// `.unreachable` starts an outage, and one begun after the outage started that succeeds ends
/// it. A call begun before says nothing of now: it may have been answered just before the
/// connection went, or have waited through the outage for the pool to connect again.
final class PostgresOutage: Sendable {
    private let downSince = NIOLockedValueBox<ContinuousClock.Instant?>(nil)
    private let logger: Logger
    private let redactedURL: String

    init(logger: Logger, redactedURL: String) {
        self.logger = logger
        self.redactedURL = redactedURL
    }

    /// A call found PostgreSQL unreachable: the first since it was last reached logs one line.
    func failed(_ error: StoreError) {
        let first = downSince.withLockedValue { downSince in
            guard downSince == nil else { return false }
            downSince = .now
            return true
        }
        guard first else { return }
        logger.warning(
            "PostgreSQL at \(redactedURL) unreachable (\(error.message)); waiting and reconnecting with backoff")
    }

    /// A call begun at `start` was answered: the end of an outage that started before it logs
    /// one line.
    func reached(callStartedAt start: ContinuousClock.Instant) {
        let since = downSince.withLockedValue { downSince -> ContinuousClock.Instant? in
            guard let since = downSince, since < start else { return nil }
            downSince = nil
            return since
        }
        guard let since else { return }
        let seconds = (ContinuousClock.now - since).components.seconds
        logger.notice("PostgreSQL at \(redactedURL) reachable again after \(seconds) s")
    }
}
