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

/// Decodes any format libsndfile reads (WAV in all its encodings, FLAC, Ogg Vorbis, Ogg Opus,
/// AIFF, CAF with PCM, ...) into mono Float samples at the source rate; and, in the isolated
/// `voicemsg-decode` process (see `DecoderIsolation`), what it does not, or not quietly: MP3,
/// WebM, MP4/M4A/3GP/MOV, ADTS AAC, AMR, CAF with AAC or ALAC, recognized by their first bytes.
public enum AudioDecoder {
    /// Decodes the file at `path`. Errors name the path.
    ///
    /// With `downmix` false, `samples` holds the source's channels interleaved.
    public static func decode(
        path: String, limits: InputLimits = .default, downmix: Bool = true, isolation: DecoderIsolation = .init()
    ) throws -> DecodedAudio {
        try collect { try decode(.file(path: path), limits: limits, downmix: downmix, isolation: isolation, begin: $0, samples: $1) }
    }

    /// Decodes bytes held in memory, such as an upload, through libsndfile's virtual I/O.
    /// `name` is used in error messages.
    public static func decode(
        data: Data, name: String, limits: InputLimits = .default, downmix: Bool = true, isolation: DecoderIsolation = .init()
    ) throws -> DecodedAudio {
        try collect { try decode(.data(data, name: name), limits: limits, downmix: downmix, isolation: isolation, begin: $0, samples: $1) }
    }

    /// Decodes `input` piece by piece: `begin` learns the format and the length the header
    /// declares (an estimate for MP3) before any audio, then `samples` gets the audio, mono
    /// unless `downmix` is false, a block at a time. Returns the format with the decoded length.
    /// Errors name the input.
    public static func decode(
        _ input: AudioInput, limits: InputLimits = .default, downmix: Bool = true,
        isolation: DecoderIsolation = .init(),
        begin: (SourceFormat) -> Void = { _ in },
        samples: (UnsafeBufferPointer<Float>) throws -> Void
    ) throws -> SourceFormat {
        do {
            switch try open(input, isolation: isolation) {
            case .soundFile(let file):
                return try decode(file, limits: limits, downmix: downmix, begin: begin, samples: samples)
            case .isolated(let sniffed):
                return try IsolatedDecoder.decode(
                    input, isolation: isolation, limits: limits, downmix: downmix, sniffed: sniffed,
                    begin: begin, samples: samples)
            }
        } catch let error as AudioPipelineError {
            throw error.attributed(to: input.name)
        }
    }

    /// Who decodes an input: libsndfile here, or FFmpeg in the child.
    private enum Opened {
        case soundFile(SoundFile)
        case isolated(AudioSniffer.Format?)
    }

    /// Picks the decoder by the input's first bytes and the isolation policy.
    private static func open(_ input: AudioInput, isolation: DecoderIsolation) throws -> Opened {
        try checkPresent(input)
        let sniffed = AudioSniffer.recognize(prefix: prefix(of: input))
        if isolation.policy == .always || sniffed?.reader == .ffmpeg { return .isolated(sniffed) }
        do {
            let file = try openSoundFile(input)
            // A WAV streamed with its data size left 0: libsndfile takes the 0 at its word and
            // sees no audio, where FFmpeg reads the chunk to the end of the file.
            if sniffed == .wav, file.info.frames == 0 { return .isolated(sniffed) }
            return .soundFile(file)
        } catch where sniffed?.reader == .libsndfileThenFFmpeg {
            // CAF holding AAC or ALAC: libsndfile reads only its PCM.
            return .isolated(sniffed)
        }
    }

    private static func prefix(of input: AudioInput) -> [UInt8] {
        switch input {
        case .data(let data, _): return Array(data.prefix(AudioSniffer.prefixLength))
        case .file(let path):
            return FilePrefix.bytes(atPath: path, count: AudioSniffer.prefixLength) ?? []
        }
    }

