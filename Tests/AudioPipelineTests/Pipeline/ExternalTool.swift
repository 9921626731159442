import Foundation
import Testing

import TestSupport

/// The reference tools (ffmpeg, ffprobe, opusdec, opusinfo, sox, espeak-ng), run through the
/// tests' shared `ExternalProcess` with its watchdog.
enum ExternalTool {
    typealias Output = ProcessOutcome
    typealias Failure = ToolFailure

    /// Runs `tool` and throws unless it exits with status 0 (or any status, with `check` false).
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], check: Bool = true, timeout: Double = 120,
                    directory: URL? = nil) throws -> Output {
        try ExternalProcess.tool(tool, arguments, check: check, timeout: timeout, directory: directory)
    }

    /// ffmpeg's `ebur128` filter with `peak=true` on any file ffmpeg decodes: integrated loudness
    /// (LUFS) and true peak (dBTP) from its summary.
    /// `inputOptions` go before `-i`, for raw samples (`-f f32le -ar 48000 -ac 1`).
    static func ebur128(_ path: String, inputOptions: [String] = []) throws -> (integrated: Double, truePeak: Double) {
        // framelog=verbose sends the per-frame lines to a level that the default log level hides,
        // so only the summary is printed.
        let output = try run("ffmpeg", ["-nostdin", "-nostats", "-hide_banner"] + inputOptions + ["-i", path,
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
