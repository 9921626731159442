import Foundation

/// What a finished process left behind.
public struct ProcessOutcome: Sendable {
    public var status: Int32
    /// True when the process ended by a signal (a crash, or the watchdog).
    public var wasSignalled: Bool
    /// True when the watchdog killed it.
    public var timedOut: Bool
    public var standardOutput: Data
    public var standardError: String

    public var text: String { String(decoding: standardOutput, as: UTF8.self) }

    /// The non-empty lines on stderr.
    public var errorLines: [String] {
        standardError.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}

/// A tool that failed, hung or could not be started.
public struct ToolFailure: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

/// Runs programs for the tests: the built executables as a user would, and the reference
/// tools (ffmpeg, ffprobe, opusdec, opusinfo, sox, espeak-ng) that judge them. Every run has a
/// watchdog, so a hang fails its test instead of stalling the suite, and output goes to files,
/// so a chatty tool cannot block on a full pipe. Programs that run beside a test rather than to
/// their end (a server, a worker) are `ChildProcess`es.
public enum ExternalProcess {
    /// Runs `executable` with `arguments` to the end, or kills it after `timeout` seconds.
    /// Never throws for what the process did; only when it cannot be started. `environment`
    /// adds to (or replaces in) this process's environment.
    public static func run(_ executable: String, _ arguments: [String], timeout: Double,
                           directory: URL? = nil, environment: [String: String] = [:]) throws -> ProcessOutcome {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("voicemsg-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = outHandle
        process.standardError = errHandle
        // The termination handler runs on Foundation's own thread, so the wait below neither
        // polls nor needs a thread of Swift's cooperative pool to end. These runs are called from
        // synchronous tests in every target: swift-subprocess's async API would have them block a
        // cooperative thread on work that needs one.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let timedOut = exited.wait(timeout: .now() + timeout) == .timedOut
        if timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return ProcessOutcome(
            status: process.terminationStatus,
            wasSignalled: process.terminationReason == .uncaughtSignal,
            timedOut: timedOut,
            standardOutput: (try? Data(contentsOf: outURL)) ?? Data(),
            standardError: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
    }

    /// Runs a tool found on PATH and, with `check`, throws unless it exits with status 0.
    @discardableResult
    public static func tool(_ name: String, _ arguments: [String], check: Bool = true, timeout: Double = 120,
                            directory: URL? = nil) throws -> ProcessOutcome {
        let outcome = try run("/usr/bin/env", [name] + arguments, timeout: timeout, directory: directory)
        let command = ([name] + arguments).joined(separator: " ")
        if outcome.timedOut {
            throw ToolFailure(description: "\(command) hung for \(timeout) s and was killed")
        }
        if check, outcome.wasSignalled || outcome.status != 0 {
            throw ToolFailure(description: "\(command) failed (\(outcome.status)): \(outcome.standardError.suffix(600))")
        }
        return outcome
    }
}

/// Temporary folders for one test process, removed by nobody but the OS: each test gets a
/// fresh one under a folder named for the suite and the process.
public enum ScratchSpace {
    /// `voicemsg-NAME-PID` in the temporary directory, created.
    public static func folder(_ name: String) -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("voicemsg-\(name)-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A fresh, empty folder inside `parent`.
    public static func fresh(in parent: URL) throws -> URL {
        let url = parent.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
