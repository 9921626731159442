import AudioPipeline
import Foundation
import Testing
import TestSupport

/// The parent's side of isolation: whatever the child does (crash, hang, run out of CPU, write
/// garbage, go missing), the caller gets one `AudioPipelineError` naming the input, and the
/// child is gone. The misbehaving children are shell scripts standing in for `voicemsg-decode`.
@Suite struct IsolatedDecoderTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// The script's body; it runs with an empty environment, so paths are absolute.
        var script: String
        var code: AudioPipelineError.Code
        var words: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "crash", script: "kill -SEGV $$", code: .unreadableInput, words: "crashed on this file (SIGSEGV)"),
        Case(name: "abort", script: "kill -ABRT $$", code: .unreadableInput, words: "crashed on this file (SIGABRT)"),
        Case(name: "CPU limit", script: "kill -XCPU $$", code: .unreadableInput, words: "s of CPU time"),
        Case(name: "hang", script: "exec /bin/sleep 30", code: .unreadableInput, words: "took longer than 1 s"),
        Case(name: "garbage", script: "printf 'not a record at all'", code: .unreadableInput, words: "garbled"),
        Case(name: "silent exit", script: "exit 7", code: .unreadableInput, words: "status 7"),
        // A format record with a rate outside the limits: refused before any sample.
        Case(name: "odd rate",
             script: #"printf 'F\053\000\000\000rate=1000000\nchannels=1\ncontainer=x\ncodec=y'; exec /bin/sleep 30"#,
             code: .unsupportedInput, words: "1000000 Hz"),
    ]

    /// A 300 Hz tone of `seconds` as Opus in WebM, which only the FFmpeg child decodes.
    static func toneWebM(seconds: Int, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("tone-\(seconds)s.webm").path
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=300:sample_rate=48000",
                                "-t", "\(seconds)", "-c:a", "libopus", "-f", "webm", path])
        return path
    }

    static func fakeChild(_ body: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("fake-decoder").path
        try "#!/bin/sh\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    @Test(arguments: cases)
    func childFailureIsOneErrorForThatInput(_ testCase: Case) throws {
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var isolation = DecoderIsolation(policy: .always)
        isolation.executablePath = try Self.fakeChild(testCase.script, in: folder)
        isolation.wallClockSeconds = 1
        let upload = Data("#!AMR\n and then whatever".utf8)
        let error = try #require(throws: AudioPipelineError.self) {
            try AudioDecoder.decode(data: upload, name: "upload-7", isolation: isolation)
        }
        print("\(testCase.name): \(error)")
        #expect(error.code == testCase.code)
        #expect(error.description.hasPrefix("upload-7: "))
        #expect(error.message.contains(testCase.words), "\(error.message)")
        #expect(!error.description.contains("\n"))
    }

    @Test func missingDecoderIsAnEnvironmentProblem() throws {
        var isolation = DecoderIsolation(policy: .always)
        isolation.executablePath = "/nonexistent/voicemsg-decode"
        let error = try #require(throws: AudioPipelineError.self) {
            try AudioDecoder.decode(data: Data("OggS".utf8), name: "upload", isolation: isolation)
        }
        // Not the upload's fault: the server retries it once the decoder is installed.
        #expect(error.code == .io, "\(error)")
    }

    /// The wall-clock budget is the child's time, spent while the caller waits for it: a caller
    /// that takes its time over the samples (a debug build, a loaded machine) still gets the
    /// whole file. Here 5 s of deliberate slowness against a 2 s budget (the child's start-up on a
    /// loaded machine takes part of it).
    @Test func aSlowCallerDoesNotSpendTheChildsTime() throws {
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.toneWebM(seconds: 20, in: folder)
        var isolation = DecoderIsolation(policy: .always)
        isolation.wallClockSeconds = 2
        var received = 0
        var slept = 0.0
        let format = try AudioDecoder.decode(.file(path: path), isolation: isolation, samples: { block in
            received += block.count
            if slept < 5 {
                Thread.sleep(forTimeInterval: 0.25)
                slept += 0.25
            }
        })
        #expect(slept >= 5, "the file ended before the caller had been slow for longer than the budget")
        #expect(abs(Double(received) / Double(format.sampleRate) - 20) < 0.1, "\(received) samples at \(format.sampleRate) Hz")
    }

    /// The real child enforces the duration limit by itself too, and the parent stops reading
    /// at the limit, whatever the header says: here a two-minute WebM against a one-minute limit.
    @Test func durationLimitIsEnforcedWhileDecoding() throws {
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.toneWebM(seconds: 120, in: folder)
        var limits = InputLimits()
        limits.maximumDurationSeconds = 60
        var received = 0
        let error = try #require(throws: AudioPipelineError.self) {
            try AudioDecoder.decode(.file(path: path), limits: limits, begin: { _ in }, samples: { received += $0.count })
        }
        #expect(error.code == .unsupportedInput)
        #expect(error.message.contains("minutes"), "\(error.message)")
        #expect(received <= 60 * 48_000, "\(received) samples were handed on past the limit")
    }
}
