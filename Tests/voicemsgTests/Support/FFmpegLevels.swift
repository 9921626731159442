import Foundation
import Testing
import TestSupport

/// ffmpeg's ebur128 filter as the independent judge of a file's loudness and true peak: what a
/// reference meter says, not what the project's own meter says.
struct FFmpegLevels {
    /// LUFS; ffmpeg prints -70.0 when no block passes BS.1770's absolute gate.
    var integratedLoudness: Double
    /// dBTP; -infinity for digital silence.
    var truePeak: Double

    static func measure(_ path: String) throws -> FFmpegLevels {
        let levels = try ReferenceTools.ebur128(path)
        return FFmpegLevels(integratedLoudness: levels.integrated, truePeak: levels.truePeak)
    }
}
