import DecoderWire
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes a recording with FFmpeg in the `voicemsg-decode` child process and streams its PCM
/// into the caller's `samples` a block at a time, as the in-process decoder does: the audio is
/// never held whole here. The limits on duration, rate and channels are checked on what
/// arrives, whatever the container claims, and the child is killed the moment one is passed.
enum IsolatedDecoder {
    static func decode(
        _ input: AudioInput, isolation: DecoderIsolation, limits: InputLimits, downmix: Bool,
        sniffed: AudioSniffer.Format?,
        begin: (SourceFormat) -> Void, samples: (UnsafeBufferPointer<Float>) throws -> Void
    ) throws -> SourceFormat {
        let executable = try executablePath(isolation)
        let source = try DecoderInput(input)
        let launch = DecoderWire.Launch(
            limits: DecoderWire.Limits(
                cpuSeconds: isolation.cpuSeconds, addressSpaceBytes: isolation.addressSpaceBytes,
                maximumSeconds: limits.maximumDurationSeconds),
            parentProcessID: getpid())
        let child = try DecoderProcess(executable: executable, arguments: launch.arguments, input: source.fd)
        var reader = Reader(child: child, remainingNanoseconds: UInt64(max(0, isolation.wallClockSeconds) * 1e9))
        var session = Session(limits: limits, downmix: downmix, sniffed: sniffed)
        do {
            while let (tag, length) = try reader.recordHeader() {
                switch tag {
                case .format:
                    let format = try session.start(try reader.payload(length))
                    begin(format)
                case .samples:
                    try session.receive(length: length, from: &reader, samples: samples)
                case .done:
                    try reader.expectEnd()
                    return try session.finish()
                case .failure:
                    let failure = DecoderWire.Failure(decoding: try reader.payload(length))
                        ?? .init(.unreadable, "the decoder failed without saying why")
                    child.kill()
                    throw AudioPipelineError(failure.kind == .unsupported ? .unsupportedInput : .unreadableInput, failure.message)
                case .bytes:
                    throw AudioPipelineError(.unreadableInput, "the decoder's output was garbled")
                }
            }
        } catch is Reader.Timeout {
            child.kill()
            throw AudioPipelineError(
                .unreadableInput,
                "decoding took longer than \(String(printf: "%g", isolation.wallClockSeconds)) s and was stopped")
        } catch {
            child.kill()
            throw error
        }
        // The stream ended without a last word: the child died.
        throw death(child.wait(), isolation: isolation)
    }

    /// What the child's wait status means, in words.
    static func death(_ status: Int32, isolation: DecoderIsolation) -> AudioPipelineError {
        let signal = status & 0x7F
        if signal != 0 && signal != 0x7F {
            if signal == SIGXCPU || signal == SIGKILL {
                return AudioPipelineError(
                    .unreadableInput, "decoding used more than \(isolation.cpuSeconds) s of CPU time and was stopped")
            }
            #if os(Linux)
            // The system-call filter's end: the decoder tried what decoding never needs (a
            // file, a socket, a process), so the file took it over or broke it.
            if signal == SIGSYS {
                return AudioPipelineError(
                    .unreadableInput, "the decoder was stopped by its sandbox (a system call outside its allow-list); the file is hostile or broken")
            }
            #endif
            let name = signalNames[signal].map { "SIG\($0)" } ?? "signal \(signal)"
            return AudioPipelineError(.unreadableInput, "the decoder crashed on this file (\(name)); it is broken or not a recording")
        }
        let code = (status >> 8) & 0xFF
        if code == DecoderWire.sandboxUnavailableStatus {
            // Before a byte of the file was read: this machine's fault, worth another try.
            return AudioPipelineError(.io, "the decoder could not put up its sandbox (run voicemsg-decode by hand to see why)")
        }
        return AudioPipelineError(.unreadableInput, "the decoder stopped with status \(code) without decoding the file")
    }

    static let signalNames: [Int32: String] = [
        SIGSEGV: "SEGV", SIGBUS: "BUS", SIGILL: "ILL", SIGABRT: "ABRT", SIGFPE: "FPE", SIGTRAP: "TRAP",
        SIGPIPE: "PIPE", SIGTERM: "TERM",
    ]

    /// The child program: the configured path, the environment's, or the one beside this executable.
    static func executablePath(_ isolation: DecoderIsolation) throws -> String {
        if let path = isolation.executablePath ?? ProcessInfo.processInfo.environment[DecoderIsolation.environmentVariable] {
            return path
        }
        if let executable = RunningProgram.executableURL {
            let candidate = executable.deletingLastPathComponent().appendingPathComponent(DecoderIsolation.programName).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw AudioPipelineError(
            .io, "cannot decode this format: \(DecoderIsolation.programName) is not installed beside \(RunningProgram.executableURL?.lastPathComponent ?? "this program")")
    }
}

extension IsolatedDecoder {
    /// Reads records from the child within its wall-clock budget.
    ///
    /// The budget is spent only while this side waits for the child's output, not while it
    /// works on the samples it has read: a hung child runs it down, a slow caller does not.
    /// Counted from the start, a 10-minute file through a debug build on a loaded machine
    /// (the pipeline's own work, with the child blocked on the full pipe) ran past 60 s.
    struct Reader {
        struct Timeout: Error {}

        let child: DecoderProcess
        var remainingNanoseconds: UInt64
        /// What the child is, in error text: "decoder", or "AAC encoder" for the encode mode.
        var role = "decoder"

