import AudioPipeline
import RunTracking
import Testing
@testable import VoicemsgServer

/// The retry policy follows what the error says of itself.
@Suite struct FailureKindTests {
    @Test func aBadBitrateFailsAtOnce() throws {
        var configuration = OpusEncoder.Configuration()
        configuration.bitrate = 1_000
        let error = try #require(throws: AudioPipelineError.self) {
            try OpusEncoder(configuration: configuration)
                .encodeInPieces(GainedSamples([Float](repeating: 0, count: 960)), inputSampleRate: 48_000, tags: OpusTags(vendor: "test"))
        }
        #expect(FailureKind(error) == .permanent)
    }

    @Test func theErrorsOwnAnswerDecides() {
        #expect(FailureKind(AudioPipelineError(.io, "disk full")) == .transient)
        #expect(FailureKind(AudioPipelineError(.codecFailure, "out of memory", isRetryable: true)) == .transient)
        #expect(FailureKind(AudioPipelineError(.codecFailure, "invalid argument", isRetryable: false)) == .permanent)
        #expect(FailureKind(AudioPipelineError(.noSpeech, "no speech found")) == .permanent)
        #expect(FailureKind(RunTrackingError(.invalidMarker, "invalid distance marker '5xx'")) == .permanent)
    }
}
