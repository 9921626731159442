import Foundation
import Testing
import TestSupport

@testable import VoicemsgServer

/// Real worker processes (`WorkerProcess`), killed, stopped and signalled. These tests are about
/// jobs, not audio.
@Suite(.serialized) struct ProcessTests {
    @Test(.needsPostgreSQL) func killedWorkersLoseNothingAndNoJobCompletesTwice() async throws {
        let (directory, open, run) = try await WorkerProcess.sharedStore(.postgres)
        defer { Task { await open.close() } }
        let (store, location) = (open.store, open.location)
        let originals = try await WorkerProcess.enqueueTraceable(50, in: store, runID: run.id)

        let faults = ["--delay-ms", "150"]
        var workers: [ChildProcess] = []
        for index in 0..<2 {
            workers.append(
                try await WorkerProcess.start(
                    location, directory: directory, name: "worker\(index)", concurrency: 2, lease: 1.5,
                    faults: faults))
        }
        var everyWorker = workers
        var kills = 0
        // Kill a worker while it holds a job, several times, starting a replacement each time.
        for round in 0..<4 {
            let victimIndex = round % workers.count
            let victim = workers[victimIndex]
            let caught = try await eventually(within: 20) {
                try await !WorkerProcess.held(by: victim.pid, in: store, runID: run.id).isEmpty
            }
            if !caught { break }
            victim.send(SIGKILL)
            _ = try await victim.waitForExit(seconds: 5)
            kills += 1
            let replacement = try await WorkerProcess.start(
                location, directory: directory, name: "replacement\(round)", concurrency: 2,
                lease: 1.5, faults: faults)
            workers[victimIndex] = replacement
            everyWorker.append(replacement)
        }
        #expect(kills >= 3, "workers were killed mid-job \(kills) times")

        let allReady = try await eventually(within: 120) {
            try await store.statusCounts()[.ready] == 50
        }
        for worker in workers { worker.send(SIGTERM) }
        for worker in workers { _ = try await worker.waitForExit(seconds: 15) }
        for worker in everyWorker { await worker.stop() }
        let finalCounts = try await store.statusCounts()
        #expect(allReady, "every job ends ready; counts: \(finalCounts)")

        let logs = everyWorker.map(\.log).joined(separator: "\n").split(separator: "\n")
        var rescued = 0
        #expect(logs.contains { $0.contains("] completed") }, "the workers log each completion")
        for (id, original) in originals {
            let record = try #require(try await store.message(id: id))
            #expect(record.status == .ready)
            // One result, and it is this job's own (the noop result is the upload).
            #expect(try await store.audio(messageID: id) == original)
            #expect(try await !store.hasOriginal(messageID: id))
            let completions = logs.filter { $0.contains("message=\(id)") && $0.contains("] completed") }
            #expect(completions.count <= 1, "message \(id) completed \(completions.count) times")
            if record.attempts > 1 { rescued += 1 }
        }
        #expect(rescued >= kills, "jobs held by killed workers were rescued and retried")
    }

