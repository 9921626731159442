import Foundation
import Testing
@testable import AudioPipeline

/// Ogg Opus from opusenc rewrapped to WebM, judged by an independent EBML parser, ffprobe,
/// ffmpeg (through libopus) and opusdec: the same packets, the pre-skip as CodecDelay, the end
/// trimming as the last block's DiscardPadding, so ffmpeg decodes the WebM to exactly the
/// samples it and opusdec decode from the Ogg file.
@Suite struct WebMOpusInteropTests {
    static let cases = OggOpusInteropTests.cases

    /// What the Ogg file says, by the reference tools where they can say it: opusinfo's
    /// pre-skip, opusdec's length, and the identification header's own bytes.
    struct Reference {
        var stream: OpusStream
        var preSkip: Int
        var validSampleCount: Int
        var identificationHeader: [UInt8]
        var packetSampleCounts: [Int]

        /// The packets that start before the end; WebM leaves out any after it.
        var keptPacketCount: Int {
            var start = 0
            return packetSampleCounts.prefix { count in
                defer { start += count }
                return start < preSkip + validSampleCount
            }.count
        }
        var trimmedSampleCount: Int {
            packetSampleCounts.prefix(keptPacketCount).reduce(0, +) - preSkip - validSampleCount
        }
    }

    /// Makes `in.opus` with opusenc and `out.webm` from it.
    @discardableResult
    static func rewrap(_ testCase: OggOpusInteropTests.Case, in tools: ToolBox, writer: WebMOpusWriter = WebMOpusWriter()) throws -> Reference {
        try OggOpusInteropTests().makeOpusencFile(testCase, in: tools)
        let ogg = try tools.read("in.opus")
        let stream = try OggOpusReader.read(ogg)
        try tools.write(try writer.write(stream), to: "out.webm")

        let info = try tools.run("opusinfo", ["in.opus"]).standardOutput
        let line = try #require(info.split(separator: "\n").first { $0.contains("Pre-skip:") })
        let preSkip = try #require(line.split(separator: " ").last.flatMap { Int($0) })
        // RFC 7845: OpusHead opens the first packet, 19 bytes for channel mapping family 0.
        let head = try #require(ogg.indices.first { ogg[$0...].starts(with: Array("OpusHead".utf8)) })
        return Reference(
            stream: stream, preSkip: preSkip, validSampleCount: try tools.opusdec("in.opus").frameCount,
            identificationHeader: Array(ogg[head..<head + 19]),
            packetSampleCounts: try stream.packets.map { try OpusPacket.sampleCount($0) })
    }

    static func ffprobe(_ arguments: [String], in tools: ToolBox) throws -> [String: Any] {
        let output = try tools.run("ffprobe", ["-v", "error", "-print_format", "json"] + arguments).standardOutput
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
    }

    static func nanoseconds(_ samples: Int) -> Int64 { (Int64(samples) * 1_000_000_000 + 24_000) / 48_000 }

