import Testing
@testable import AudioPipeline
import TestSupport

/// Hostile and damaged input must end in `.invalidContainer` with a message, never a trap.
@Suite struct OggOpusReaderMalformedInputTests {
    static let valid: [UInt8] = try! OggOpusWriter(serialNumber: 42).write(
        OggOpusWriterTests.stream(sizes: Array(repeating: 80, count: 120) + [300, 600]))

    static func expectInvalid(_ bytes: [UInt8], mentioning words: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) {
            try OggOpusReader.read(bytes)
        } throws: { error in
            guard let error = error as? AudioPipelineError, error.code == .invalidContainer else { return false }
            return words.map { error.message.contains($0) } ?? !error.message.isEmpty
        }
    }

    @Test func rejectsEmptyInput() {
        Self.expectInvalid([], mentioning: "empty")
    }

    @Test(arguments: [1, 4, 26, 27, 28, 40, 47, 60, 100, 1_000, 2_000, 5_000, -200, -1])
    func rejectsTruncatedInput(cut: Int) {
        let length = cut > 0 ? cut : Self.valid.count + cut
        Self.expectInvalid(Array(Self.valid.prefix(length)))
    }

    @Test func rejectsAFileCutAtAPageBoundary() throws {
        let pages = try OggOpusWriterTests.pages(Self.valid)
        let withoutLast = pages.dropLast().flatMap(\.serialized)
        Self.expectInvalid(withoutLast, mentioning: "end-of-stream")
        // Only the headers, then nothing.
        Self.expectInvalid(pages.prefix(2).flatMap(\.serialized), mentioning: "end-of-stream")
        Self.expectInvalid(pages.prefix(1).flatMap(\.serialized), mentioning: "OpusTags")
    }

    @Test(arguments: [30, 80, 200, 1_500])
    func rejectsACorruptedByte(offset: Int) {
        var bytes = Self.valid
        bytes[offset] ^= 0x10
        Self.expectInvalid(bytes, mentioning: "checksum")
    }

    @Test func rejectsRandomBytes() {
        var generator = SeededGenerator(seed: 1)
        for length in [1, 3, 27, 100, 4_096] {
            Self.expectInvalid((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        Self.expectInvalid(Array("OggS but not really an Ogg file at all, just text".utf8))
    }

    @Test func rejectsChainedAndMultiplexedStreams() throws {
        let other = try OggOpusWriter(serialNumber: 43).write(OggOpusWriterTests.stream(sizes: [80, 80]))
        Self.expectInvalid(Self.valid + other, mentioning: "chained")
        let ours = try OggOpusWriterTests.pages(Self.valid), theirs = try OggOpusWriterTests.pages(other)
        Self.expectInvalid(([ours[0], theirs[0]] + ours.dropFirst()).flatMap(\.serialized), mentioning: "multiplexed")
        Self.expectInvalid(Self.valid + [0, 1, 2], mentioning: "after the end-of-stream")
    }

    @Test func rejectsMissingAndReorderedPages() throws {
        let pages = try OggOpusWriterTests.pages(Self.valid)
        #expect(pages.count > 4)
        var missing = pages
        missing.remove(at: 3)
        Self.expectInvalid(missing.flatMap(\.serialized), mentioning: "sequence")
        var swapped = pages
        swapped.swapAt(2, 3)
        Self.expectInvalid(swapped.flatMap(\.serialized), mentioning: "sequence")
    }

    @Test func rejectsBadHeaders() throws {
        var pages = try OggOpusWriterTests.pages(Self.valid)
        func mutateHead(_ change: (inout [UInt8]) -> Void, mentioning: String) {
            var copy = pages
            change(&copy[0].body)
            copy[0].lacingValues = [UInt8(copy[0].body.count)]
            Self.expectInvalid(copy.flatMap(\.serialized), mentioning: mentioning)
        }
        mutateHead({ $0[0] = UInt8(ascii: "X") }, mentioning: "OpusHead")
        mutateHead({ $0[8] = 0x10 }, mentioning: "version")
        mutateHead({ $0[9] = 0 }, mentioning: "channel count")
        mutateHead({ $0[9] = 3 }, mentioning: "1 or 2")
        mutateHead({ $0[18] = 1 }, mentioning: "mapping family 1")
        mutateHead({ $0.removeLast(3) }, mentioning: "truncated")
        // A comment count that would need gigabytes.
        pages[1].body.replaceSubrange((pages[1].body.count - 4 - 20)..<(pages[1].body.count - 20), with: [0xFF, 0xFF, 0xFF, 0x7F])
        Self.expectInvalid(pages.flatMap(\.serialized))
    }

    @Test func rejectsImpossibleGranulePositions() throws {
        let pages = try OggOpusWriterTests.pages(Self.valid)
        var beyond = pages
        beyond[beyond.count - 1].granulePosition += 100_000
        Self.expectInvalid(beyond.flatMap(\.serialized), mentioning: "decode to only")
        var backwards = pages
        backwards[backwards.count - 1].granulePosition = 1
        Self.expectInvalid(backwards.flatMap(\.serialized), mentioning: "below the previous")
        var negative = pages
        negative[3].granulePosition = -5
        Self.expectInvalid(negative.flatMap(\.serialized))
    }

    /// Any byte changed inside any page, with the checksum made right again so the parser
    /// behind the checksum sees it: the reader may accept or refuse, but never traps.
    @Test func survivesMutationsBehindAValidChecksum() throws {
        let pages = try OggOpusWriterTests.pages(Self.valid)
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<1_500 {
            var copy = pages
            let index = Int.random(in: 0..<copy.count, using: &generator)
            var raw = copy[index].serialized
            let position = Int.random(in: 4..<raw.count, using: &generator)
            guard !(22..<26).contains(position) else { continue }
            raw[position] = UInt8.random(in: 0...255, using: &generator)
            raw.replaceSubrange(22..<26, with: [0, 0, 0, 0])
            let crc = OggCRC.checksum(raw)
            raw.replaceSubrange(22..<26, with: (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) })
            let bytes = copy[..<index].flatMap(\.serialized) + raw + copy[(index + 1)...].flatMap(\.serialized)
            copy.removeAll()
            do {
                _ = try OggOpusReader.read(bytes)
            } catch let error as AudioPipelineError {
                #expect(error.code == .invalidContainer)
            }
        }
    }
}
