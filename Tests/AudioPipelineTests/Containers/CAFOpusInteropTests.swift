import Foundation
import Testing
@testable import AudioPipeline

/// Ogg Opus from opusenc rewrapped to CAF, judged by an independent `pakt` parser, ffprobe
/// and ffmpeg, and compared with ffmpeg 5.1's own `-c copy` rewrap.
@Suite struct CAFOpusInteropTests {
    static let cases = OggOpusInteropTests.cases

    /// ffmpeg's decode of a file as 32-bit float samples, interleaved.
    static func ffmpegDecode(_ name: String, in tools: ToolBox) throws -> [Float] {
        // libopus rather than ffmpeg's own decoder, whose SILK output differs from the
        // reference decoder by far more than rounding; as float, so nothing is quantized.
        try tools.run("ffmpeg", ["-v", "error", "-y", "-c:a", "libopus", "-request_sample_fmt", "flt", "-i", name,
                                 "-f", "f32le", "\(name).f32"])
        let bytes = try tools.read("\(name).f32")
        return stride(from: 0, to: bytes.count - 3, by: 4).map { at in
            Float(bitPattern: UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24)
        }
    }

    @Test(arguments: cases)
    func packetTableCarriesPrimingAndRemainder(_ testCase: OggOpusInteropTests.Case) throws {
        try ToolBox.withTemporaryFolder { tools in
            try OggOpusInteropTests().makeOpusencFile(testCase, in: tools)
            let ogg = try OggOpusReader.read(tools.read("in.opus"))
            let caf = try CAFOpusWriter.write(ogg)
            try tools.write(caf, to: "out.caf")

            let parsed = IndependentCAFParser(caf)
            #expect(parsed.chunkTypes.first == "desc")
            #expect(!parsed.chunkTypes.contains("kuki"))
            let desc = parsed.description
            #expect(desc.sampleRate == 48_000 && desc.format == "opus" && desc.bytesPerPacket == 0)
            #expect(desc.channels == Int64(testCase.channels))
            // opusenc ends 40 and 60 ms streams with a shorter packet: then frames per packet
            // is 0 and the table lists each packet's frames.
            let packetFrames = try ogg.packets.map { try OpusPacket.sampleCount($0) }
            let frameSize = packetFrames[0]
            if Set(packetFrames).count == 1 {
                #expect(desc.framesPerPacket == Int64(frameSize))
            } else {
                #expect(desc.framesPerPacket == 0)
                #expect(parsed.packetTable.packetFrames == packetFrames)
            }

            // Judged against opusinfo (pre-skip) and opusdec (exact length), not our reader.
            let info = try tools.run("opusinfo", ["in.opus"]).standardOutput
            let decodedLength = try tools.opusdec("in.opus").frameCount
            let table = parsed.packetTable
            #expect(table.packetCount == Int64(ogg.packets.count))
            #expect(table.packetSizes.count == ogg.packets.count)
            #expect(table.packetSizes.reduce(0, +) == parsed.audioByteCount)
            #expect(table.validFrames == Int64(decodedLength))
            #expect(info.contains("Pre-skip: \(table.primingFrames)\n"))
            let totalFrames = Int64(packetFrames.reduce(0, +))
            #expect(Int64(table.remainderFrames) == totalFrames - Int64(table.primingFrames) - table.validFrames)
            #expect(table.remainderFrames >= 0 && Int(table.remainderFrames) < packetFrames.last! + 960)

            // Every tag survives in info (keys lower-case, as Apple spells its own).
            for (key, value) in OggOpusInteropTests.tags {
                #expect(parsed.info[key.lowercased()] == value)
            }
            let probe = try tools.run("ffprobe", ["-v", "error", "-show_entries", "format_tags",
                                                  "-of", "default=noprint_wrappers=1", "out.caf"]).standardOutput
            #expect(probe.contains("TAG:distance_marker=finish-1000m"), "ffprobe: \(probe)")
        }
    }

