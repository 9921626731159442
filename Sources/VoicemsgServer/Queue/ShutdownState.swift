import Foundation
import NIOConcurrencyHelpers

/// The two moments of a graceful shutdown that workers react to: when they must stop claiming,
/// and when the grace period is over and jobs still in flight must be released.
final class ShutdownState: Sendable {
    private struct State {
        var stopping = false
        var expired = false
        var expiryWaiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = NIOLockedValueBox(State())

    var isStopping: Bool {
        state.withLockedValue { $0.stopping }
    }

    /// Stops claiming now; releases jobs in flight after `graceSeconds`.
    func beginStopping(graceSeconds: Double) {
        let first = state.withLockedValue { state in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else { return }
        Task {
            try? await Task.sleep(for: .seconds(graceSeconds))
            self.expire()
        }
    }

    func expire() {
        let waiters = state.withLockedValue { state in
            state.stopping = true
            state.expired = true
            defer { state.expiryWaiters.removeAll() }
            return state.expiryWaiters
        }
        for waiter in waiters.values { waiter.resume() }
    }

    /// Returns when the grace period is over, or when the calling task is cancelled.
    func waitUntilExpired() async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLockedValue { state in
                    if state.expired || Task.isCancelled { return true }
                    state.expiryWaiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLockedValue { $0.expiryWaiters.removeValue(forKey: id) }?.resume()
        }
    }
}
