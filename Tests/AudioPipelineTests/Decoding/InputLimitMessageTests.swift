import Testing
@testable import AudioPipeline

/// A refusal for length must never read as a contradiction ("10.0 minutes long; at most 10
/// minutes are accepted" was the message for 600.85 s).
struct InputLimitMessageTests {
    @Test(arguments: [600.01, 600.85, 601, 7_200])
    func aRecordingOverTheLimitReadsAsLongerThanIt(seconds: Double) throws {
        let message = AudioDecoder.tooLong(seconds, limits: .default).message
        let stated = try #require(Double(message.prefix { $0 != " " }))
        #expect(stated > InputLimits.default.maximumDurationSeconds, "\(message)")
        #expect(message.contains("at most 600 s (10 minutes)"))
    }
}
