import DecoderWire
import Dispatch
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Encodes mono 48 kHz samples as AAC-LC in an M4A with FFmpeg, in `voicemsg-decode`'s encode
/// mode: FFmpeg is loaded only in that child, so voicemsg and the server never link libavcodec,
/// and the encoder runs behind the decoder's walls (its limits, its system-call filter).
///
/// The samples go to the child as 16-bit PCM over a socket, rendered a piece at a time while the
/// child encodes them, so the message is never copied whole; the child sends the file back once
/// it is complete (the MP4 muxer writes its tables at the end). A socket and not a pipe: a send
/// to a child that died fails with EPIPE instead of raising SIGPIPE, which neither the server nor
/// the command line ignores.
enum IsolatedAACEncoder {
    /// The M4A file, untagged; a failure is an `AudioPipelineError` saying why, retryable unless
    /// the settings were wrong: the samples are the pipeline's own, so the machine, not the
    /// input, failed.
    static func encode(_ samples: GainedSamples, bitrate: Int, isolation: DecoderIsolation) throws -> [UInt8] {
        let executable = try IsolatedDecoder.executablePath(isolation)
        let (feed, childInput) = try socketPair()
        let seconds = Double(samples.count) / Double(DecoderWire.encoderSampleRate)
        let launch = DecoderWire.Launch(
            mode: .encodeAAC(bitrate: bitrate),
            limits: DecoderWire.Limits(
                cpuSeconds: isolation.cpuSeconds, addressSpaceBytes: isolation.addressSpaceBytes,
                maximumSeconds: max(1, seconds.rounded(.up) + 1)),
            parentProcessID: getpid())
        let child: DecoderProcess
        do {
            defer { try? childInput.close() }
            child = try DecoderProcess(executable: executable, arguments: launch.arguments, input: childInput)
        } catch {
            try? feed.close()
            throw error
        }
        var remaining = UInt64(max(0, isolation.wallClockSeconds) * 1e9)
        do {
            defer { try? feed.close() }
            // A child that stops reading has failed: what it says, or its death, tells why.
            try send(samples, to: feed, remainingNanoseconds: &remaining)
        } catch is IsolatedDecoder.Reader.Timeout {
            child.kill()
            throw timedOut(isolation)
        } catch {
            child.kill()
            throw error
        }
        var reader = IsolatedDecoder.Reader(child: child, remainingNanoseconds: remaining, role: "AAC encoder")
        // A mono 32 kb/s file is about 4 KB a second; the bound only stops a runaway child.
        let limit = Int(seconds * Double(bitrate) / 8 * 4) + (1 << 20)
        var file: [UInt8] = []
        do {
            while let (tag, length) = try reader.recordHeader() {
                switch tag {
                case .bytes:
                    guard file.count + length <= limit else {
                        throw AudioPipelineError(.codecFailure, "the AAC encoder wrote more than \(limit) bytes")
                    }
                    file += try reader.payload(length)
                case .done:
                    try reader.expectEnd()
                    guard !file.isEmpty else { throw AudioPipelineError(.codecFailure, "the AAC encoder wrote no file") }
                    return file
                case .failure:
                    let failure = DecoderWire.Failure(decoding: try reader.payload(length))
                    child.kill()
                    throw AudioPipelineError(
                        failure?.kind == .unsupported ? .unsupportedInput : .codecFailure,
                        "cannot encode AAC (\(failure?.message ?? "the encoder failed without saying why"))")
                case .format, .samples:
                    throw AudioPipelineError(.codecFailure, "the AAC encoder's output was garbled")
                }
            }
        } catch is IsolatedDecoder.Reader.Timeout {
            child.kill()
            throw timedOut(isolation)
        } catch let error as AudioPipelineError {
            child.kill()
            // The reader's own words are a decoder's; the samples are never at fault here.
            throw error.code == .unreadableInput ? AudioPipelineError(.codecFailure, error.message) : error
        }
        throw death(child.wait(), isolation: isolation)
    }

