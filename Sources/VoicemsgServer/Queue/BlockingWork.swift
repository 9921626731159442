import Foundation

/// Runs blocking, CPU-heavy work on a Dispatch thread, off Swift's cooperative pool, so the
/// HTTP server and heartbeats stay responsive while every worker is busy.
///
/// Cancelling the waiting task returns at once with `CancellationError`; the work itself cannot
/// be interrupted and finishes on its thread, its result dropped.
func runBlocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    let box = OnceContinuation<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            box.set(continuation)
            DispatchQueue.global().async {
                box.resume(with: Result { try work() })
            }
        }
    } onCancel: {
        box.resume(with: .failure(CancellationError()))
    }
}

/// A continuation that is resumed at most once, by whichever of work or cancellation comes first.
private final class OnceContinuation<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?
    private var early: Result<T, any Error>?
    private var done = false

    func set(_ continuation: CheckedContinuation<T, any Error>) {
        lock.lock()
        if let early {
            lock.unlock()
            continuation.resume(with: early)
            return
        }
        self.continuation = continuation
        lock.unlock()
    }

    func resume(with result: Result<T, any Error>) {
        lock.lock()
        guard !done else {
            lock.unlock()
            return
        }
        done = true
        if let continuation {
            self.continuation = nil
            lock.unlock()
            continuation.resume(with: result)
        } else {
            early = result
            lock.unlock()
        }
    }
}
