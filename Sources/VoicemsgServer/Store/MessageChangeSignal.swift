import Foundation

/// Tells long polls in this process that some message changed (added, claimed, settled, played or
/// deleted), so they re-read at once instead of waiting for their next re-check.
///
/// It is separate from `WorkSignal`, whose single remembered wake-up belongs to idle workers: a
/// poll must never take a wake-up meant for a worker. Changes made by other machines reach no
/// one here; polls re-check on a short interval for those.
///
/// A counter, not a flag: a poll notes `generation` before it reads the message, then waits
/// for it to move past that, so a change between its read and its wait is never missed.
final class MessageChangeSignal: Sendable {
    private let waiters = ParkedWaiters<UInt64>(0)

    var generation: UInt64 { waiters.state }

    /// Polls waiting now; tests use it to act only once a poll is parked.
    var waiterCount: Int { waiters.count }

    /// Wakes every waiting poll.
    func notify() {
        waiters.wakeAll { generation, _ in generation &+= 1 }
    }

    /// Returns once `generation` differs from `seen`, after `timeoutSeconds`, or on cancellation.
    func wait(after seen: UInt64, timeoutSeconds: Double) async {
        await waiters.wait(timeoutSeconds: timeoutSeconds) { generation in generation != seen }
    }
}
