import Foundation
import Testing
import TestSupport

/// ffprobe as the independent judge of what a file is.
enum FFprobe {
    /// "ogg opus", "caf opus" or "matroska,webm opus": the container and codec as ffprobe
    /// reads them.
    static func containerAndCodec(_ path: String) throws -> String {
        let result = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "format=format_name:stream=codec_name",
                                              "-of", "default=noprint_wrappers=1:nokey=1", path])
        let values = result.text.split(separator: "\n").map(String.init)
        // ffprobe prints the stream's codec, then the format's name.
        return "\(values.last ?? "") \(values.first ?? "")"
    }
}
