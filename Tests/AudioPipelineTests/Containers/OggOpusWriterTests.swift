import Testing
@testable import AudioPipeline

/// The writer's page layout, checked by reading the pages back one by one.
@Suite struct OggOpusWriterTests {
    /// A stream of 20 ms SILK packets (TOC 0x08) with the given sizes.
    static func stream(sizes: [Int], preSkip: Int = 312, trim: Int64 = 500) -> OpusStream {
        var generator = SystemRandomNumberGenerator()
        let packets = sizes.map { size in [0x08] + (1..<max(size, 1)).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        var tags = OpusTags(vendor: "voicemsg test")
        tags.append("DISTANCE_MARKER", "5000m")
        return OpusStream(
            channelCount: 1, preSkip: preSkip, inputSampleRate: 44_100, outputGain: -256,
            packets: packets, validSampleCount: Int64(sizes.count * 960 - preSkip) - trim, tags: tags)
    }

    static func pages(_ bytes: [UInt8]) throws -> [OggPage] {
        var reader = ByteReader(bytes, context: "test")
        var pages: [OggPage] = []
        while !reader.isAtEnd { pages.append(try OggPage.parse(from: &reader)) }
        return pages
    }

    @Test(arguments: [
        [1], [254], [255], [256], [510], [65_025], [70_000, 3, 255 * 300, 1],
        Array(repeating: 40, count: 600), Array(repeating: 255, count: 300),
    ])
    func roundTripsPacketsOfAnySize(sizes: [Int]) throws {
        let stream = Self.stream(sizes: sizes)
        let bytes = try OggOpusWriter(serialNumber: 7).write(stream)
        #expect(try OggOpusReader.read(bytes) == stream)

        let pages = try Self.pages(bytes)
        #expect(pages.allSatisfy { $0.serialNumber == 7 })
        #expect(pages.map(\.sequenceNumber) == Array(0..<UInt32(pages.count)))
        #expect(pages.map { $0.flags.contains(.beginningOfStream) } == [true] + Array(repeating: false, count: pages.count - 1))
        #expect(pages.map { $0.flags.contains(.endOfStream) } == Array(repeating: false, count: pages.count - 1) + [true])
        // Each header packet alone on its own page, with granule 0.
        #expect(pages[0].lacingValues.count == 1 && pages[0].granulePosition == 0)
        #expect(pages[1].granulePosition == 0 && !pages[2].flags.contains(.continued))
        // The last granule is pre-skip + valid samples: the end trimming.
        #expect(pages.last?.granulePosition == Int64(stream.preSkip) + stream.validSampleCount)
        #expect(pages.allSatisfy { $0.lacingValues.count <= 255 })
    }

    @Test func writesTheOpusHeadFields() throws {
        let stream = Self.stream(sizes: [100, 100])
        let pages = try Self.pages(try OggOpusWriter.write(stream))
        let head = pages[0].body
        #expect(Array(head[0..<8]) == Array("OpusHead".utf8))
        #expect(head[8] == 1 && head[9] == 1 && head[18] == 0 && head.count == 19)
        #expect(UInt16(head[10]) | UInt16(head[11]) << 8 == 312)
        #expect(Int16(bitPattern: UInt16(head[16]) | UInt16(head[17]) << 8) == -256)
        let header = try OpusIdentificationHeader(parsing: head)
        #expect(header.inputSampleRate == 44_100 && header.outputGain == -256)
    }

    @Test func flushesAboutEverySecond() throws {
        let stream = Self.stream(sizes: Array(repeating: 60, count: 500))  // 10 s at 24 kb/s
        let pages = try Self.pages(try OggOpusWriter.write(stream))
        let audioPages = pages.dropFirst(2)
        #expect(audioPages.count == 10)
        #expect(audioPages.dropLast().allSatisfy { $0.lacingValues.count == 50 })
    }

    @Test func refusesStreamsOggCannotDescribe() {
        var tooLong = Self.stream(sizes: [100])
        tooLong.validSampleCount = 960
        var threeChannels = Self.stream(sizes: [100])
        threeChannels.channelCount = 3
        var badKey = Self.stream(sizes: [100])
        badKey.tags.append("A=B", "x")
        var emptyPacket = Self.stream(sizes: [100])
        emptyPacket.packets.append([])
        for stream in [tooLong, threeChannels, badKey, emptyPacket] {
            #expect(throws: AudioPipelineError.self) { try OggOpusWriter.write(stream) }
        }
    }

    @Test func writesAStreamWithoutAudio() throws {
        let stream = Self.stream(sizes: [], preSkip: 0, trim: 0)
        let bytes = try OggOpusWriter.write(stream)
        #expect(try OggOpusReader.read(bytes) == stream)
        #expect(try Self.pages(bytes).count == 2)
    }
}
