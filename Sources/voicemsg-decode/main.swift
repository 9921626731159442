#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import DecoderSandbox
import DecoderWire

// voicemsg-decode: FFmpeg's demuxers and decoders in a process of their own, for the recordings
// libsndfile cannot read (WebM, MP4/M4A, ADTS AAC, AMR, CAF with AAC or ALAC). A crafted file
// can crash or exhaust this process, and nothing else: the parent sees a closed pipe and an exit
// status. The input is the open file on stdin; the output is `DecoderWire` records on stdout.
// With `--encode-aac BITRATE` it is FFmpeg's AAC encoder instead, for the same reason that it
// is a process of its own: nothing else of voicemsg loads FFmpeg (`AACFileEncoder`).
//
// Usage: voicemsg-decode [--encode-aac BITRATE] --cpu-seconds N --address-space BYTES --maximum-seconds S --parent PID < INPUT

let output = WireWriter(fd: 1)
guard let launch = DecoderWire.Launch(arguments: Array(CommandLine.arguments.dropFirst())) else {
    let usage = "usage: voicemsg-decode [--encode-aac BITRATE] --cpu-seconds N --address-space BYTES --maximum-seconds S --parent PID < INPUT\n"
    _ = usage.withCString { write(2, $0, strlen($0)) }
    exit(2)
}

// The limits and the parent's death signal go on before a byte of the input is read;
// posix_spawn has no way to set them from the parent. Nothing from FFmpeg may reach stderr.
DecoderSandbox.enter(launch)
FFmpegLog.silence()

do {
    if case .encodeAAC(let bitrate) = launch.mode {
        // The PCM is the pipeline's own, but the walls are the same: the filter goes on before
        // FFmpeg's encoder and muxer are set up.
        DecoderSandbox.restrictSystemCalls()
        let file = try AACFileEncoder(bitrate: bitrate, maximumSeconds: launch.limits.maximumSeconds).run(reading: 0)
        var start = 0
        while start < file.count {
            let end = min(file.count, start + DecoderWire.maximumPayload)
            output.send(.bytes, Array(file[start..<end]))
            start = end
        }
        output.send(.done, [])
        exit(0)
    }
    let input = try FFmpegInput(fd: 0)
    // FFmpeg is loaded and the input open; from here on, the system calls of decoding only,
    // before any byte of the input is parsed.
    DecoderSandbox.restrictSystemCalls()
    let decoder = try FFmpegDecoder(
        input: input, maximumSeconds: launch.limits.maximumSeconds, packetTable: CAFPacketTable(fd: 0),
        openEndedAudio: OpenEndedAudioChunk.check(fd: 0))
    try decoder.run(output)
    output.send(.done, [])
    exit(0)
} catch let failure as DecodeFailure {
    output.send(.failure, failure.wire.encoded)
    exit(1)
}
