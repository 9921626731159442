import Foundation
import Testing
import TestSupport

/// `voicemsg convert` through the command line, as docs/cli.md shows it: Ogg Opus to CAF and
/// back, without re-encoding. Judged by other tools: ffprobe names the containers and lists the
/// packets, ffmpeg (through libopus) decodes the CAF, and opusdec the Ogg.
@Suite struct ConvertCommandTests {
    /// Packet sizes in order (ffprobe adds a comma to a packet that carries side data).
    static func packetSizes(_ path: String) throws -> [Int] {
        try CommandLine.tool("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "packet=size",
                                         "-of", "csv=p=0", path]).text.split(separator: "\n").compactMap { $0.split(separator: ",").first.flatMap { Int($0) } }
    }

    @Test func oggToCAFAndBackKeepsEveryPacketAndSample() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let encoded = try CommandLine.voicemsg(["encode", try Fixtures.speechWAV(), "-o", path("mum.opus"), "--marker", "5km"])
        try #require(encoded.status == 0, "\(encoded.standardError)")

        let toCAF = try CommandLine.voicemsg(["convert", path("mum.opus"), path("mum.caf")])
        #expect(toCAF.status == 0, "\(toCAF.standardError)")
        #expect(try FFprobe.containerAndCodec(path("mum.caf")) == "caf opus")
        let back = try CommandLine.voicemsg(["convert", path("mum.caf"), path("back.opus")])
        #expect(back.status == 0, "\(back.standardError)")
        #expect(try FFprobe.containerAndCodec(path("back.opus")) == "ogg opus")

        // The same packets in all three files: a rewrap, not an encode.
        let original = try Self.packetSizes(path("mum.opus"))
        try #require(original.count > 50)
        #expect(try Self.packetSizes(path("mum.caf")) == original)
        #expect(try Self.packetSizes(path("back.opus")) == original)

        // And the same sound: opusdec plays the round trip to the sample, and ffmpeg hears the
        // CAF as opusdec hears the Ogg, once the pre-skip is dropped (ffmpeg does not trim a
        // CAF's priming frames).
        let heard = try ReferenceTools.samples(decodedBy: "opusdec", path("mum.opus"))
        #expect(try ReferenceTools.samples(decodedBy: "opusdec", path("back.opus")) == heard)
        let fromCAF = try ReferenceTools.samples(decodedBy: "ffmpeg", path("mum.caf"))
        let info = try CommandLine.tool("opusinfo", [path("mum.opus")]).text
        let preSkipLine = try #require(info.split(separator: "\n").first { $0.contains("Pre-skip:") }, "\(info)")
        let preSkip = try #require(preSkipLine.split(separator: " ").last.flatMap { Int($0) }, "\(preSkipLine)")
        let aligned = Array(fromCAF.dropFirst(preSkip).prefix(heard.count))
        try #require(aligned.count == heard.count, "ffmpeg decoded \(fromCAF.count) samples of the CAF, opusdec \(heard.count) of the Ogg")
        let difference = zip(aligned, heard).map { abs($0 - $1) }.max() ?? .infinity
        #expect(difference < 1e-3, "CAF through ffmpeg and Ogg through opusdec differ by \(difference)")
    }

    /// A file that is not Opus in Ogg or CAF gets one line and exit 1, and no output.
    @Test func aWAVIsNotConverted() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("x.caf").path
        let result = try CommandLine.voicemsg(["convert", try Fixtures.speechWAV(), output])
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1, "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
