import Foundation
import Testing
import TestSupport
@testable import VoicemsgServer

/// The gate that lets uploads into PostgreSQL a few at a time: never more inside than its
/// limit, everyone through in the end, and a place freed when a task throws.
struct AsyncGateTests {
    actor Counter {
        var inside = 0
        var most = 0
        var done = 0
        func enter() { inside += 1; most = max(most, inside) }
        func leave() { inside -= 1; done += 1 }
        /// Whether as many are inside as the gate should let in, of those still to finish.
        func isFull(limit: Int, of total: Int) -> Bool { inside >= min(limit, total - done) }
    }

    struct Refused: Error {}

    @Test(arguments: [1, 2, 3])
    func neverMoreInsideThanTheLimit(limit: Int) async throws {
        let gate = AsyncGate(limit: limit)
        let counter = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<24 {
                group.addTask {
                    do {
                        try await gate.pass {
                            await counter.enter()
                            // Stays until the others the gate should let in are inside too, so
                            // that a slow scheduler cannot make the gate look stricter than it
                            // is; a gate that lets fewer in ends the wait at the deadline.
                            let deadline = ContinuousClock.now + .seconds(5)
                            while await !counter.isFull(limit: limit, of: 24), ContinuousClock.now < deadline {
                                try await Task.sleep(for: .milliseconds(1))
                            }
                            await counter.leave()
                            // Every third one fails inside: its place must still be freed.
                            if index % 3 == 0 { throw Refused() }
                        }
                    } catch is Refused {}
                }
            }
            try await group.waitForAll()
        }
        #expect(await counter.done == 24)
        #expect(await counter.most == limit, "at most \(limit) inside at once, and the gate let that many in")
    }
}
