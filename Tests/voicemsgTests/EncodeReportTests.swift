import Foundation
import Testing
import TestSupport

/// `encode --json` reports the file as written: its container, and the size the container
/// gave it, which is the size on disk.
@Suite struct EncodeReportTests {
    @Test(arguments: [("ogg", "opus"), ("caf", "caf")])
    func theReportGivesTheFilesContainerAndSize(_ format: String, _ pathExtension: String) throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "--output-dir", folder.path,
                                        "--format", format, "--marker", "5km", "--json"])
        try #require(result.status == 0, "\(result.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        let output = try #require((json["report"] as? [String: Any])?["output"] as? [String: Any])
        let path = try #require(json["output"] as? String)
        #expect(path.hasSuffix("." + pathExtension))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(output["container"] as? String == format)
        #expect(output["bytes"] as? Int == size)
        let duration = try #require(output["durationSeconds"] as? Double)
        let bitrate = try #require(output["bitrate"] as? Double)
        #expect(abs(bitrate - Double(size * 8) / duration) < 1e-6)
    }
}