        /// The next record's tag and length; nil when the stream ends cleanly between records.
        mutating func recordHeader() throws -> (DecoderWire.Tag, Int)? {
            var bytes = [UInt8](repeating: 0, count: 5)
            let got = try bytes.withUnsafeMutableBytes { try fill($0) }
            if got == 0 { return nil }
            guard got == 5, let header = DecoderWire.parseRecordHeader(bytes) else {
                throw AudioPipelineError(.unreadableInput, "the \(role)'s output was cut short or garbled")
            }
            return (header.tag, header.length)
        }

        mutating func payload(_ length: Int) throws -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: length)
            try bytes.withUnsafeMutableBytes { try exactly($0) }
            return bytes
        }

        mutating func exactly(_ buffer: UnsafeMutableRawBufferPointer) throws {
            guard try fill(buffer) == buffer.count else {
                throw AudioPipelineError(.unreadableInput, "the \(role)'s output was cut short")
            }
        }

        /// After the last record: the child's stdout must end and the child exit with status 0.
        mutating func expectEnd() throws {
            var extra: UInt8 = 0
            guard try withUnsafeMutableBytes(of: &extra, { try fill($0) }) == 0 else {
                throw AudioPipelineError(.unreadableInput, "the \(role) wrote past its last record")
            }
            let status = child.wait()
            guard status == 0 else { throw AudioPipelineError(.unreadableInput, "the \(role) stopped with status \(status >> 8)") }
        }

        /// Reads until `buffer` is full or the stream ends; the bytes read.
        private mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            var filled = 0
            while filled < buffer.count {
                let start = DispatchTime.now().uptimeNanoseconds
                let got = try child.read(
                    into: buffer.baseAddress! + filled, count: buffer.count - filled,
                    deadline: start + remainingNanoseconds)
                remainingNanoseconds -= min(remainingNanoseconds, DispatchTime.now().uptimeNanoseconds - start)
                guard let got else { throw Timeout() }
                if got == 0 { break }
                filled += got
            }
            return filled
        }
    }

    /// The parent's side of one decode: the format, the frame count and the limits.
    struct Session {
        let limits: InputLimits
        let downmix: Bool
        let sniffed: AudioSniffer.Format?
        private(set) var format: SourceFormat?
        private var frames = 0
        private var maximumFrames = 0
        private var values: [Float] = []
        private var mono: [Float] = []

        init(limits: InputLimits, downmix: Bool, sniffed: AudioSniffer.Format?) {
            self.limits = limits
            self.downmix = downmix
            self.sniffed = sniffed
        }

        mutating func start(_ payload: [UInt8]) throws -> SourceFormat {
            guard format == nil, let wire = DecoderWire.Format(decoding: payload) else {
                throw AudioPipelineError(.unreadableInput, "the decoder's output was garbled")
            }
            let channels = wire.channelCount
            let rate = wire.sampleRate
            try limits.checkFormat(channels: channels, sampleRate: rate, declarer: "the stream")
            maximumFrames = Int(limits.maximumDurationSeconds * Double(rate))
            let declared = wire.declaredSeconds.map { Int(min(max(0, $0), 1e9) * Double(rate)) } ?? 0
            let container = sniffed?.description ?? wire.containerDescription
            let codec = wire.codecDescription.isEmpty ? wire.codec : wire.codecDescription
            var format = SourceFormat(
                format: "\(container), \(codec)", sampleRate: rate, channelCount: channels,
                isInterleaved: !downmix && channels > 1, frameCount: min(declared, maximumFrames + 1))
            format.container = container
            format.codec = codec
            self.format = format
            values = [Float](repeating: 0, count: DecoderWire.maximumPayload / 4)
            mono = [Float](repeating: 0, count: downmix && channels > 1 ? values.count / channels : 0)
            return format
        }

        mutating func receive(length: Int, from reader: inout Reader, samples: (UnsafeBufferPointer<Float>) throws -> Void) throws {
            guard let format else { throw AudioPipelineError(.unreadableInput, "the decoder's output was garbled") }
            let channels = format.channelCount
            guard length % (4 * channels) == 0 else {
                throw AudioPipelineError(.unreadableInput, "the decoder's output was garbled")
            }
            let count = length / 4
            let read = count / channels
            try values.withUnsafeMutableBytes { try reader.exactly(UnsafeMutableRawBufferPointer(rebasing: $0[0..<length])) }
            guard frames + read <= maximumFrames else {
                throw AudioDecoder.tooLong(Double(frames + read) / Double(format.sampleRate), limits: limits, atLeast: true)
            }
            frames += read
            if channels == 1 || !downmix {
                try values.withUnsafeBufferPointer { block in
                    let part = UnsafeBufferPointer(rebasing: block[0..<count])
                    try AudioDecoder.checkFinite(part)
                    try samples(part)
                }
            } else {
                let scale = 1 / Float(channels)
                values.withUnsafeBufferPointer { block in
                    for frame in 0..<read {
                        var sum: Float = 0
                        for channel in 0..<channels { sum += block[frame * channels + channel] }
                        mono[frame] = sum * scale
                    }
                }
                try mono.withUnsafeBufferPointer { block in
                    let part = UnsafeBufferPointer(rebasing: block[0..<read])
                    try AudioDecoder.checkFinite(part)
                    try samples(part)
                }
            }
        }

        func finish() throws -> SourceFormat {
            guard var format, frames > 0 else {
                throw AudioPipelineError(.unreadableInput, "the file holds no audio samples")
            }
            format.frameCount = frames
            return format
        }
    }
}
