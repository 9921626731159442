import Testing
@testable import AudioPipeline

@Suite struct OpusPacketTests {
    /// (TOC byte, extra bytes, samples) from RFC 6716 §3.1, table 2 and the frame count codes.
    static let tocCases: [(UInt8, [UInt8], Int)] = [
        // SILK NB/MB/WB: 10, 20, 40, 60 ms.
        (UInt8(0 << 3), [UInt8](), 480), (1 << 3, [], 960), (2 << 3, [], 1_920), (3 << 3, [], 2_880),
        (11 << 3, [], 2_880),
        // Hybrid SWB/FB: 10, 20 ms.
        (12 << 3, [], 480), (13 << 3, [], 960), (14 << 3, [], 480), (15 << 3, [], 960),
        // CELT: 2.5, 5, 10, 20 ms.
        (16 << 3, [], 120), (17 << 3, [], 240), (18 << 3, [], 480), (31 << 3, [], 960),
        // Code 1 and 2: two frames.
        (1 << 3 | 1, [], 1_920), (31 << 3 | 2, [1], 1_920),
        // Code 3: the count byte's low six bits; its high bits (VBR, padding) do not count.
        (31 << 3 | 3, [3], 2_880), (31 << 3 | 3, [0xC0 | 6], 5_760), (16 << 3 | 3, [48], 5_760),
        (3 << 3 | 3, [2], 5_760),
    ]

    @Test(arguments: tocCases)
    func countsSamplesFromTheTOC(toc: UInt8, rest: [UInt8], samples: Int) throws {
        #expect(try OpusPacket.sampleCount([toc] + rest + [0xAA, 0xBB]) == samples)
    }

    static let impossiblePackets: [[UInt8]] = [
        [],  // no TOC byte
        [31 << 3 | 3],  // code 3 without its count byte
        [31 << 3 | 3, 0],  // zero frames
        [31 << 3 | 3, 7],  // 7 x 20 ms = 140 ms, over the 120 ms limit
        [3 << 3 | 3, 3],  // 3 x 60 ms
        [16 << 3 | 3, 49],  // 49 x 2.5 ms
    ]

    @Test(arguments: impossiblePackets)
    func rejectsImpossiblePackets(packet: [UInt8]) {
        #expect(throws: AudioPipelineError.self) { try OpusPacket.sampleCount(packet) }
    }
}