    /// ffmpeg 5.1's CAF demuxer reads pakt but applies neither priming nor remainder: it
    /// decodes every frame of every packet. Cutting priming from the front and remainder from
    /// the back of its output must give exactly ffmpeg's decode of the Ogg file, which
    /// honours pre-skip and end trimming, and opusdec's, sample for sample.
    @Test(arguments: cases)
    func decodesToTheSameSamplesAsTheOggFile(_ testCase: OggOpusInteropTests.Case) throws {
        try ToolBox.withTemporaryFolder { tools in
            try OggOpusInteropTests().makeOpusencFile(testCase, in: tools)
            let ogg = try OggOpusReader.read(tools.read("in.opus"))
            try tools.write(try CAFOpusWriter.write(ogg), to: "out.caf")
            let table = IndependentCAFParser(try tools.read("out.caf")).packetTable

            let channels = testCase.channels
            let fromCAF = try Self.ffmpegDecode("out.caf", in: tools)
            let fromOgg = try Self.ffmpegDecode("in.opus", in: tools)
            let total = Int(table.primingFrames) + Int(table.validFrames) + Int(table.remainderFrames)
            #expect(fromCAF.count == total * channels)
            let trimmed = Array(fromCAF.dropFirst(Int(table.primingFrames) * channels).prefix(Int(table.validFrames) * channels))
            #expect(trimmed.count == fromOgg.count)
            #expect(trimmed == fromOgg)

            let reference = try tools.opusdec("in.opus")
            #expect(reference.frameCount * channels == trimmed.count)
            let referenceSamples = stride(from: 0, to: reference.data.count - 3, by: 4).map { at in
                Float(bitPattern: UInt32(reference.data[at]) | UInt32(reference.data[at + 1]) << 8
                    | UInt32(reference.data[at + 2]) << 16 | UInt32(reference.data[at + 3]) << 24)
            }
            // The same packets through the same libopus: bit-identical.
            #expect(trimmed == referenceSamples)
        }
    }

    @Test(arguments: cases)
    func rewrapsOggToCAFAndBackWithoutChangingAPacket(_ testCase: OggOpusInteropTests.Case) throws {
        try ToolBox.withTemporaryFolder { tools in
            try OggOpusInteropTests().makeOpusencFile(testCase, in: tools)
            let ogg = try OggOpusReader.read(tools.read("in.opus"))
            let fromCAF = try CAFOpusReader.read(try CAFOpusWriter.write(ogg))
            #expect(fromCAF.packets == ogg.packets)
            #expect(fromCAF.preSkip == ogg.preSkip && fromCAF.validSampleCount == ogg.validSampleCount)
            #expect(fromCAF.channelCount == ogg.channelCount && fromCAF.tags == ogg.tags)
            // CAF has no field for the input rate; everything else is identical.
            var expected = ogg
            expected.inputSampleRate = OpusStream.sampleRate
            #expect(fromCAF == expected)

            try tools.write(try OggOpusWriter.write(fromCAF), to: "back.opus")
            let before = try tools.opusdec("in.opus"), after = try tools.opusdec("back.opus")
            #expect(after.frameCount == before.frameCount && after.data == before.data)
        }
    }

    /// Why voicemsg writes its own CAF, shown with the independent parser: ffmpeg 5.1's `-c copy` CAF
    /// claims every decoded frame is valid (no priming, no remainder), so a player plays the
    /// encoder's pre-skip and the end padding as audio, and it drops the tags.
    @Test func ffmpegCopyGetsPrimingRemainderAndTagsWrong() throws {
        try ToolBox.withTemporaryFolder { tools in
            let testCase = OggOpusInteropTests.cases[0]
            try OggOpusInteropTests().makeOpusencFile(testCase, in: tools)
            let ogg = try OggOpusReader.read(tools.read("in.opus"))
            try tools.run("ffmpeg", ["-v", "error", "-y", "-i", "in.opus", "-c", "copy", "ffmpeg.caf"])
            try tools.write(try CAFOpusWriter.write(ogg), to: "ours.caf")
            let theirs = IndependentCAFParser(try tools.read("ffmpeg.caf"))
            let ours = IndependentCAFParser(try tools.read("ours.caf"))

            #expect(theirs.packetTable.packetCount == ours.packetTable.packetCount)
            #expect(theirs.packetTable.primingFrames == 0)
            #expect(ours.packetTable.primingFrames == Int32(ogg.preSkip) && ogg.preSkip > 0)
            #expect(theirs.packetTable.remainderFrames == 0)
            #expect(ours.packetTable.remainderFrames > 0)
            #expect(theirs.packetTable.validFrames == Int64(ogg.packets.count * 960))
            #expect(ours.packetTable.validFrames == ogg.validSampleCount)
            let extra = theirs.packetTable.validFrames - ours.packetTable.validFrames
            #expect(extra == Int64(ours.packetTable.primingFrames) + Int64(ours.packetTable.remainderFrames))
            #expect(theirs.info["distance_marker"] == nil && theirs.info["DISTANCE_MARKER"] == nil)
            #expect(ours.info["distance_marker"] == "finish-1000m")
        }
    }
}
