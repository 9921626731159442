import Testing
@testable import AudioPipeline

/// The WebM writer on streams made in the test, read back with the independent parser:
/// EBML's number forms at their edges, the smallest messages, and every refusal.
@Suite struct WebMOpusWriterTests {
    static let stream = OggOpusWriterTests.stream(sizes: Array(repeating: 60, count: 30))

    static func expectInvalid(_ stream: OpusStream, mentioning words: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) {
            try WebMOpusWriter.write(stream)
        } throws: { error in
            guard let error = error as? AudioPipelineError, error.code == .invalidContainer else { return false }
            return error.message.contains(words)
        }
    }

    /// A size takes the shortest form; all ones in it would mean "unknown", so 127 needs two bytes.
    static let sizes: [(Int, [UInt8])] = [
        (0, [0x80]), (126, [0xFE]), (127, [0x40, 0x7F]), (16_382, [0x7F, 0xFE]), (16_383, [0x20, 0x3F, 0xFF]),
    ]

    @Test(arguments: sizes)
    func sizesTakeTheShortestForm(size: Int, expected: [UInt8]) {
        var bytes: [UInt8] = []
        EBMLElement.appendSize(size, to: &bytes)
        #expect(bytes == expected)
    }

    static let signedValues: [(Int64, [UInt8])] = [
        (0, [0x00]), (-1, [0xFF]), (127, [0x7F]), (128, [0x00, 0x80]), (-128, [0x80]), (-129, [0xFF, 0x7F]),
        (12_666_667, [0x00, 0xC1, 0x47, 0x2B]), (Int64.min, [0x80, 0, 0, 0, 0, 0, 0, 0]),
    ]

    @Test(arguments: signedValues)
    func signedIntegersKeepTheirSignInTheFewestBytes(value: Int64, expected: [UInt8]) {
        #expect(EBMLElement(0x75A2, signed: value).body == expected)
        let header: [UInt8] = [0x75, 0xA2, 0x80 | UInt8(expected.count)]
        #expect(EBMLElement(0x75A2, signed: value).serialized == header + expected)
    }

    @Test func unsignedIntegersTakeTheFewestBytesUnlessAWidthIsGiven() {
        #expect(EBMLElement(0xD7, unsigned: 0).serialized == [0xD7, 0x81, 0x00])
        #expect(EBMLElement(0x2AD7B1, unsigned: 1_000_000).serialized == [0x2A, 0xD7, 0xB1, 0x83, 0x0F, 0x42, 0x40])
        #expect(EBMLElement(0x53AC, unsigned: 5, width: 8).body == [0, 0, 0, 0, 0, 0, 0, 5])
    }

    /// One packet is a whole message: one cluster, one BlockGroup carrying both the codec delay
    /// and the padding.
    @Test func onePacketIsOneBlockGroup() throws {
        var stream = OggOpusWriterTests.stream(sizes: [80], trim: 0)
        stream.validSampleCount = 480
        let file = IndependentWebMParser(try WebMOpusWriter.write(stream))
        #expect(file.clusters.count == 1)
        let blocks = file.blocks
        #expect(blocks.count == 1)
        #expect(blocks.first?.isSimple == false)
        #expect(blocks.first?.block.frame == stream.packets[0])
        #expect(blocks.first?.discardPadding == (Int64(960 - 312 - 480) * 1_000_000_000 + 24_000) / 48_000)
        #expect(file.track[0x56AA].unsigned == 6_500_000)
    }

    /// A message that ends exactly at a packet's end needs no padding: every block is simple.
    @Test func anExactEndNeedsNoPadding() throws {
        let stream = OggOpusWriterTests.stream(sizes: [60, 60, 60], trim: 0)
        let blocks = IndependentWebMParser(try WebMOpusWriter.write(stream)).blocks
        #expect(blocks.count == 3)
        #expect(blocks.allSatisfy { $0.isSimple && $0.discardPadding == nil })
    }

    /// No packets: a valid file with no clusters, no cues and no duration (which must be
    /// positive when present).
    @Test func noPacketsMakeAFileWithoutClusters() throws {
        let stream = OpusStream(channelCount: 1, preSkip: 0, inputSampleRate: 48_000, packets: [], validSampleCount: 0, tags: OpusTags(vendor: "x"))
        let file = IndependentWebMParser(try WebMOpusWriter.write(stream))
        #expect(file.clusters.isEmpty)
        #expect(file.segment.first(0x1C53_BB6B) == nil)
        #expect(file.segment[0x1549_A966].first(0x4489) == nil)
        #expect(file.segment.first(0x1254_C367) == nil, "no comments, no Tags")
        #expect(file.segment[0x114D_9B74].all(0x4DBB).count == 2)
    }

    @Test func tagsAreSimpleTagsInOrderAndTheTitleIsTheSegmentTitle() throws {
        var stream = Self.stream
        stream.tags.append("SENDER", "Grandma Ünal")
        stream.tags.append("ARTIST", "Grandma Ünal")
        stream.tags.append("TITLE", "go = go!")
        let file = IndependentWebMParser(try WebMOpusWriter.write(stream))
        let tag = file.segment[0x1254_C367][0x7373]
        #expect(tag[0x63C0].children.isEmpty, "empty Targets: the whole file")
        let pairs = tag.all(0x67C8).map { "\($0[0x45A3].string)=\($0[0x4487].string)" }
        #expect(pairs == ["DISTANCE_MARKER=5000m", "SENDER=Grandma Ünal", "ARTIST=Grandma Ünal", "TITLE=go = go!"])
        #expect(file.segment[0x1549_A966][0x7BA9].string == "go = go!")
    }

    /// The server rewraps on every request under one ETag: the same stream, the same bytes.
    @Test func theSameStreamGivesTheSameBytes() throws {
        #expect(try WebMOpusWriter.write(Self.stream) == WebMOpusWriter.write(Self.stream))
    }

    /// The output gain has a place in WebM, in the OpusHead that CodecPrivate holds.
    @Test func theOutputGainTravelsInCodecPrivate() throws {
        let file = IndependentWebMParser(try WebMOpusWriter.write(Self.stream))
        let head = Array(file.track[0x63A2].body)
        #expect(head.starts(with: Array("OpusHead".utf8)) && head.count == 19)
        #expect(Int16(bitPattern: UInt16(head[16]) | UInt16(head[17]) << 8) == Self.stream.outputGain)
        let inputRate = head[12..<16].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        #expect(inputRate == 44_100)
    }

    @Test func refusesWhatWebMCannotSay() {
        var stream = Self.stream
        stream.channelCount = 3
        Self.expectInvalid(stream, mentioning: "3 channels")

        stream = Self.stream
        stream.validSampleCount += 501
        Self.expectInvalid(stream, mentioning: "exceeds the 28800 samples")

        stream = Self.stream
        stream.validSampleCount = -1
        Self.expectInvalid(stream, mentioning: "valid sample count -1")

        stream = Self.stream
        stream.packets[3] = []
        Self.expectInvalid(stream, mentioning: "empty Opus packet")

        stream = Self.stream
        stream.tags.append("TITLE", "a\0b")
        Self.expectInvalid(stream, mentioning: "NUL")

        stream = Self.stream
        stream.tags.entries.append(OpusTags.Entry(key: "", value: "x"))
        Self.expectInvalid(stream, mentioning: "no name")
    }
}
