import AudioPipeline
import Foundation
import Testing
import TestSupport

/// The decoder child's sandbox, proved with the FaultyDecoder (Tests/FaultyDecoder): it puts up
/// voicemsg-decode's own sandbox, through the same DecoderSandbox calls, and then does what a
/// file that took over FFmpeg would. Every forbidden action ends with the sandbox's one-line
/// error, and the next decode in the same process works. The controls show that the sandbox
/// itself lets a decoder speak the wire, and that a plain crash still reads as a crash.
@Suite(.enabled(if: isLinux, "the system-call filter is Linux's")) struct DecoderSandboxTests {
    static let forbidden = ["open-file", "socket", "connect", "execve", "write-inherited", "outlive"]

    /// An upload that asks the FaultyDecoder for `fault`; the AMR magic gets it past the sniffer.
    static func asking(_ fault: String) -> Data {
        Data("#!AMR\nFAULT:\(fault)\n".utf8) + Data(repeating: 0x3C, count: 200)
    }

    static func isolation() throws -> DecoderIsolation {
        var isolation = DecoderIsolation(policy: .always)
        isolation.executablePath = try Tool.built("FaultyDecoder")
        isolation.wallClockSeconds = 20
        return isolation
    }

    @Test(arguments: forbidden)
    func forbiddenActionEndsWithTheSandboxsError(_ fault: String) throws {
        let isolation = try Self.isolation()
        let error = try #require(throws: AudioPipelineError.self) {
            try AudioDecoder.decode(data: Self.asking(fault), name: "upload-\(fault)", isolation: isolation)
        }
        print("\(fault): \(error)")
        #expect(error.code == .unreadableInput)
        #expect(error.description.hasPrefix("upload-\(fault): the decoder was stopped by its sandbox"), "\(error)")
        #expect(!error.description.contains("\n"))

        // The same caller goes on: the next decode, behind the same sandbox, works.
        var samples = 0
        let format = try AudioDecoder.decode(.data(Self.asking("tone"), name: "next"), isolation: isolation) { samples += $0.count }
        #expect(format.sampleRate == 48_000 && samples == 48_000, "\(format), \(samples) samples")
    }

    /// The sandbox lets a decoder do its work: a tone sent through the wire behind it arrives
    /// whole, at its level.
    @Test func aDecoderBehindTheSandboxSpeaksTheWire() throws {
        var peak: Float = 0
        var samples = 0
        let format = try AudioDecoder.decode(.data(Self.asking("tone"), name: "tone"), isolation: try Self.isolation()) { block in
            samples += block.count
            for value in block { peak = max(peak, abs(value)) }
        }
        #expect(format.sampleRate == 48_000 && format.channelCount == 1)
        #expect(samples == 48_000)
        #expect(abs(peak - 0.25) < 0.001, "peak \(peak)")
    }

    /// A bug is not an attack: a Swift trap (SIGILL on x86-64, SIGTRAP on arm64) and FFmpeg's
    /// abort() still read as a crash, and not as the sandbox.
    @Test(arguments: [("trap", "(SIG"), ("abort", "(SIGABRT)")])
    func aCrashBehindTheSandboxReadsAsACrash(_ fault: String, _ signal: String) throws {
        let isolation = try Self.isolation()
        let error = try #require(throws: AudioPipelineError.self) {
            try AudioDecoder.decode(data: Self.asking(fault), name: "upload", isolation: isolation)
        }
        print("\(fault): \(error)")
        #expect(error.message.contains("crashed on this file \(signal)"), "\(error)")
    }
}