    @Test(arguments: cases)
    func ffprobeReadsOpusAt48kHzWithItsLengthAndTags(_ testCase: OggOpusInteropTests.Case) throws {
        try ToolBox.withTemporaryFolder { tools in
            let reference = try Self.rewrap(testCase, in: tools)
            let probe = try Self.ffprobe(["-show_streams", "-show_format", "out.webm"], in: tools)
            let streams = try #require(probe["streams"] as? [[String: Any]])
            let format = try #require(probe["format"] as? [String: Any])
            #expect(streams.count == 1)
            #expect(streams.first?["codec_name"] as? String == "opus")
            #expect(streams.first?["sample_rate"] as? String == "48000")
            #expect(streams.first?["channels"] as? Int == testCase.channels)
            #expect((format["format_name"] as? String)?.contains("webm") == true, "\(format)")
            // Info's Duration is the message's exact length; ffprobe shows it in microseconds.
            let duration = try #require((format["duration"] as? String).flatMap(Double.init))
            #expect(abs(duration - Double(reference.validSampleCount) / 48_000) < 2e-6, "ffprobe says \(duration) s")
            // The first sample sits at minus the pre-skip, to the microsecond: 6.5 ms for
            // libopus, which 1 ms ticks would have made 7.
            let start = try #require((streams.first?["start_time"] as? String).flatMap { Double($0) })
            #expect(abs(start + Double(reference.preSkip) / 48_000) < 1e-6, "ffprobe says the stream starts at \(start) s")

            // Every tag, as the file's tags; TITLE is also the segment's title.
            let tags = try #require(format["tags"] as? [String: String], "\(format)")
            let upper = Dictionary(tags.map { ($0.key.uppercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
            for (key, value) in OggOpusInteropTests.tags {
                #expect(upper[key] == value, "ffprobe tags: \(tags)")
            }
            #expect(upper["ENCODER"] == reference.stream.tags["ENCODER"])
        }
    }

    /// Where two decodes first differ, or nil when they are the same samples, so that a
    /// failure names a place instead of printing both.
    static func firstDifference(_ a: [Float], _ b: [Float]) -> Int? {
        a.count == b.count ? a.indices.first { a[$0] != b[$0] } : min(a.count, b.count)
    }

    /// ffmpeg reads CodecDelay and DiscardPadding itself, so its decode of the WebM is its
    /// decode of the Ogg file, and opusdec's, sample for sample (the same packets through the
    /// same libopus). And it decodes exactly as ffmpeg's own `-c copy` WebM of the Ogg file.
    ///
    /// One exception, ffmpeg 5.1's and not the file's: when the first block is also the last
    /// and carries DiscardPadding, the demuxer's skip-samples data for that packet says 0 at
    /// the start, which replaces the decoder's pre-skip, so ffmpeg plays the pre-skip too. Its
    /// own `-c copy` file does the same; the test pins that down.
    @Test(arguments: cases)
    func decodesToTheSameSamplesAsTheOggFile(_ testCase: OggOpusInteropTests.Case) throws {
        try ToolBox.withTemporaryFolder { tools in
            let reference = try Self.rewrap(testCase, in: tools)
            let channels = testCase.channels
            let fromWebM = try CAFOpusInteropTests.ffmpegDecode("out.webm", in: tools)
            let fromOgg = try CAFOpusInteropTests.ffmpegDecode("in.opus", in: tools)
            try tools.run("ffmpeg", ["-v", "error", "-y", "-i", "in.opus", "-c", "copy", "ffmpeg.webm"])
            #expect(Self.firstDifference(fromWebM, try CAFOpusInteropTests.ffmpegDecode("ffmpeg.webm", in: tools)) == nil)

            let heard = try tools.opusdec("in.opus")
            let heardSamples = stride(from: 0, to: heard.data.count - 3, by: 4).map { at in
                Float(bitPattern: UInt32(heard.data[at]) | UInt32(heard.data[at + 1]) << 8
                    | UInt32(heard.data[at + 2]) << 16 | UInt32(heard.data[at + 3]) << 24)
            }
            #expect(heardSamples.count == reference.validSampleCount * channels)
            let played = reference.keptPacketCount == 1 && reference.trimmedSampleCount > 0
                ? Array(fromWebM.dropFirst(reference.preSkip * channels)) : fromWebM
            #expect(played.count == reference.validSampleCount * channels, "ffmpeg decoded \(fromWebM.count) samples")
            #expect(Self.firstDifference(played, fromOgg) == nil)
            #expect(Self.firstDifference(played, heardSamples) == nil)

            // ffprobe sees the trimming as the last packet's discard padding, in samples.
            let packets = try #require(try Self.ffprobe(["-show_packets", "out.webm"], in: tools)["packets"] as? [[String: Any]])
            #expect(packets.count == reference.keptPacketCount)
            let padding = (packets.last?["side_data_list"] as? [[String: Any]])?.first?["discard_padding"] as? Int
            #expect((padding ?? 0) == reference.trimmedSampleCount, "\(packets.last ?? [:])")
        }
    }

    @Test(arguments: cases)
    func followsTheMatroskaMappingOfOpus(_ testCase: OggOpusInteropTests.Case) throws {
        try ToolBox.withTemporaryFolder { tools in
            let reference = try Self.rewrap(testCase, in: tools)
            let file = IndependentWebMParser(try tools.read("out.webm"))
            #expect(file.topLevel.map(\.id) == [0x1A45_DFA3, 0x1853_8067])
            #expect(file.header[0x4282].string == "webm")
            #expect(file.header[0x4287].unsigned == 4 && file.header[0x4285].unsigned == 2)

            let info = file.segment[0x1549_A966]
            #expect(info[0x2AD7B1].unsigned == 500_000)
            #expect(abs(info[0x4489].float - Double(reference.validSampleCount) / 24) < 1e-9)
            #expect(info[0x4D80].string == "voicemsg" && info[0x5741].string == "voicemsg")

            let track = file.track
            #expect(track[0xD7].unsigned == 1 && track[0x83].unsigned == 2)
            #expect(track[0x86].string == "A_OPUS")
            #expect(Array(track[0x63A2].body) == reference.identificationHeader)
            #expect(track[0x56AA].unsigned == UInt64(Self.nanoseconds(reference.preSkip)))
            #expect(track[0x56BB].unsigned == 80_000_000)
            #expect(track[0xE1][0xB5].float == 48_000)
            #expect(track[0xE1][0x9F].unsigned == UInt64(testCase.channels))

            // The same packets, unlaced, each a keyframe, timestamped from the first sample.
            let blocks = file.blocks
            #expect(blocks.map(\.block.frame) == Array(reference.stream.packets.prefix(reference.keptPacketCount)))
            #expect(blocks.allSatisfy { $0.block.track == 1 })
            var start = 0
            for (index, entry) in blocks.enumerated() {
                let timestamp = Int64(entry.clusterTimestamp) + Int64(entry.block.relativeTimestamp)
                // In 0.5 ms ticks, on which every Opus frame boundary lands.
                #expect(Int64(start) % 120 == 0 && timestamp == Int64(start) / 24, "block \(index)")
                start += reference.packetSampleCounts[index]
                if index < blocks.count - 1 || reference.trimmedSampleCount == 0 {
                    #expect(entry.isSimple && entry.block.flags == 0x80, "block \(index)")
                } else {
                    #expect(!entry.isSimple && entry.block.flags & 0x06 == 0, "the last block")
                    #expect(entry.discardPadding == Self.nanoseconds(reference.trimmedSampleCount))
                }
            }

            // The SeekHead and the Cues point at what they name.
            let segmentBody = file.segment.bodyOffset
            for seek in file.segment[0x114D_9B74].all(0x4DBB) {
                let target = segmentBody + Int(seek[0x53AC].unsigned)
                let id = Array(seek[0x53AB].body)
                #expect(Array(file.bytes[target..<target + id.count]) == id)
            }
            let cues = file.segment[0x1C53_BB6B]
            #expect(cues.offset < file.clusters[0].offset)
            let points = cues.all(0xBB)
            #expect(points.count == file.clusters.count)
            for (point, cluster) in zip(points, file.clusters) {
                #expect(point[0xB3].unsigned == cluster[0xE7].unsigned)
                #expect(point[0xB7][0xF7].unsigned == 1)
                #expect(segmentBody + Int(point[0xB7][0xF1].unsigned) == cluster.offset)
            }
        }
    }

    /// Clusters of at most 5 s by default; a shorter limit makes more, and the decode is the
    /// same whatever the clusters.
    @Test(arguments: [(7, 48_000 * 5, 3), (2, 48_000, 4)])
    func aLongMessageSpansSeveralClusters(caseIndex: Int, clusterDuration: Int, expectedClusters: Int) throws {
        try ToolBox.withTemporaryFolder { tools in
            let testCase = Self.cases[caseIndex]
            let reference = try Self.rewrap(testCase, in: tools, writer: WebMOpusWriter(clusterDuration: clusterDuration))
            let file = IndependentWebMParser(try tools.read("out.webm"))
            #expect(file.clusters.count == expectedClusters, "\(testCase.name)")
            let clusterTicks = UInt64(clusterDuration / 24)
            let timestamps = file.clusters.map { $0[0xE7].unsigned }
            #expect(timestamps.first == 0)
            #expect(zip(timestamps, timestamps.dropFirst()).allSatisfy { $1 > $0 && $1 - $0 <= clusterTicks + 240 })
            #expect(file.blocks.allSatisfy { $0.block.relativeTimestamp >= 0 && UInt64($0.block.relativeTimestamp) < clusterTicks })

            let fromWebM = try CAFOpusInteropTests.ffmpegDecode("out.webm", in: tools)
            #expect(fromWebM.count == reference.validSampleCount * testCase.channels)
            #expect(Self.firstDifference(fromWebM, try CAFOpusInteropTests.ffmpegDecode("in.opus", in: tools)) == nil)
        }
    }

    /// When the message ends before the last packet starts, that packet is left out and the
    /// one the end falls in carries the padding; ffmpeg still plays exactly the message.
    @Test func anEndBeforeTheLastPacketLeavesItOut() throws {
        try ToolBox.withTemporaryFolder { tools in
            let reference = try Self.rewrap(Self.cases[0], in: tools)
            var shortened = reference.stream
            shortened.validSampleCount -= 2 * 960 + 100
            try tools.write(try WebMOpusWriter.write(shortened), to: "short.webm")
            let blocks = IndependentWebMParser(try tools.read("short.webm")).blocks
            #expect(blocks.count < reference.stream.packets.count - 1)
            #expect(blocks.map(\.block.frame) == Array(reference.stream.packets.prefix(blocks.count)))
            let covered = reference.packetSampleCounts.prefix(blocks.count).reduce(0, +)
            let trimmed = covered - reference.preSkip - Int(shortened.validSampleCount)
            #expect(trimmed > 0 && trimmed < reference.packetSampleCounts[blocks.count - 1])
            #expect(blocks.last?.discardPadding == Self.nanoseconds(trimmed))

            let fromWebM = try CAFOpusInteropTests.ffmpegDecode("short.webm", in: tools)
            let fromOgg = try CAFOpusInteropTests.ffmpegDecode("in.opus", in: tools)
            #expect(fromWebM.count == Int(shortened.validSampleCount))
            #expect(Self.firstDifference(fromWebM, Array(fromOgg.prefix(Int(shortened.validSampleCount)))) == nil)
        }
    }
}
