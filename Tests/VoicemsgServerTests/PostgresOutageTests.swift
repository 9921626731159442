import Foundation
import Testing
import TestSupport

@testable import VoicemsgServer

/// PostgreSQL stopped under running worker processes, on a cluster of the test's own (the
/// shared one of with-postgres.sh serves the other tests meanwhile): the workers wait quietly,
/// log the outage once and its end once, stop cleanly on SIGTERM while it lasts, and every job
/// ends ready exactly once after PostgreSQL returns.
@Suite struct PostgresOutageTests {
    /// A throwaway cluster in `directory`, driven by scripts/pg-cluster.sh.
    struct Cluster {
        let directory: String
        let port: Int
        var url: String { "postgres://voicemsg@127.0.0.1:\(port)/postgres" }

        static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/pg-cluster.sh").path

        /// The shared runner writes output to files, not pipes: the server that `start` leaves
        /// running would keep a pipe open, and reading it to its end would never end.
        func control(_ arguments: String...) throws {
            let outcome = try Tool.run("/bin/bash", [Self.script] + arguments, check: false, timeout: 120)
            guard outcome.status == 0, !outcome.timedOut else {
                throw TestFailure("pg-cluster.sh \(arguments.joined(separator: " ")): \(outcome.text)\(outcome.standardError)")
            }
        }
    }

    static func lines(_ log: String, containing text: String) -> Int {
        log.split(separator: "\n").count { $0.contains(text) }
    }

    // The PostgreSQL tests run where with-postgres.sh found PostgreSQL; this one needs its
    // binaries too, to stop and start a cluster of its own.
    @Test(.needsPostgreSQL) func workersWaitOutAnOutageQuietlyAndStopCleanlyDuringIt() async throws {
        let directory = try TemporaryDirectory()
        let cluster = Cluster(directory: directory.file("pg"), port: try freeLoopbackPort())
        try cluster.control("init", cluster.directory)
        try cluster.control("start", cluster.directory, "\(cluster.port)")
        defer { try? cluster.control("remove", cluster.directory) }

        let location = StoreLocation.postgres(url: cluster.url)
        let open = try await OpenStore.open(location)
        defer { Task { await open.close() } }
        let store = open.store
        let (run, _, _) = try await makeRun(in: store)
        let originals = try await WorkerProcess.enqueueTraceable(30, in: store, runID: run.id)

        var started: [ChildProcess] = []
        for index in 0..<2 {
            started.append(
                try await WorkerProcess.start(
                    location, directory: directory, name: "worker\(index)", concurrency: 1, lease: 10,
                    faults: ["--delay-ms", "300"]))
        }
        let workers = started
        defer { Task { for worker in workers { await worker.stop() } } }
        #expect(try await eventually(within: 60) { try await store.statusCounts()[.ready, default: 0] >= 4 })

        // The outage: long enough for the pool to fail many connection attempts.
        try cluster.control("stop", cluster.directory, "fast")
        try await Task.sleep(for: .seconds(6))
        for worker in workers {
            #expect(worker.isRunning, "a worker outlives the outage:\n\(worker.log)")
            #expect(Self.lines(worker.log, containing: "unreachable (") == 1, "the outage is logged once:\n\(worker.log)")
            #expect(Self.lines(worker.log, containing: "Connection creation failed") == 0, "\(worker.log)")
        }
        // SIGTERM while PostgreSQL is still down ends one worker cleanly.
        workers[0].send(SIGTERM)
        #expect(try await workers[0].waitForExit(seconds: 30) == 0, "\(workers[0].log)")

        try cluster.control("start", cluster.directory, "\(cluster.port)")
        let allReady = try await eventually(within: 120) { try await store.statusCounts()[.ready] == 30 }
        let counts = try await store.statusCounts()
        #expect(allReady, "every job ends ready; counts: \(counts)")
        let survivor = workers[1]
        #expect(try await eventually(within: 30) { Self.lines(survivor.log, containing: "reachable again after") == 1 },
                "the outage's end is logged once:\n\(survivor.log)")
        #expect(Self.lines(survivor.log, containing: "unreachable (") == 1, "\(survivor.log)")
        survivor.send(SIGTERM)
        #expect(try await survivor.waitForExit(seconds: 30) == 0, "\(survivor.log)")

        let logs = workers.map(\.log).joined(separator: "\n").split(separator: "\n")
        for (id, original) in originals {
            let record = try #require(try await store.message(id: id))
            #expect(record.status == .ready)
            // The faulty processor's result is the upload itself: this job's own, stored once.
            #expect(try await store.audio(messageID: id) == original)
            let completions = logs.count { $0.contains("message=\(id)") && $0.contains("] completed") }
            #expect(completions <= 1, "message \(id) completed \(completions) times")
        }
    }
}
