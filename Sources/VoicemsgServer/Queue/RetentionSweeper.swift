import AsyncAlgorithms
import Foundation
import Logging
import ServiceLifecycle

/// Deletes the uploads of messages that failed longer ago than the retention period, once at
/// start and then every `interval`. Failed uploads are rejected bytes nobody will
/// listen to, and anyone with an invite can make them: kept forever, they would fill the disk.
struct RetentionSweeper: Service {
    let store: Store
    let keepFailed: Duration
    let interval: Duration
    let logger: Logger

    /// One sweep as of `now`, keeping what failed within `keepFailedSeconds` (both in the
    /// store's seconds since 1970): returns how many uploads were deleted.
    static func sweep(_ store: Store, keepFailedSeconds: Double, now: Double) async throws -> Int {
        try await store.queue.purgeFailedOriginals(failedAtOrBefore: now - keepFailedSeconds)
    }

    func run() async throws {
        await sweepOnce()
        // The timer's sequence ends at graceful shutdown, and the service returns: the process
        // then exits 0, as after any graceful shutdown.
        for await _ in AsyncTimerSequence(interval: interval, clock: .continuous).cancelOnGracefulShutdown() {
            await sweepOnce()
        }
    }

    private func sweepOnce() async {
        do {
            let deleted = try await Self.sweep(
                store, keepFailedSeconds: keepFailed.inSeconds, now: Date().timeIntervalSince1970)
            if deleted > 0 {
                logger.info("deleted the uploads of \(deleted) messages failed over \(keepFailed.inSeconds) s ago")
            }
        } catch {
            logger.warning("retention sweep failed, trying again later: \(error)")
        }
    }
}