    /// Renders `samples` as 16-bit little-endian PCM into `socket`, then ends the stream. The
    /// time spent waiting for the child to take them counts against the wall-clock budget.
    private static func send(_ samples: GainedSamples, to socket: FileDescriptor, remainingNanoseconds: inout UInt64) throws {
        let piece = 4096
        var values = [Float](repeating: 0, count: piece)
        var bytes = [UInt8](repeating: 0, count: piece * 2)
        var start = 0
        while start < samples.count {
            let count = min(piece, samples.count - start)
            values.withUnsafeMutableBufferPointer { samples.render(start..<(start + count), into: $0.baseAddress!) }
            for i in 0..<count {
                let value = Int16(max(-32768, min(32767, (values[i] * 32768).rounded())))
                bytes[2 * i] = UInt8(truncatingIfNeeded: value)
                bytes[2 * i + 1] = UInt8(truncatingIfNeeded: value >> 8)
            }
            let sent = try bytes.withUnsafeBytes {
                try writeAll(UnsafeRawBufferPointer(rebasing: $0[0..<(2 * count)]), to: socket, remainingNanoseconds: &remainingNanoseconds)
            }
            // The child stopped reading: its records or its status say why.
            if !sent { return }
            start += count
        }
    }

    /// Writes all of `bytes`; false when the child closed its end.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to socket: FileDescriptor, remainingNanoseconds: inout UInt64) throws -> Bool {
        var offset = 0
        while offset < bytes.count {
            let start = DispatchTime.now().uptimeNanoseconds
            var poller = pollfd(fd: socket.rawValue, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&poller, 1, Int32(min(UInt64(Int32.max), remainingNanoseconds / 1_000_000 + 1)))
            let waited = DispatchTime.now().uptimeNanoseconds - start
            remainingNanoseconds -= min(remainingNanoseconds, waited)
            if ready < 0 {
                if errno == EINTR { continue }
                throw AudioPipelineError(.io, "cannot wait for the AAC encoder (\(Errno(rawValue: errno)))")
            }
            if ready == 0 {
                if remainingNanoseconds == 0 { throw IsolatedDecoder.Reader.Timeout() }
                continue
            }
            let written = systemSend(socket.rawValue, bytes.baseAddress! + offset, bytes.count - offset, noSignal)
            if written < 0 {
                if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
                if errno == EPIPE || errno == ECONNRESET { return false }
                throw AudioPipelineError(.io, "cannot send the samples to the AAC encoder (\(Errno(rawValue: errno)))")
            }
            offset += written
        }
        return true
    }

    private static func systemSend(_ socket: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
        #if canImport(Glibc)
        Glibc.send(socket, bytes, count, flags)
        #else
        Darwin.send(socket, bytes, count, flags)
        #endif
    }

    #if os(Linux)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    private static let noSignal: Int32 = 0
    #endif

    /// A connected pair: this process's end, non-blocking, and the child's. Both close-on-exec, so
    /// no other child gets them (the spawn gives the child's end as its descriptor 0 anyway).
    private static func socketPair() throws -> (feed: FileDescriptor, child: FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        #if os(Linux)
        let made = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends)
        #else
        let made = socketpair(AF_UNIX, SOCK_STREAM, 0, &ends)
        #endif
        guard made == 0 else { throw AudioPipelineError(.io, "cannot create a socket for the AAC encoder (\(Errno(rawValue: errno)))") }
        #if !os(Linux)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var on: Int32 = 1
        _ = setsockopt(ends[0], SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    private static func timedOut(_ isolation: DecoderIsolation) -> AudioPipelineError {
        AudioPipelineError(
            .codecFailure, "the AAC encoder took longer than \(String(printf: "%g", isolation.wallClockSeconds)) s and was stopped")
    }

    /// What the child's wait status means, in the encoder's words.
    static func death(_ status: Int32, isolation: DecoderIsolation) -> AudioPipelineError {
        let decoded = IsolatedDecoder.death(status, isolation: isolation)
        // The sandbox could not go up: the machine's fault, in the decoder's words.
        if decoded.code == .io { return decoded }
        let signal = status & 0x7F
        if signal == SIGXCPU || signal == SIGKILL {
            return AudioPipelineError(.codecFailure, "the AAC encoder used more than \(isolation.cpuSeconds) s of CPU time or was killed")
        }
        if signal != 0 && signal != 0x7F {
            return AudioPipelineError(.codecFailure, "the AAC encoder died (signal \(signal))")
        }
        return AudioPipelineError(.codecFailure, "the AAC encoder stopped with status \((status >> 8) & 0xFF) without finishing")
    }
}
