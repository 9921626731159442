import AudioPipeline
import Foundation
import Testing
import TestSupport

@testable import VoicemsgServer

/// Cheap refusals: a 259 KB FLAC of ten minutes of 8-channel silence at 384 kHz, which would
/// cost 15 s of worker time to decode, is refused by the worker's processor at its header; the same at 192 kHz, a rate that is accepted, once its first 30 s have decoded
/// as digital silence. Each in one line, as a failure of that input that is not retried.
@Suite struct CheapRefusalWorkerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var sampleRate: Int
        var code: AudioPipelineError.Code
        var reason: String
        var testDescription: String { "\(sampleRate) Hz" }
    }

    static let cases = [
        Case(sampleRate: 384_000, code: .unsupportedInput, reason: "sample rate 384000 Hz is outside 8000...192000 Hz"),
        Case(sampleRate: 192_000, code: .noSpeech,
             reason: "no speech: the first 30 s are digital silence (every sample below -100 dBFS); the rest was not decoded"),
    ]

    /// CPU seconds of this thread and of the children reaped so far.
    static func cpuSeconds() -> Double {
        var thread = rusage()
        var children = rusage()
        #if os(Linux)
        // RUSAGE_THREAD (1) is a GNU extension that the Glibc module does not name.
        getrusage(__rusage_who_t(1), &thread)
        getrusage(RUSAGE_CHILDREN.rawValue, &children)
        #else
        getrusage(RUSAGE_SELF, &thread)
        getrusage(RUSAGE_CHILDREN, &children)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(thread.ru_utime) + seconds(thread.ru_stime) + seconds(children.ru_utime) + seconds(children.ru_stime)
    }

    @Test(arguments: cases)
    func tenMinutesOfEightChannelSilenceIsRefusedEarly(_ testCase: Case) throws {
        let directory = try TemporaryDirectory()
        let flac = directory.file("silence.flac")
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "s16le", "-ar", "\(testCase.sampleRate)", "-ac", "8", "-i", "/dev/zero",
                                "-t", "600", "-c:a", "flac", flac])
        let probe = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream=sample_rate,channels,duration", "-of", "csv=p=0", flac])
        #expect(probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "\(testCase.sampleRate),8,600.000000")
        let original = try Data(contentsOf: URL(fileURLWithPath: flac))
        let job = ProcessingInput(messageID: "m-silence", runID: "r-1", runTitle: "Cheap refusals", marker: .absolute(meters: 5000),
                                  sender: nil, original: original)

        let before = Self.cpuSeconds()
        let error = try #require(throws: AudioPipelineError.self) { try PipelineMessageProcessor().process(job) }
        let used = Self.cpuSeconds() - before
        // A figure for the report, not a check: CPU time depends on the machine and the build.
        print(String(format: "cheap refusal: %d Hz, %d-byte FLAC refused after %.3f s of CPU (worker thread and decoder child): %@",
                     testCase.sampleRate, original.count, used, "\(error)"))
        #expect(error.code == testCase.code)
        #expect(error.description == "m-silence: \(testCase.reason)")
        #expect(FailureKind(error) == .permanent)
    }
}
