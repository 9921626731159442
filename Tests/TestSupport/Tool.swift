import Foundation

/// What a finished program left behind.
public struct ProcessOutcome: Sendable {
    public var status: Int32
    /// True when the program ended by a signal (a crash, or the watchdog).
    public var wasSignalled: Bool
    /// True when the watchdog killed it.
    public var timedOut: Bool
    public var standardOutput: Data
    public var standardError: String

    public var text: String { String(decoding: standardOutput, as: UTF8.self) }

    /// All it wrote: stdout, then stderr.
    public var output: String { text + standardError }

    /// The non-empty lines on stderr.
    public var errorLines: [String] {
        standardError.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}

/// The programs the tests run to their end: this package's executables, found where SwiftPM
/// built them and run as a user would, and the reference tools (ffmpeg, ffprobe, opusdec,
/// opusinfo, sox, espeak-ng, openssl, curl, psql…) that judge them or make their fixtures.
///
/// Every run has a watchdog, so a hang fails its test instead of stalling the suite, and output
/// goes to files, so a chatty tool cannot block on a full pipe. A program that runs beside a
/// test rather than to its end (a server, a worker) is a `ChildProcess`.
public enum Tool {
    /// The path of this package's executable `name` (voicemsg, voicemsg-server, voicemsg-decode,
    /// or the tests' FaultyWorker and FaultyDecoder): `VOICEMSG_BIN` for `voicemsg` when set,
    /// else the one SwiftPM built beside the test bundle, else the one in the package's
    /// .build/debug.
    public static func built(_ name: String) throws -> String {
        if name == "voicemsg", let path = ProcessInfo.processInfo.environment["VOICEMSG_BIN"] { return path }
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [
            testBinary.deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
            package.appendingPathComponent(".build/debug"),
        ]
        for directory in candidates {
            let path = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw TestFailure("\(name) executable not found; build it (swift build --build-tests)")
    }

    /// Runs `program` (a path, or a name looked up on PATH) with `arguments` to its end, or
    /// kills it after `timeout` seconds. `environment` adds to (or replaces in) this process's.
    ///
    /// With `check` (the default) it throws unless the program exits with status 0. Without,
    /// it returns whatever the program did, a non-zero status, a signal or a hang the watchdog
    /// ended (`timedOut`), for the tests that judge how a program ends. Either way it throws
    /// when the program cannot be started.
    @discardableResult
    public static func run(
        _ program: String, _ arguments: [String], check: Bool = true, timeout: Double = 120, directory: URL? = nil,
        environment: [String: String] = [:]
    ) throws -> ProcessOutcome {
        let outcome: ProcessOutcome
        if program.contains("/") {
            outcome = try launch(program, arguments, timeout: timeout, directory: directory, environment: environment)
        } else {
            outcome = try launch("/usr/bin/env", [program] + arguments, timeout: timeout, directory: directory,
                                 environment: environment)
        }
        guard check else { return outcome }
        let command = ([program] + arguments).joined(separator: " ")
        if outcome.timedOut {
            throw TestFailure("\(command) hung for \(timeout) s and was killed")
        }
        if outcome.wasSignalled || outcome.status != 0 {
            throw TestFailure("\(command) failed (\(outcome.status)): \(outcome.standardError.suffix(600))")
        }
        return outcome
    }

    /// The built `voicemsg` as a user runs it: whatever it does, for the test to judge.
    public static func voicemsg(
        _ arguments: [String], timeout: Double = 60, environment: [String: String] = [:]
    ) throws -> ProcessOutcome {
        try run(try built("voicemsg"), arguments, check: false, timeout: timeout, environment: environment)
    }

    private static func launch(
        _ executable: String, _ arguments: [String], timeout: Double, directory: URL?, environment: [String: String]
    ) throws -> ProcessOutcome {
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
}