    @Test(.needsPostgreSQL) func workerStoppedPastItsLeaseCannotOverwriteTheNewResult() async throws {
        let (directory, open, run) = try await WorkerProcess.sharedStore(.postgres)
        defer { Task { await open.close() } }
        let (store, location) = (open.store, open.location)
        let message = try await enqueue(in: store, runID: run.id, bytes: Data("the real one".utf8))

        let slow = try await WorkerProcess.start(
            location, directory: directory, name: "slow", concurrency: 1, lease: 2,
            faults: ["--delay-ms", "5000"])
        defer { Task { await slow.stop() } }
        #expect(try await eventually(within: 20) {
            try await !WorkerProcess.held(by: slow.pid, in: store, runID: run.id).isEmpty
        })
        slow.send(SIGSTOP)
        try await Task.sleep(for: .seconds(3))

        let fast = try await WorkerProcess.start(location, directory: directory, name: "fast", concurrency: 1, lease: 1)
        defer { Task { await fast.stop() } }
        #expect(try await eventually(within: 20) {
            try await store.message(id: message.id)?.status == .ready
        })
        let done = try #require(try await store.message(id: message.id))
        #expect(done.completedBy?.contains("-\(fast.pid)-") == true)
        #expect(done.attempts == 2)

        slow.send(SIGCONT)
        #expect(try await eventually(within: 15) { slow.log.contains("lease lost") }, "\(slow.log)")
        let after = try #require(try await store.message(id: message.id))
        #expect(after.status == .ready)
        #expect(after.completedBy == done.completedBy)
        #expect(after.attempts == 2)
        #expect(try await store.audio(messageID: message.id) == Data("the real one".utf8))
        slow.send(SIGTERM)
        fast.send(SIGTERM)
        #expect(try await slow.waitForExit(seconds: 15) == 0)
        #expect(try await fast.waitForExit(seconds: 15) == 0)
    }

    @Test func poisonJobFailsAfterMaxAttemptsInsteadOfLoopingOnSQLite() async throws { try await poisonJobFailsAfterMaxAttemptsInsteadOfLooping(.sqlite) }
    @Test(.needsPostgreSQL) func poisonJobFailsAfterMaxAttemptsInsteadOfLoopingOnPostgreSQL() async throws { try await poisonJobFailsAfterMaxAttemptsInsteadOfLooping(.postgres) }
    private func poisonJobFailsAfterMaxAttemptsInsteadOfLooping(_ backend: Backend) async throws {
        let (directory, open, run) = try await WorkerProcess.sharedStore(backend)
        defer { Task { await open.close() } }
        let (store, location) = (open.store, open.location)
        let poison = try await enqueue(in: store, runID: run.id, sender: "poison", maxAttempts: 3)
        let healthy = try await enqueue(in: store, runID: run.id, meters: 2000, sender: "friend", maxAttempts: 3)

        var starts = 0
        while starts < 8, try await store.message(id: poison.id)?.status != .failed {
            starts += 1
            let worker = try await WorkerProcess.start(
                location, directory: directory, name: "poisoned\(starts)", concurrency: 1, lease: 0.6,
                faults: ["--crash-sender", "poison"])
            let crashedOrDone = try await eventually(within: 20) {
                if !worker.isRunning { return true }
                return try await store.message(id: poison.id)?.status == .failed
            }
            #expect(crashedOrDone)
            worker.send(SIGTERM)
            _ = try await worker.waitForExit(seconds: 15)
            await worker.stop()
        }
        let record = try #require(try await store.message(id: poison.id))
        #expect(record.status == .failed)
        #expect(record.attempts == 3)
        #expect(record.error?.contains("crashed") == true)
        #expect(starts <= 5, "the poisoned job crashed its worker only as often as it had attempts")
        #expect(try await store.message(id: healthy.id)?.status == .ready)
    }

    @Test func sigtermDuringProcessingLosesNothingOnSQLite() async throws { try await sigtermDuringProcessingLosesNothing(.sqlite) }
    @Test(.needsPostgreSQL) func sigtermDuringProcessingLosesNothingOnPostgreSQL() async throws { try await sigtermDuringProcessingLosesNothing(.postgres) }
    private func sigtermDuringProcessingLosesNothing(_ backend: Backend) async throws {
        let (directory, open, run) = try await WorkerProcess.sharedStore(backend)
        defer { Task { await open.close() } }
        let (store, location) = (open.store, open.location)
        for index in 0..<6 { try await enqueue(in: store, runID: run.id, meters: Double(index)) }
        let slow = ["--delay-ms", "1500"]

        // A long grace period: the jobs in flight finish, the rest stay queued.
        var worker = try await WorkerProcess.start(
            location, directory: directory, name: "graceful", concurrency: 2, lease: 5, grace: 10,
            faults: slow)
        #expect(try await eventually(within: 20) { try await store.statusCounts()[.processing] == 2 })
        worker.send(SIGTERM)
        #expect(try await worker.waitForExit(seconds: 20) == 0, "\(worker.log)")
        var counts = try await store.statusCounts()
        #expect(counts[.processing] == nil, "nothing is left in processing: \(counts)")
        #expect(counts[.ready] == 2, "\(worker.log)")
        #expect(counts[.queued] == 4)

        // A short grace period: the jobs in flight go back to the queue, their attempt not counted.
        worker = try await WorkerProcess.start(
            location, directory: directory, name: "impatient", concurrency: 2, lease: 5, grace: 0.2,
            faults: slow)
        #expect(try await eventually(within: 20) { try await store.statusCounts()[.processing] == 2 })
        worker.send(SIGTERM)
        #expect(try await worker.waitForExit(seconds: 20) == 0, "\(worker.log)")
        counts = try await store.statusCounts()
        #expect(counts[.processing] == nil, "nothing is left in processing: \(counts)")
        #expect(counts[.ready] == 2, "\(worker.log)")
        #expect(counts[.queued] == 4)
        for record in try await store.messages(runID: run.id) where record.status == .queued {
            #expect(record.attempts == 0)
            #expect(try await store.hasOriginal(messageID: record.id))
        }

        // Nothing was lost: a new worker finishes them all.
        worker = try await WorkerProcess.start(location, directory: directory, name: "drain", concurrency: 2, lease: 5)
        #expect(try await eventually(within: 30) { try await store.statusCounts()[.ready] == 6 })
        worker.send(SIGINT)
        #expect(try await worker.waitForExit(seconds: 20) == 0)
    }
}
