import Testing
@testable import AudioPipeline
import TestSupport

@Suite struct CAFOpusReaderTests {
    /// The writer tests' stream without its output gain, which CAF cannot carry.
    static let stream: OpusStream = {
        var stream = OggOpusWriterTests.stream(sizes: Array(repeating: 70, count: 40) + [300, 1_000])
        stream.outputGain = 0
        return stream
    }()
    static let valid: [UInt8] = try! CAFOpusWriter.write(stream)

    static func expectInvalid(_ bytes: [UInt8], mentioning words: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) {
            try CAFOpusReader.read(bytes)
        } throws: { error in
            guard let error = error as? AudioPipelineError, error.code == .invalidContainer else { return false }
            return words.map { error.message.contains($0) } ?? !error.message.isEmpty
        }
    }

    @Test func roundTripsAStream() throws {
        var expected = Self.stream
        expected.inputSampleRate = 48_000
        #expect(try CAFOpusReader.read(Self.valid) == expected)
    }

    @Test func roundTripsMixedPacketDurationsWithPerPacketFrameCounts() throws {
        var stream = Self.stream
        stream.packets[3][0] = 31 << 3  // a 20 ms CELT packet among 20 ms SILK ones: same length
        stream.packets[5][0] = 18 << 3  // a 10 ms CELT packet
        stream.validSampleCount -= 480
        let bytes = try CAFOpusWriter.write(stream)
        #expect(IndependentCAFParser(bytes).description.framesPerPacket == 0)
        var expected = stream
        expected.inputSampleRate = 48_000
        #expect(try CAFOpusReader.read(bytes) == expected)
    }

    @Test func refusesWhatCAFCannotCarry() {
        var gain = Self.stream
        gain.outputGain = 256
        var tooLong = Self.stream
        tooLong.validSampleCount += 10_000
        for stream in [gain, tooLong] {
            #expect(throws: AudioPipelineError.self) { try CAFOpusWriter.write(stream) }
        }
    }

    @Test func rejectsEmptyAndForeignInput() throws {
        Self.expectInvalid([], mentioning: "empty")
        Self.expectInvalid(Array("RIFF....WAVEfmt ".utf8), mentioning: "caff")
        var pcm = Self.valid
        pcm.replaceSubrange(28..<32, with: Array("lpcm".utf8))  // desc format ID
        Self.expectInvalid(pcm, mentioning: "not Opus")
        let ogg = try OggOpusWriter.write(Self.stream)
        Self.expectInvalid(ogg)
    }

    @Test(arguments: [1, 4, 7, 8, 12, 19, 30, 50, 100, 200, -500, -1])
    func rejectsTruncatedInput(cut: Int) {
        let length = cut > 0 ? cut : Self.valid.count + cut
        Self.expectInvalid(Array(Self.valid.prefix(length)))
    }

    @Test func rejectsAnInconsistentPacketTable() {
        // pakt comes after desc (12 + 32), chan (12 + 12) and info; find it by name.
        let paktOffset = Self.valid.indices.first { Array(Self.valid[$0..<($0 + 4)]) == Array("pakt".utf8) }! + 12
        var valid = Self.valid
        valid[paktOffset + 15] &+= 1  // one more valid frame than the packets hold
        Self.expectInvalid(valid, mentioning: "packets hold")
        var count = Self.valid
        count[paktOffset + 7] &+= 1  // one more packet than listed
        Self.expectInvalid(count)
        var negative = Self.valid
        negative[paktOffset] = 0xFF
        Self.expectInvalid(negative)
    }

    @Test func rejectsRandomBytesAndSurvivesMutations() {
        var generator = SeededGenerator(seed: 11)
        for length in [1, 8, 20, 500] {
            Self.expectInvalid((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        for _ in 0..<2_000 {
            var bytes = Self.valid
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            do {
                _ = try CAFOpusReader.read(bytes)
            } catch let error as AudioPipelineError {
                #expect(error.code == .invalidContainer)
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
    }
}
