import Foundation

// A test's long work (a child process it waits minutes on, minutes of arithmetic) runs on
// threads of its own. On Linux, Swift concurrency's cooperative pool and Dispatch's global
// queues share Dispatch's worker threads, as many as there are cores: two here. Work held on
// one of them, or spread over all of them with DispatchQueue.concurrentPerform, leaves every
// other test's tasks waiting, and with them the servers the tests run in this process, whose
// timeouts and rate limits then see minutes pass between two requests. Threads of their own
// share the cores with the pool instead. Expectations belong after it, on the test's own task.

/// Runs `work` on a thread of its own and waits for it there.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// `transform` of every index in `0..<count`, in order, made on one thread of its own a core.
public func offThePool<T: Sendable>(count: Int, _ transform: @escaping @Sendable (Int) throws -> T) async throws -> [T] {
    let workers = max(1, min(count, ProcessInfo.processInfo.activeProcessorCount))
    let progress = Locked(ParallelProgress<T>(results: Array(repeating: nil, count: count), running: workers))
    return try await withCheckedThrowingContinuation { continuation in
        for _ in 0..<workers {
            Thread.detachNewThread {
                while let index = progress.withLock({ state -> Int? in
                    guard state.error == nil, state.next < count else { return nil }
                    defer { state.next += 1 }
                    return state.next
                }) {
                    do {
                        let result = try transform(index)
                        progress.withLock { $0.results[index] = result }
                    } catch {
                        progress.withLock { $0.error = $0.error ?? error }
                    }
                }
                let finished = progress.withLock { state -> Result<[T], any Error>? in
                    state.running -= 1
                    guard state.running == 0 else { return nil }
                    if let error = state.error { return .failure(error) }
                    return .success(state.results.map { $0! })
                }
                if let finished { continuation.resume(with: finished) }
            }
        }
    }
}

/// How far `offThePool(count:_:)` has got: the next index to take, what is made, the first error,
/// and how many of its threads still work.
private struct ParallelProgress<T> {
    var next = 0
    var results: [T?]
    var error: (any Error)?
    var running: Int
}
