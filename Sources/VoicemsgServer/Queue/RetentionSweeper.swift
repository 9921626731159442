import Foundation
import Logging
import ServiceLifecycle

/// Deletes the uploads of messages that failed longer ago than the retention period, once at
/// start and then every `intervalSeconds`. Failed uploads are rejected bytes nobody will
/// listen to, and anyone with an invite can make them: kept forever, they would fill the disk.
struct RetentionSweeper: Service {
    let store: Store
    let keepFailedSeconds: Double
    let intervalSeconds: Double
    let logger: Logger

    /// One sweep as of `now` (seconds since 1970): returns how many uploads were deleted.
    static func sweep(_ store: Store, keepFailedSeconds: Double, now: Double) async throws -> Int {
        try await store.queue.purgeFailedOriginals(failedAtOrBefore: now - keepFailedSeconds)
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let deleted = try await Self.sweep(
                        store, keepFailedSeconds: keepFailedSeconds, now: Date().timeIntervalSince1970)
                    if deleted > 0 { logger.info("deleted the uploads of \(deleted) messages failed over \(keepFailedSeconds) s ago") }
                } catch {
                    logger.warning("retention sweep failed, trying again later: \(error)")
                }
                // Cancelled at graceful shutdown: the loop ends, and the process exits 0 (a thrown
                // CancellationError would make `serve` exit 1 on SIGTERM).
                try? await Task.sleep(for: .seconds(intervalSeconds))
            }
        }
    }
}
