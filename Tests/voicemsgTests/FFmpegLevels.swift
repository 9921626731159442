import Foundation
import Testing

/// ffmpeg's ebur128 filter as the independent judge of a file's loudness and true peak: what a
/// reference meter says, not what the project's own meter says.
struct FFmpegLevels {
    /// LUFS; ffmpeg prints -70.0 when no block passes BS.1770's absolute gate.
    var integratedLoudness: Double
    /// dBTP; -infinity for digital silence.
    var truePeak: Double

    static func measure(_ path: String) throws -> FFmpegLevels {
        let judge = try CommandLine.tool("ffmpeg", ["-nostdin", "-hide_banner", "-nostats", "-i", path,
                                                    "-af", "ebur128=peak=true", "-f", "null", "-"])
        let log = judge.standardError
        let summary = try #require(log.range(of: "Summary:"), "ffmpeg printed no ebur128 summary for \(path)")
        let lines = log[summary.upperBound...].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        func value(after prefix: String) throws -> Double {
            let line = try #require(lines.first { $0.hasPrefix(prefix) }, "no '\(prefix)' in ffmpeg's summary")
            let word = try #require(line.split(separator: " ").dropFirst().first, "\(line)")
            return try #require(Double(word), "\(line)")
        }
        return FFmpegLevels(integratedLoudness: try value(after: "I:"), truePeak: try value(after: "Peak:"))
    }
}
