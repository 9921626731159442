import Foundation
import TestSupport

@testable import VoicemsgServer

/// Worker processes for the tests whose subject is the process (killed, stopped, signalled,
/// cut off from PostgreSQL): `FaultyWorker`, a test-only executable that runs the shipped
/// workers around a processor whose result is the upload itself, so that each result can be
/// traced to its job, with the faults a test asks for on its command line (a delay to catch a
/// worker mid-job; a sender whose job kills its worker).
enum WorkerProcess {
    /// Starts `concurrency` workers on `location`, with `faults` (`--delay-ms`,
    /// `--crash-sender`), short polls, and their output in `directory/name.log`.
    static func start(
        _ location: StoreLocation, directory: TemporaryDirectory, name: String, concurrency: Int,
        lease: Double, grace: Double = 5, faults: [String] = []
    ) async throws -> ChildProcess {
        var arguments: [String]
        switch location {
        case .sqlite(let dataDirectory):
            arguments = ["--data-dir", dataDirectory]
        case .postgres(let url):
            arguments = ["--database", url]
        }
        arguments += ["--concurrency", "\(concurrency)", "--poll-seconds", "0.2", "--log-level", "info"] + faults + [
            "--lease-seconds", "\(lease)", "--shutdown-grace-seconds", "\(grace)",
        ]
        return try await ChildProcess.start(
            try Tool.built("FaultyWorker"), arguments: arguments, logPath: directory.file("\(name).log"))
    }

    /// A fresh store on `backend`, migrated and open, in a folder of its own, for the test and
    /// the workers it starts to share, with a run to put messages in. The test closes it.
    static func sharedStore(_ backend: Backend) async throws -> (directory: TemporaryDirectory, open: OpenStore, run: RunRecord) {
        let directory = try TemporaryDirectory()
        let open = try await OpenStore.open(try backend.makeLocation(in: directory))
        do {
            return (directory, open, try await makeRun(in: open.store).run)
        } catch {
            await open.close()
            throw error
        }
    }

    /// Messages currently held by the process `pid` (worker ids embed the pid).
    static func held(by pid: Int32, in store: Store, runID: String) async throws -> [MessageRecord] {
        try await store.messages(runID: runID).filter {
            $0.status == .processing && ($0.workerID?.contains("-\(pid)-") ?? false)
        }
    }

    /// Enqueues `count` messages in `runID`, each with bytes of its own and ten attempts: the
    /// uploads by id, which the faulty processor's results must each equal.
    static func enqueueTraceable(_ count: Int, in store: Store, runID: String) async throws -> [String: Data] {
        var originals: [String: Data] = [:]
        for index in 0..<count {
            let bytes = Data("recording \(index) \(UUID())".utf8)
            let message = try await enqueue(in: store, runID: runID, meters: Double(index), bytes: bytes, maxAttempts: 10)
            originals[message.id] = bytes
        }
        return originals
    }
}
