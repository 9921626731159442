/// Lets at most `limit` tasks through at once; the others wait their turn, first come first
/// served. Waiting is cheap: a waiting upload is already spooled to a file.
actor AsyncGate {
    private let limit: Int
    private var inside = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) {
        precondition(limit > 0, "a gate lets at least one task through")
        self.limit = limit
    }

    /// Runs `body` once a place is free, and frees it after, whether `body` throws or not.
    nonisolated func pass<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await enter()
        do {
            let value = try await body()
            await leave()
            return value
        } catch {
            await leave()
            throw error
        }
    }

    private func enter() async {
        if inside < limit {
            inside += 1
            return
        }
        // The place is handed over by `leave`, so `inside` stays counted for this task.
        await withCheckedContinuation { waiting.append($0) }
    }

    private func leave() {
        if waiting.isEmpty {
            inside -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
