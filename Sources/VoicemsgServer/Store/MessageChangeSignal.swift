import Foundation
import NIOConcurrencyHelpers

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
    private struct State {
        var generation: UInt64 = 0
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = NIOLockedValueBox(State())

    var generation: UInt64 { state.withLockedValue { $0.generation } }

    /// Polls waiting now; tests use it to act only once a poll is parked.
    var waiterCount: Int { state.withLockedValue { $0.waiters.count } }

    /// Wakes every waiting poll.
    func notify() {
        let all = state.withLockedValue { state in
            state.generation &+= 1
            let all = state.waiters
            state.waiters.removeAll()
            return all
        }
        for continuation in all.values { continuation.resume() }
    }

    /// Returns once `generation` differs from `seen`, after `timeoutSeconds`, or on cancellation.
    func wait(after seen: UInt64, timeoutSeconds: Double) async {
        let id = UUID()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        let resumeNow = self.state.withLockedValue { state in
                            if state.generation != seen || Task.isCancelled { return true }
                            state.waiters[id] = continuation
                            return false
                        }
                        if resumeNow { continuation.resume() }
                    }
                } onCancel: {
                    self.state.withLockedValue { $0.waiters.removeValue(forKey: id) }?.resume()
                }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(timeoutSeconds))
            }
            await group.next()
            group.cancelAll()
        }
    }
}
