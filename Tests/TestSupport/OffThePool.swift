import Foundation

/// Runs `work` on a thread of its own and waits for it there. For a test's long blocking work
/// (a child process it waits minutes on, minutes of arithmetic): on one of Swift concurrency's
/// cooperative threads, of which there are as many as cores, it would hold up every other
/// test's tasks meanwhile, and with them the servers the tests run in this process, whose
/// timeouts then fire late. Expectations belong after it, on the test's own task.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