    /// The checks every input passes before any decoder sees it.
    private static func checkPresent(_ input: AudioInput) throws {
        switch input {
        case .file(let path):
            let size = try FileStatus.recording(at: path)
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw AudioPipelineError(.io, "permission denied", source: path)
            }
            if size == 0 { throw AudioPipelineError(.unreadableInput, "the file is empty") }
        case .data(let data, _):
            guard !data.isEmpty else { throw AudioPipelineError(.unreadableInput, "the file is empty") }
        }
    }

    private static func openSoundFile(_ input: AudioInput) throws -> SoundFile {
        switch input {
        case .file(let path): return try SoundFile(path: path)
        case .data(let data, _): return try SoundFile(data: data)
        }
    }

    /// Gathers a streamed decode into one `DecodedAudio`.
    private static func collect(
        _ decode: (_ begin: (SourceFormat) -> Void, _ samples: (UnsafeBufferPointer<Float>) throws -> Void) throws -> SourceFormat
    ) throws -> DecodedAudio {
        var all: [Float] = []
        let format = try decode({ all.reserveCapacity($0.expectedValueCount) }, { all.append(contentsOf: $0) })
        var audio = DecodedAudio(samples: all, sampleRate: format.sampleRate, channelCount: format.channelCount, format: format.format)
        audio.isInterleaved = format.isInterleaved
        audio.container = format.container
        audio.codec = format.codec
        return audio
    }

    private static func decode(
        _ file: SoundFile, limits: InputLimits, downmix: Bool,
        begin: (SourceFormat) -> Void, samples: (UnsafeBufferPointer<Float>) throws -> Void
    ) throws -> SourceFormat {
        let channels = Int(file.info.channels)
        let rate = Int(file.info.samplerate)
        try limits.checkFormat(channels: channels, sampleRate: rate, declarer: "the header")
        if let chunk = file.overstatedAudioChunk {
            throw AudioPipelineError(
                .unreadableInput,
                "truncated: the header declares \(chunk.declared) bytes of audio but the file holds only \(chunk.present)")
        }
        let maximumFrames = Int(limits.maximumDurationSeconds * Double(rate))
        let declaredFrames = Int(clamping: file.info.frames)
        // MP3 frame counts are estimates, so only the decoded length is checked for them.
        if !file.isMPEG, declaredFrames > maximumFrames, declaredFrames < Int(Int32.max) * 2 {
            throw tooLong(Double(declaredFrames) / Double(rate), limits: limits)
        }
        var format = SourceFormat(
            format: file.formatDescription, sampleRate: rate, channelCount: channels,
            isInterleaved: !downmix && channels > 1,
            frameCount: min(max(declaredFrames, 0), maximumFrames + 1))
        begin(format)

        let blockFrames = 8192
        var interleaved = [Float](repeating: 0, count: blockFrames * channels)
        var downmixer = Downmix(channelCount: channels)
        var frames = 0

        while true {
            let read = try interleaved.withUnsafeMutableBufferPointer {
                try file.readFrames(into: $0.baseAddress!, frames: blockFrames)
            }
            if read == 0 { break }
            guard frames + read <= maximumFrames else {
                throw tooLong(Double(frames + read) / Double(rate), limits: limits, atLeast: true)
            }
            frames += read
            if channels == 1 || !downmix {
                try interleaved.withUnsafeBufferPointer { block in
                    let values = UnsafeBufferPointer(rebasing: block[0..<(read * channels)])
                    try checkFinite(values)
                    try samples(values)
                }
            } else {
                try interleaved.withUnsafeBufferPointer { block in
                    try downmixer(UnsafeBufferPointer(rebasing: block[0..<(read * channels)])) { values in
                        try checkFinite(values)
                        try samples(values)
                    }
                }
            }
        }

        guard frames > 0 else {
            throw AudioPipelineError(.unreadableInput, "the file holds no audio samples")
        }
        // A header that promises more than the file holds means the file was cut short.
        if !file.isMPEG, declaredFrames > 0, frames < declaredFrames {
            throw AudioPipelineError(
                .unreadableInput,
                "truncated: the header declares \(declaredFrames) frames but only \(frames) could be read")
        }
        format.frameCount = frames
        return format
    }

    static func checkFinite(_ values: UnsafeBufferPointer<Float>) throws {
        var finite = true
        for value in values where !value.isFinite { finite = false }
        guard finite else {
            throw AudioPipelineError(.invalidSamples, "the audio contains NaN or infinite samples")
        }
    }

    /// "600.9 s long; at most 600 s (10 minutes) are accepted". The length is rounded up, so
    /// a recording just over the limit never reads as exactly the limit.
    static func tooLong(_ seconds: Double, limits: InputLimits, atLeast: Bool = false) -> AudioPipelineError {
        let limit = limits.maximumDurationSeconds
        let length = String(printf: "%.1f", (seconds * 10).rounded(.up) / 10)
        return AudioPipelineError(
            .unsupportedInput,
            "\(atLeast ? "more than " : "")\(length) s long; at most \(String(printf: "%g", limit)) s (\(String(printf: "%g", limit / 60)) minutes) are accepted")
    }
}
