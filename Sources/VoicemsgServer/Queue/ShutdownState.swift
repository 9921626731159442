import Foundation

/// The two moments of a graceful shutdown that workers react to: when they must stop claiming,
/// and when the grace period is over and jobs still in flight must be released.
final class ShutdownState: @unchecked Sendable {
    private let lock = NSLock()
    private var stopping = false
    private var expired = false
    private var expiryWaiters: [UUID: CheckedContinuation<Void, Never>] = [:]

    var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    /// Stops claiming now; releases jobs in flight after `graceSeconds`.
    func beginStopping(graceSeconds: Double) {
        lock.lock()
        let first = !stopping
        stopping = true
        lock.unlock()
        guard first else { return }
        Task {
            try? await Task.sleep(for: .seconds(graceSeconds))
            self.expire()
        }
    }

    func expire() {
        lock.lock()
        stopping = true
        expired = true
        let waiters = expiryWaiters
        expiryWaiters.removeAll()
        lock.unlock()
        for waiter in waiters.values { waiter.resume() }
    }

    /// Returns when the grace period is over, or when the calling task is cancelled.
    func waitUntilExpired() async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                lock.lock()
                if expired || Task.isCancelled {
                    lock.unlock()
                    continuation.resume()
                } else {
                    expiryWaiters[id] = continuation
                    lock.unlock()
                }
            }
        } onCancel: {
            lock.lock()
            let waiter = expiryWaiters.removeValue(forKey: id)
            lock.unlock()
            waiter?.resume()
        }
    }
}
