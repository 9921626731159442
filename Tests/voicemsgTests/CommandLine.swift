import Foundation
import TestSupport

/// Runs the built `voicemsg` executable as a user would, through the tests' shared
/// `ExternalProcess`: a run that hangs is killed and reported, so a hang fails the test
/// instead of stalling the suite.
enum CommandLine {
    typealias Result = ProcessOutcome
    typealias Failure = ToolFailure

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

    static func voicemsg(_ arguments: [String], timeout: Double = 60, environment: [String: String] = [:]) throws -> Result {
        try ExternalProcess.run(executable, arguments, timeout: timeout, environment: environment)
    }

    /// Runs a tool found on PATH (sox, espeak-ng, ffmpeg) and throws unless it succeeds.
    @discardableResult
    static func tool(_ name: String, _ arguments: [String]) throws -> Result {
        try ExternalProcess.tool(name, arguments)
    }
}
