import Foundation

/// Wakes workers in this process when a job may be waiting, so they need not poll often.
///
/// A signal that arrives while nobody waits is remembered once, so a job enqueued just before a
/// worker starts waiting is not missed.
final class WorkSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    private var pending = false

    /// Returns when signalled or after `timeoutSeconds`.
    func wait(timeoutSeconds: Double) async {
        let id = UUID()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        self.lock.lock()
                        if self.pending || Task.isCancelled {
                            self.pending = false
                            self.lock.unlock()
                            continuation.resume()
                        } else {
                            self.waiters[id] = continuation
                            self.lock.unlock()
                        }
                    }
                } onCancel: {
                    self.resume(id)
                }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(timeoutSeconds))
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Wakes every waiter, or the next one to wait when none is waiting.
    func signal() {
        lock.lock()
        let all = waiters
        waiters.removeAll()
        if all.isEmpty { pending = true }
        lock.unlock()
        for continuation in all.values { continuation.resume() }
    }

    private func resume(_ id: UUID) {
        lock.lock()
        let continuation = waiters.removeValue(forKey: id)
        lock.unlock()
        continuation?.resume()
    }
}
