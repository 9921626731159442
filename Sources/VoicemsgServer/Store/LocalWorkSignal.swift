import Foundation
import NIOConcurrencyHelpers

/// Wakes workers in this process when a job may be waiting, so they need not poll often.
///
/// This is the whole wake-up on SQLite, whose workers live in the process that owns the data
/// folder; PostgreSQL's adds LISTEN/NOTIFY around it to reach other machines.
///
/// A signal that arrives while nobody waits is remembered once, so a job enqueued just before a
/// worker starts waiting is not missed.
final class LocalWorkSignal: WorkSignal {
    private struct State {
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
        var pending = false
    }

    private let state = NIOLockedValueBox(State())

    /// Returns when signalled or after `timeoutSeconds`.
    func waitForWork(timeoutSeconds: Double) async {
        let id = UUID()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        let resumeNow = self.state.withLockedValue { state in
                            if state.pending || Task.isCancelled {
                                state.pending = false
                                return true
                            }
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

    func signalWork() async { signal() }

    /// Wakes every waiter, or the next one to wait when none is waiting.
    func signal() {
        let all = state.withLockedValue { state in
            let all = state.waiters
            state.waiters.removeAll()
            if all.isEmpty { state.pending = true }
            return all
        }
        for continuation in all.values { continuation.resume() }
    }
}
