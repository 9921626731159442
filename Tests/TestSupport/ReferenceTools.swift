import Foundation

/// What the reference tools say about a file: the independent judges the tests hold voicemsg to.
public enum ReferenceTools {
    /// ffmpeg's `ebur128` filter with `peak=true` on any file ffmpeg decodes: integrated
    /// loudness (LUFS; -70.0 when no block passes BS.1770's gate) and true peak (dBTP) from its
    /// summary. `inputOptions` go before `-i`, for raw samples (`-f f32le -ar 48000 -ac 1`).
    public static func ebur128(_ path: String, inputOptions: [String] = []) throws -> (integrated: Double, truePeak: Double) {
        // framelog=verbose sends the per-frame lines to a level that the default log level
        // hides, so only the summary is printed.
        let output = try Tool.run("ffmpeg", ["-nostdin", "-nostats", "-hide_banner"] + inputOptions + ["-i", path,
                                   "-af", "ebur128=peak=true:framelog=verbose", "-f", "null", "-"])
        guard let summary = output.standardError.range(of: "Summary:").map({ output.standardError[$0.upperBound...] }) else {
            throw TestFailure("no ebur128 summary for \(path)")
        }
        func value(after label: String) throws -> Double {
            let line = summary.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }
            guard let line, let field = line.split(separator: " ").dropFirst().first, let value = Double(field) else {
                throw TestFailure("cannot read '\(label)' in ffmpeg's ebur128 summary for \(path)")
            }
            return value
        }
        return (try value(after: "I:"), try value(after: "Peak:"))
    }

    /// The 48 kHz mono samples that `decoder` hears in an Opus file: "opusdec" (Ogg), or
    /// "ffmpeg" (through libopus; Ogg or CAF, a CAF without its priming trimmed). Read back as
    /// raw floats through ffmpeg; the scratch files sit beside `path`.
    public static func samples(decodedBy decoder: String, _ path: String) throws -> [Float] {
        let raw = path + "." + decoder + ".f32"
        if decoder == "opusdec" {
            try Tool.run("opusdec", ["--quiet", "--float", "--rate", "48000", path, path + ".opusdec.wav"])
            try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", path + ".opusdec.wav", "-f", "f32le", "-ac", "1", raw])
        } else {
            try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-c:a", "libopus", "-i", path,
                                    "-f", "f32le", "-ar", "48000", "-ac", "1", raw])
        }
        return try Data(contentsOf: URL(fileURLWithPath: raw)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
