import Foundation
import Testing
import TestSupport

/// A built executable of this package, next to the test bundle (or at `VOICEMSG_BIN` for
/// `voicemsg`).
func builtExecutable(_ name: String) throws -> String {
    if name == "voicemsg", let path = ProcessInfo.processInfo.environment["VOICEMSG_BIN"] { return path }
    do {
        return try BuiltProduct.path(name)
    } catch let failure as ToolFailure {
        throw TestFailure(failure.description)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A server or worker process of this package whose output goes to a file.
final class ChildProcess: @unchecked Sendable {
    let process = Process()
    let logPath: String

    init(executable: String, arguments: [String], environment: [String: String] = [:], logPath: String) throws {
        self.logPath = logPath
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.executableURL = URL(fileURLWithPath: try builtExecutable(executable))
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = log
        process.standardError = log
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    func send(_ signal: Int32) { kill(pid, signal) }

    /// Waits for exit up to `seconds`; returns the exit status, or nil when still running.
    func waitForExit(seconds: Double) async throws -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// Kills the process if it still runs (tests clean up after themselves).
    func stop() async {
        if process.isRunning {
            kill(pid, SIGCONT)
            kill(pid, SIGKILL)
            _ = try? await waitForExit(seconds: 5)
        }
    }

    /// The port from the startup line ("listening on http://127.0.0.1:PORT", or https://).
    func waitForPort(seconds: Double = 30) async throws -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let range = log.range(of: #"listening on https?://[^:]+:(\d+)"#, options: .regularExpression) {
                let match = log[range]
                if let port = Int(match.split(separator: ":").last ?? "") { return port }
            }
            guard isRunning else { throw TestFailure("server exited early:\n\(log)") }
            // The log is read once more after the deadline: in a full parallel run this task can
            // wait for a thread past the deadline while the line is already there.
            guard Date() < deadline else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("server did not start:\n\(log)")
    }
}
