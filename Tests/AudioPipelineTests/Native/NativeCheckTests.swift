import Foundation
import Testing
@testable import AudioPipeline

/// `check` turns each C library's return codes into one kind of error: the library's words in
/// the message, its code in the cause, and whether trying again could help.
@Suite struct NativeCheckTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var library: NativeLibrary
        var code: Int32
        var reason: String
        var isRetryable: Bool
        var testDescription: String { "\(library) \(code)" }
    }

    /// Codes from opus_defines.h, sndfile.h and ebur128.h, with the words each library uses.
    static let failures: [Case] = [
        Case(library: .libopus, code: -1, reason: "invalid argument", isRetryable: false),
        Case(library: .libopus, code: -4, reason: "corrupted stream", isRetryable: false),
        Case(library: .libopus, code: -7, reason: "memory allocation failed", isRetryable: true),
        Case(library: .libsndfile, code: 1, reason: "Format not recognised.", isRetryable: false),
        Case(library: .libsndfile, code: 2, reason: "System error.", isRetryable: true),
        Case(library: .libebur128, code: 1, reason: "out of memory", isRetryable: true),
        Case(library: .libebur128, code: 2, reason: "the meter was not started in the mode this measurement needs", isRetryable: false),
    ]

    @Test(arguments: failures)
    func failuresCarryTheLibrarysWordsAndCode(_ failure: Case) throws {
        let error = try #require(throws: AudioPipelineError.self) {
            try check(failure.code, failure.library, "some_call", "cannot do it", source: "stage")
        }
        #expect(error.description == "stage: cannot do it (\(failure.reason))")
        #expect(error.code == .codecFailure)
        #expect(error.cause == .init(library: failure.library.rawValue, function: "some_call", code: Int(failure.code), reason: failure.reason))
        #expect(error.isRetryable == failure.isRetryable)
    }

    @Test func successPassesTheValueThrough() throws {
        // opus_encode_float returns the packet's size, libsndfile and libebur128 return 0.
        #expect(try check(Int32(42), .libopus, "opus_encode_float", "encoding failed") == 42)
        #expect(try check(Int32(0), .libsndfile, "sf_close", "cannot finish the file") == 0)
        #expect(try check(Int32(0), .libebur128, "ebur128_loudness_global", "cannot measure") == 0)
    }

    @Test func theCallerChoosesTheKind() throws {
        let error = try #require(throws: AudioPipelineError.self) {
            try check(Int32(-4), .libopus, "opus_decode_float", "a packet cannot be decoded", as: .invalidContainer)
        }
        #expect(error.code == .invalidContainer)
        #expect(error.message == "a packet cannot be decoded (corrupted stream)")
    }

    // The same, through each library for real.

    @Test func libopusRefusesAPacket() throws {
        // A code-3 packet of 63 frames of 20 ms: longer than the 120 ms a packet may last.
        let stream = OpusStream(channelCount: 1, preSkip: 0, inputSampleRate: 48_000, packets: [[0x0B, 0xFF]],
                                validSampleCount: 960, tags: OpusTags(vendor: "test"))
        let error = try #require(throws: AudioPipelineError.self) { try OpusStreamDecoder.decode(stream) { _ in } }
        #expect(error.code == .invalidContainer)
        #expect(error.cause?.library == "libopus" && error.cause?.function == "opus_decode_float")
        #expect(error.cause?.code ?? 0 < 0)
        #expect(!error.isRetryable)
    }

    @Test func libsndfileRefusesBytesItCannotRead() throws {
        let error = try #require(throws: AudioPipelineError.self) {
            try AudioDecoder.decode(data: Data("not audio at all, just words".utf8), name: "words.wav")
        }
        #expect(error.description == "words.wav: not an audio file libsndfile can read (Format not recognised.)")
        #expect(error.code == .unreadableInput)
        #expect(error.cause == .init(library: "libsndfile", function: "sf_open", code: 1, reason: "Format not recognised."))
        #expect(!error.isRetryable)
    }

    @Test func libsndfileNamesTheSystemsReason() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-folder-\(UUID())/out.wav").path
        let error = try #require(throws: AudioPipelineError.self) { try WAVWriter.write([0, 0.5], sampleRate: 48_000, to: path) }
        #expect(error.code == .io)
        #expect(error.source == path)
        #expect(error.message.contains("No such file or directory"), "\(error)")
        #expect(error.cause?.code == 2)
        #expect(error.isRetryable)
    }

    @Test func libsoxrRefusesARateOfZero() throws {
        let error = try #require(throws: AudioPipelineError.self) { try Resampler.Stream(from: 0, to: 48_000) }
        #expect(error.code == .codecFailure)
        #expect(error.source == "resampler")
        #expect(error.cause?.library == "libsoxr" && error.cause?.function == "soxr_create")
        #expect(error.cause?.code == nil)
        #expect(error.message == "resampling failed (\(error.cause?.reason ?? ""))")
    }

    /// ebur128_init refuses a meter without channels. The session's init throws, and the state
    /// is freed once, by its owner (before, the init freed it and `deinit` freed it again).
    @Test func libebur128RefusesAMeterWithoutChannels() throws {
        let error = try #require(throws: AudioPipelineError.self) {
            try LoudnessMeter.Session(channelCount: 0, sampleRate: 48_000, expectedFrames: 4_800)
        }
        #expect(error.source == "loudness")
        #expect(error.cause?.function == "ebur128_init")
        // A short clip sizes the window in the init; the meter still measures.
        let session = try LoudnessMeter.Session(sampleRate: 48_000, expectedFrames: 4_800)
        let tone = (0..<4_800).map { Float(sin(Double($0) * 0.06) * 0.5) }
        try tone.withUnsafeBufferPointer { try session.add($0) }
        #expect(try session.result().integratedLoudness != nil)
    }
}
