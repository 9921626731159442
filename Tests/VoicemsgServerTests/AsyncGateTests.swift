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
                            try await Task.sleep(for: .milliseconds(5))
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
