import Testing
@testable import AudioPipeline

/// Whether an error is worth retrying is said by the error, not guessed from its code by the
/// server: bad input and bad settings never are.
@Suite struct RetryabilityTests {
    @Test(arguments: [
        (AudioPipelineError.Code.unreadableInput, false), (.unsupportedInput, false), (.invalidSamples, false),
        (.noSpeech, false), (.invalidMarker, false), (.invalidContainer, false), (.invalidConfiguration, false),
        (.codecFailure, true), (.io, true),
    ])
    func eachKindHasADefault(_ code: AudioPipelineError.Code, _ retryable: Bool) {
        #expect(AudioPipelineError(code, "x").isRetryable == retryable)
    }

    @Test func theLibrarysCodeDecidesOverTheKind() {
        // A codec failure is retryable in general, but not when libopus says the argument was bad.
        let cause = AudioPipelineError.Cause(library: "libopus", function: "opus_encoder_create", code: -1, reason: "invalid argument")
        #expect(!AudioPipelineError(.codecFailure, "x", cause: cause, isRetryable: false).isRetryable)
    }

    /// A bitrate libopus cannot code at is a setting to fix: trying again gives the same answer.
    @Test(arguments: [1_000, 600_000])
    func aBadBitrateIsAConfigurationError(_ bitrate: Int) throws {
        var configuration = OpusEncoder.Configuration()
        configuration.bitrate = bitrate
        let error = try #require(throws: AudioPipelineError.self) {
            try OpusEncoder(configuration: configuration).encode([Float](repeating: 0, count: 960), inputSampleRate: 48_000, tags: OpusTags(vendor: "test"))
        }
        #expect(error.code == .invalidConfiguration)
        #expect(error.description == "opus: bitrate \(bitrate / 1000) kb/s is outside 6...510 kb/s")
        #expect(!error.isRetryable)
    }
}
