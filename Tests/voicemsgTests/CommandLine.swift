import Foundation
import Testing

/// Runs the built `voicemsg` executable as a user would, with a watchdog: a run that hangs is
/// killed and reported, so a hang fails the test instead of stalling the suite.
struct CommandLine {
    struct Result {
        var status: Int32
        /// True when the process ended by a signal (a crash, or the watchdog).
        var wasSignalled: Bool
        var timedOut: Bool
        var standardOutput: Data
        var standardError: String

        /// The non-empty lines on stderr.
        var errorLines: [String] {
            standardError.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        }
    }

    /// The `voicemsg` executable: `VOICEMSG_BIN` if set, else the one SwiftPM built next to
    /// this test binary, else `.build/debug/voicemsg` under the package.
    static let executable: String = {
        if let path = ProcessInfo.processInfo.environment["VOICEMSG_BIN"] { return path }
        let besideTests = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("voicemsg").path
        if FileManager.default.isExecutableFile(atPath: besideTests) { return besideTests }
        let bundle = Bundle.main.bundleURL.appendingPathComponent("voicemsg").path
        if FileManager.default.isExecutableFile(atPath: bundle) { return bundle }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/voicemsg").path
    }()

    static func voicemsg(_ arguments: [String], timeout: Double = 60) throws -> Result {
        try run(executable, arguments, timeout: timeout)
    }

    /// Runs a tool found on PATH (sox, espeak-ng, ffmpeg) and throws unless it succeeds.
    @discardableResult
    static func tool(_ name: String, _ arguments: [String]) throws -> Result {
        let result = try run("/usr/bin/env", [name] + arguments, timeout: 120)
        guard result.status == 0, !result.wasSignalled else {
            throw Failure(description: "\(name) \(arguments.joined(separator: " ")) failed: \(result.standardError)")
        }
        return result
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static func run(_ executable: String, _ arguments: [String], timeout: Double) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("voicemsg-cli-\(UUID().uuidString)")
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
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        let timedOut = process.isRunning
        if timedOut { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return Result(
            status: process.terminationStatus,
            wasSignalled: process.terminationReason == .uncaughtSignal,
            timedOut: timedOut,
            standardOutput: (try? Data(contentsOf: outURL)) ?? Data(),
            standardError: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
    }
}
