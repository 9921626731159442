import Foundation
import Testing
@_spi(Benchmarks) @testable import AudioPipeline

@Suite struct PiecewiseEncodingTests {
    static func rms(_ samples: ArraySlice<Float>) -> Double {
        (samples.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(1, samples.count))).squareRoot()
    }

    @Test func reencodingOnePieceLeavesTheOthersAndTheLengthAlone() throws {
        let samples = KWeightingTests.speechLike(seconds: 32)
        let encoder = OpusEncoder()
        let first = try encoder.encodeInPieces(GainedSamples(samples), inputSampleRate: 48_000, tags: OpusTags(vendor: "test"))
        #expect(first.bounds.count - 1 == 3, "32 s in pieces of at most 10 s: \(first.bounds)")

        // Halve the middle of the second piece only.
        let frameSize = 960
        let middle = (first.bounds[1] * frameSize + 24_000)..<(first.bounds[2] * frameSize - 24_000)
        var changed = samples
        for i in middle { changed[i] *= 0.5 }
        let pieces = first.pieces(covering: middle)
        #expect(pieces == [1])
        let second = try encoder.reencode(first, from: GainedSamples(changed), pieces: pieces)

        #expect(second.stream.packets.count == first.stream.packets.count)
        let untouched = Array(0..<first.bounds[1]) + Array(first.bounds[2]..<first.bounds[3])
        #expect(untouched.allSatisfy { second.stream.packets[$0] == first.stream.packets[$0] })
        #expect((first.bounds[1]..<first.bounds[2]).contains { second.stream.packets[$0] != first.stream.packets[$0] })

        let before = try OpusStreamDecoder.decode(first.stream)
        let after = try OpusStreamDecoder.decode(second.stream)
        #expect(after.count == samples.count)
        let ratio = Self.rms(after[middle]) / Self.rms(before[middle])
        #expect(abs(ratio - 0.5) < 0.05, "the re-encoded part is at \(ratio) of its level")
        // Past the join the audio is as before: same packets, decoder state nearly the same.
        let later = (first.bounds[2] * frameSize + 9_600)..<(first.bounds[3] * frameSize - 9_600)
        let difference = Self.rms(ArraySlice(zip(after[later], before[later]).map { $0 - $1 }))
        #expect(difference < 0.01 * Self.rms(before[later]), "after the join: \(difference)")
    }
}

/// The pipeline returns a stream; the file's container and size come from the container.
@Suite struct ProcessedMessageFileTests {
    @Test(arguments: OpusContainer.allCases)
    func theFileCompletesTheReport(_ container: OpusContainer) throws {
        let samples = KWeightingTests.speechLike(seconds: 2)
        let stream = try OpusEncoder().encode(samples, inputSampleRate: 48_000, tags: OpusTags(vendor: "test"))
        let report = MessageReport(
            input: .init(name: "x", format: "test", sampleRate: 48_000, channels: 1, durationSeconds: 2),
            speech: .init(startSeconds: 0, endSeconds: 2, keptStartSeconds: 0, keptEndSeconds: 2),
            loudnessBefore: .init(integratedLoudness: -20, truePeak: -3), loudnessAfter: .init(integratedLoudness: -16, truePeak: -1),
            normalization: .init(gainDB: 4, isGainCapped: false, limiterCeilingDB: -2, limiterMaximumReductionDB: 0, encodePasses: 1),
            output: .init(durationSeconds: stream.durationSeconds, sampleCount: stream.validSampleCount, preSkip: stream.preSkip, packets: stream.packets.count),
            stageSeconds: [:])
        let message = ProcessedMessage(stream: stream, report: report)
        #expect(message.report.output.bytes == nil && message.report.output.container == nil)
        let file = try message.file(in: container)
        // WebM is written, not detected (see OpusContainer); its EBML magic is enough here.
        #expect(container == .webm ? file.bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) : OpusContainer(detecting: file.bytes) == container)
        #expect(file.report.output.container == container)
        #expect(file.report.output.bytes == file.bytes.count)
        #expect(file.report.output.bitrate == Double(file.bytes.count * 8) / stream.durationSeconds)
    }
}
