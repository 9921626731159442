import Foundation
import NIOConcurrencyHelpers

/// The two moments of a graceful shutdown that workers react to: when they must stop claiming,
/// and when the grace period is over and jobs still in flight must be released.
final class ShutdownState: Sendable {
    private struct State {
        var stopping = false
        var expired = false
        var expiryWaiters: [UUID: CheckedContinuation<Void, Never>] = [:]
        var stopWaiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = NIOLockedValueBox(State())

    var isStopping: Bool {
        state.withLockedValue { $0.stopping }
    }

    /// Stops claiming now; releases jobs in flight after `grace`.
    func beginStopping(grace: Duration) {
        let (first, waiters) = state.withLockedValue { state in
            defer {
                state.stopping = true
                state.stopWaiters.removeAll()
            }
            return (!state.stopping, state.stopWaiters)
        }
        for waiter in waiters.values { waiter.resume() }
        guard first else { return }
        Task {
            try? await Task.sleep(for: grace)
            self.expire()
        }
    }

    func expire() {
        let waiters = state.withLockedValue { state in
            state.stopping = true
            state.expired = true
            defer {
                state.expiryWaiters.removeAll()
                state.stopWaiters.removeAll()
            }
            return Array(state.expiryWaiters.values) + Array(state.stopWaiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns when workers must stop claiming, or when the calling task is cancelled.
    func waitUntilStopping() async {
        await park(until: \.stopping, among: \.stopWaiters)
    }

    /// Sleeps `seconds`, or less when workers must stop meanwhile.
    func sleep(seconds: Double) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: .seconds(seconds)) }
            group.addTask { await self.waitUntilStopping() }
            await group.next()
            group.cancelAll()
        }
    }

    /// Returns when the grace period is over, or when the calling task is cancelled.
    func waitUntilExpired() async {
        await park(until: \.expired, among: \.expiryWaiters)
    }

    /// Waits among `waiters` until the flag `done` is set (whoever sets it resumes them all),
    /// or until the calling task is cancelled.
    private func park(
        until done: KeyPath<State, Bool> & Sendable,
        among waiters: WritableKeyPath<State, [UUID: CheckedContinuation<Void, Never>]> & Sendable
    ) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLockedValue { state in
                    if state[keyPath: done] || Task.isCancelled { return true }
                    state[keyPath: waiters][id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLockedValue { $0[keyPath: waiters].removeValue(forKey: id) }?.resume()
        }
    }
}
