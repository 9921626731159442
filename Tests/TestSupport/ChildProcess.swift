import Foundation
import Subprocess

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// A program that runs beside the test (a server, a worker) in a process of its own, with its
/// stdout and stderr in a log file: for the tests whose subject is the process itself, its
/// signals, exit status and death. swift-subprocess starts and reaps it; `stop()` kills it.
public final class ChildProcess: Sendable {
    public let pid: Int32
    public let logPath: String
    private let execution: Task<Void, Never>
    private let exit: ExitWatch

    /// Starts `executable` (a path) with `arguments`, and `environment` over this process's.
    public static func start(
        _ executable: String, arguments: [String], environment: [String: String] = [:], logPath: String
    ) async throws -> ChildProcess {
        guard FileManager.default.createFile(atPath: logPath, contents: nil) else {
            throw TestFailure("cannot create \(logPath)")
        }
        // Two descriptors on one file, both appending, so the two streams interleave as written.
        let output = try FileDescriptor.open(FilePath(logPath), .writeOnly, options: .append)
        let errors = try FileDescriptor.open(FilePath(logPath), .writeOnly, options: .append)
        var overrides: [Environment.Key: String?] = [:]
        for (name, value) in environment { overrides[Environment.Key(rawValue: name)!] = value }
        let (started, report) = AsyncStream<Int32>.makeStream()
        let exit = ExitWatch()
        let execution = Task {
            var status: Int32 = -1
            do {
                let result = try await run(
                    .path(FilePath(executable)), arguments: Arguments(arguments),
                    environment: .inherit.updating(overrides), input: .none,
                    output: .fileDescriptor(output, closeAfterSpawningProcess: true),
                    error: .fileDescriptor(errors, closeAfterSpawningProcess: true)
                ) { execution in
                    report.yield(execution.processIdentifier.value)
                }
                switch result.terminationStatus {
                case .exited(let code): status = code
                case .signaled(let signal): status = signal
                }
            } catch {
                try? output.close()
                try? errors.close()
            }
            report.finish()
            exit.record(status)
        }
        guard let pid = await started.first(where: { _ in true }) else {
            throw TestFailure("\(executable) could not be started")
        }
        return ChildProcess(pid: pid, logPath: logPath, execution: execution, exit: exit)
    }

    private init(pid: Int32, logPath: String, execution: Task<Void, Never>, exit: ExitWatch) {
        self.pid = pid
        self.logPath = logPath
        self.execution = execution
        self.exit = exit
    }

    public var isRunning: Bool { exit.status == nil }

    /// What the process has written so far, stdout and stderr.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    public func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits for the process to end, up to `seconds`: its exit status (the signal's number when
    /// a signal ended it), or nil when it still runs. Throws when the waiting task is cancelled.
    @discardableResult
    public func waitForExit(seconds: Double) async throws -> Int32? {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.exit.wait() }
            group.addTask { try? await Task.sleep(for: .seconds(seconds)) }
            await group.next()
            group.cancelAll()
        }
        try Task.checkCancellation()
        return exit.status
    }

    /// Kills the process if it still runs (tests clean up after themselves), stopped or not.
    public func stop() async {
        guard isRunning else { return }
        execution.cancel()
        _ = try? await waitForExit(seconds: 10)
    }

    /// Waits up to `seconds` for the log to match `pattern` (a regular expression), and returns
    /// the match; nil when the process ends first or the time is up. The log is read once more
    /// at the end: on a busy machine this task can wake past the deadline with the line there.
    public func waitForLog(matching pattern: String, seconds: Double) async -> Substring? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            let text = log
            if let range = text.range(of: pattern, options: .regularExpression) { return text[range] }
            guard isRunning, ContinuousClock.now < deadline else {
                let last = log
                return last.range(of: pattern, options: .regularExpression).map { last[$0] }
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The port from a server's startup line ("listening on http://127.0.0.1:PORT", or https).
    public func waitForPort(seconds: Double = 30) async throws -> Int {
        guard let line = await waitForLog(matching: #"listening on https?://[^:]+:\d+"#, seconds: seconds),
            let port = line.split(separator: ":").last.flatMap({ Int($0) })
        else {
            throw TestFailure(isRunning ? "server did not start:\n\(log)" : "server exited early:\n\(log)")
        }
        return port
    }
}

/// The moment a process ends, for any number of waiters.
private final class ExitWatch: Sendable {
    private struct State {
        var status: Int32?
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Locked(State())

    var status: Int32? { state.withLock { $0.status } }

    func record(_ status: Int32) {
        let waiters = state.withLock { state in
            state.status = status
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the process has ended, or when the calling task is cancelled.
    func wait() async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    if state.status != nil || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
