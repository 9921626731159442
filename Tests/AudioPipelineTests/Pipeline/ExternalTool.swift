import Foundation
import Testing

/// Runs a reference tool (ffmpeg, ffprobe, opusdec, opusinfo, sox, espeak-ng) with a watchdog:
/// a tool that hangs is killed and the test fails instead of stalling the suite.
enum ExternalTool {
    struct Output {
        var status: Int32
        var standardOutput: Data
        var standardError: String
        var text: String { String(decoding: standardOutput, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `tool` and throws unless it exits with status 0 (or any status, with `check` false).
    /// Output goes to files, so a chatty tool cannot block on a full pipe.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], check: Bool = true, timeout: Double = 120,
                    directory: URL? = nil) throws -> Output {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("voicemsg-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.standardInput = FileHandle.nullDevice
        if let directory { process.currentDirectoryURL = directory }
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) hung for \(timeout) s and was killed")
        }
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        let output = Output(
            status: process.terminationStatus,
            standardOutput: (try? Data(contentsOf: outURL)) ?? Data(),
            standardError: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
        if check, process.terminationReason != .exit || output.status != 0 {
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) failed (\(output.status)): \(output.standardError.suffix(600))")
        }
        return output
    }

    /// ffmpeg's `ebur128` filter with `peak=true` on any file ffmpeg decodes: integrated loudness
    /// (LUFS) and true peak (dBTP) from its summary.
    static func ebur128(_ path: String) throws -> (integrated: Double, truePeak: Double) {
        // framelog=verbose sends the per-frame lines to a level that the default log level hides,
        // so only the summary is printed.
        let output = try run("ffmpeg", ["-nostdin", "-nostats", "-hide_banner", "-i", path,
                                        "-af", "ebur128=peak=true:framelog=verbose", "-f", "null", "-"])
        let summary = try #require(output.standardError.range(of: "Summary:").map { output.standardError[$0.upperBound...] },
                                   "no ebur128 summary for \(path)")
        func value(after label: String) throws -> Double {
            let line = try #require(summary.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) })
            let field = try #require(line.split(separator: " ").dropFirst().first, "no value in '\(line)'")
            return try #require(Double(field), "cannot read '\(line)'")
        }
        return (try value(after: "I:"), try value(after: "Peak:"))
    }
}
