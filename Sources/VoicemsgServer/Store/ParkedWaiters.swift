import Foundation
import NIOConcurrencyHelpers

/// Tasks parked on a lock-protected `State` until another task wakes them, a timeout passes, or
/// they are cancelled: the waiting that `LocalWorkSignal` and `MessageChangeSignal` share. Each
/// keeps its own rule for when a waiter need not park at all (a remembered wake-up; a counter
/// that has moved), passed in as `ready`.
final class ParkedWaiters<State: Sendable>: Sendable {
    private struct Locked {
        var state: State
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    }

    private let locked: NIOLockedValueBox<Locked>

    init(_ state: State) {
        locked = NIOLockedValueBox(Locked(state: state))
    }

    /// The state, read under the lock.
    var state: State { locked.withLockedValue { $0.state } }

    /// Tasks parked now.
    var count: Int { locked.withLockedValue { $0.waiters.count } }

    /// Returns at once when `ready` says so (it runs under the lock and may change the state,
    /// say to take a remembered wake-up), else when woken, after `timeoutSeconds`, or on
    /// cancellation.
    func wait(timeoutSeconds: Double, ready: @escaping @Sendable (inout State) -> Bool) async {
        let id = UUID()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        let resumeNow = self.locked.withLockedValue { locked in
                            if ready(&locked.state) || Task.isCancelled { return true }
                            locked.waiters[id] = continuation
                            return false
                        }
                        if resumeNow { continuation.resume() }
                    }
                } onCancel: {
                    self.locked.withLockedValue { $0.waiters.removeValue(forKey: id) }?.resume()
                }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(timeoutSeconds))
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Runs `update` under the lock, told whether anyone is parked, then wakes every parked task.
    func wakeAll(_ update: (inout State, _ anyoneParked: Bool) -> Void) {
        let all = locked.withLockedValue { locked in
            update(&locked.state, !locked.waiters.isEmpty)
            let all = locked.waiters
            locked.waiters.removeAll()
            return all
        }
        for continuation in all.values { continuation.resume() }
    }
}
