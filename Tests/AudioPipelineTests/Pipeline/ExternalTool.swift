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

    /// ffmpeg's `ebur128` true peak and loudness (see `ReferenceTools.ebur128`).
    static func ebur128(_ path: String, inputOptions: [String] = []) throws -> (integrated: Double, truePeak: Double) {
        try ReferenceTools.ebur128(path, inputOptions: inputOptions)
    }
}
