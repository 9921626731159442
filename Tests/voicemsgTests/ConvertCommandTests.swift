import Foundation
import Testing
import TestSupport

/// `voicemsg convert` through the command line, as docs/cli.md shows it: Ogg Opus to CAF and
/// back, without re-encoding. Judged by other tools: ffprobe names the containers and lists the
/// packets, ffmpeg (through libopus) decodes the CAF, and opusdec the Ogg.
@Suite struct ConvertCommandTests {
    /// Packet sizes in order (ffprobe adds a comma to a packet that carries side data).
    static func packetSizes(_ path: String) throws -> [Int] {
        try Tool.run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "packet=size",
                                 "-of", "csv=p=0", path]).text.split(separator: "\n").compactMap { $0.split(separator: ",").first.flatMap { Int($0) } }
    }

    @Test func oggToCAFAndBackKeepsEveryPacketAndSample() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let encoded = try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "-o", path("mum.opus"), "--marker", "5km"])
        try #require(encoded.status == 0, "\(encoded.standardError)")

        let toCAF = try Tool.voicemsg(["convert", path("mum.opus"), path("mum.caf")])
        #expect(toCAF.status == 0, "\(toCAF.standardError)")
        #expect(try FFprobe.containerAndCodec(path("mum.caf")) == "caf opus")
        let back = try Tool.voicemsg(["convert", path("mum.caf"), path("back.opus")])
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
        let info = try Tool.run("opusinfo", [path("mum.opus")]).text
        let preSkipLine = try #require(info.split(separator: "\n").first { $0.contains("Pre-skip:") }, "\(info)")
        let preSkip = try #require(preSkipLine.split(separator: " ").last.flatMap { Int($0) }, "\(preSkipLine)")
        let aligned = Array(fromCAF.dropFirst(preSkip).prefix(heard.count))
        try #require(aligned.count == heard.count, "ffmpeg decoded \(fromCAF.count) samples of the CAF, opusdec \(heard.count) of the Ogg")
        let difference = zip(aligned, heard).map { abs($0 - $1) }.max() ?? .infinity
        #expect(difference < 1e-3, "CAF through ffmpeg and Ogg through opusdec differ by \(difference)")
    }

    /// Ogg to WebM, for Safari from iOS 17.4: the same packets, and ffmpeg, which honours
    /// WebM's codec delay and discard padding, plays exactly what opusdec plays from the Ogg.
    /// `encode -o x.webm` and `--format webm` write the same container.
    @Test func oggToWebMKeepsEveryPacketAndTheExactLength() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let encoded = try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "-o", path("mum.opus"), "--marker", "5km", "--sender", "Mum"])
        try #require(encoded.status == 0, "\(encoded.standardError)")

        let toWebM = try Tool.voicemsg(["convert", "--json", path("mum.opus"), path("mum.webm")])
        #expect(toWebM.status == 0, "\(toWebM.standardError)")
        #expect(toWebM.text.replacingOccurrences(of: " ", with: "").contains("\"to\":\"webm\""), "\(toWebM.text)")
        #expect(try FFprobe.containerAndCodec(path("mum.webm")) == "matroska,webm opus")
        let original = try Self.packetSizes(path("mum.opus"))
        try #require(original.count > 50)
        #expect(try Self.packetSizes(path("mum.webm")) == original)

        let heard = try ReferenceTools.samples(decodedBy: "opusdec", path("mum.opus"))
        let fromWebM = try ReferenceTools.samples(decodedBy: "ffmpeg", path("mum.webm"))
        try #require(fromWebM.count == heard.count, "ffmpeg decoded \(fromWebM.count) samples of the WebM, opusdec \(heard.count) of the Ogg")
        let difference = zip(fromWebM, heard).map { abs($0 - $1) }.max() ?? .infinity
        #expect(difference < 1e-3, "WebM through ffmpeg and Ogg through opusdec differ by \(difference)")
        let tags = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "default=noprint_wrappers=1", path("mum.webm")]).text
        #expect(tags.contains("TAG:DISTANCE_MARKER=5000m") && tags.contains("TAG:SENDER=Mum") && tags.contains("TAG:ARTIST=Mum"), "\(tags)")

        for arguments in [["-o", path("named.webm")], ["--format", "webm", "-o", path("chosen.webm")]] {
            let result = try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "--marker", "5km", "--json"] + arguments)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.text.replacingOccurrences(of: " ", with: "").contains("\"container\":\"webm\""), "\(result.text)")
            #expect(try FFprobe.containerAndCodec(arguments.last!) == "matroska,webm opus")
        }
        // A WebM goes out, not back in: rewrapping it again is refused in one line.
        let back = try Tool.voicemsg(["convert", path("mum.webm"), path("back.opus")])
        #expect(back.status == 1)
        #expect(back.errorLines.count == 1 && back.standardError.contains("WebM"), "\(back.standardError)")
        #expect(!FileManager.default.fileExists(atPath: path("back.opus")))
    }

    /// A file that is not Opus in Ogg or CAF gets one line and exit 1, and no output.
    @Test func aWAVIsNotConverted() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("x.caf").path
        let result = try Tool.voicemsg(["convert", try Fixtures.speechWAV(), output])
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1, "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
