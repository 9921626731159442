import AudioPipeline
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `inspect` says about one file. The JSON keys are a contract for scripts:
/// `durationSeconds`, `sampleRate`, `channels`, `integratedLoudness`, `truePeak`, `tags`.
struct FileReport: Encodable {
    /// The identification header of an Opus file (RFC 7845 §5.1).
    struct OpusHeader: Encodable {
        var channels: Int
        /// Samples at 48 kHz the decoder drops at the start.
        var preSkip: Int
        /// The rate of the recording before encoding; informational only.
        var inputSampleRate: Int
        /// Q7.8 dB, as stored.
        var outputGain: Int
        var outputGainDB: Double
        var vendor: String
        var packets: Int
    }

    var file: String
    /// "Ogg Opus", "Opus in CAF", or libsndfile's name for the format and encoding.
    var format: String
    /// The container and the codec, named apart, for what FFmpeg decodes (WebM, M4A, AMR, ...).
    var container: String?
    var codec: String?
    /// The file's size.
    var bytes: Int
    /// The exact length: `sampleCount` samples at `sampleRate`.
    var durationSeconds: Double
    var sampleCount: Int64
    var sampleRate: Int
    var channels: Int
    /// Bits per second of the whole file, container included; Opus files only.
    var bitrate: Double?
    /// LUFS, BS.1770-4, all channels; JSON null when nothing passes BS.1770's -70 LUFS gate
    /// (digital silence, or speech at -60 dBFS).
    @JSONNullable var integratedLoudness: Double?
    /// dBTP, 4x oversampled; JSON null for digital silence.
    @JSONNullable var truePeak: Double?
    var tags: [String: String]
    var opus: OpusHeader?
    /// The span `encode` would keep, for a recording; or why there is none.
    var speech: MessageReport.Speech?
    var speechError: String?
    /// What the Denoiser would do before the trimmer looks, for a recording.
    var denoise: Denoiser.Measurement?

    /// Measures the file at `path`: an Opus message by decoding its packets, any other
    /// recording through the pipeline's own decode, resample, condition, denoise and trim, streamed as
    /// `encode` streams it, so the speech span is the one `encode` keeps.
    static func inspect(path: String) throws -> FileReport {
        let size = try FileStatus.recording(at: path)
        guard let head = FilePrefix.bytes(atPath: path, count: OpusContainer.headLength) else {
            throw AudioPipelineError(.io, "cannot be read", source: path)
        }
        if let container = OpusContainer(detecting: head) {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw AudioPipelineError(.io, "cannot be read", source: path)
            }
            return try inspectOpus(path: path, bytes: [UInt8](data), container: container)
        }
        return try inspectAudio(path: path, bytes: size)
    }

    private static func inspectOpus(path: String, bytes: [UInt8], container: OpusContainer) throws -> FileReport {
        let stream = try container.read(bytes)
        let meter = try LoudnessMeter.Session(
            channelCount: stream.channelCount, sampleRate: OpusStream.sampleRate, expectedFrames: Int(stream.validSampleCount))
        try OpusStreamDecoder.decodeInterleaved(stream) { try meter.add($0) }
        let loudness = try meter.result()
        let duration = stream.durationSeconds
        return FileReport(
            file: path, format: container.description, container: nil, codec: nil, bytes: bytes.count,
            durationSeconds: duration, sampleCount: stream.validSampleCount,
            sampleRate: OpusStream.sampleRate, channels: stream.channelCount,
            bitrate: duration > 0 ? Double(bytes.count * 8) / duration : nil,
            integratedLoudness: loudness.integratedLoudness, truePeak: loudness.truePeak,
            tags: stream.tags.dictionary,
            opus: OpusHeader(
                channels: stream.channelCount, preSkip: stream.preSkip,
                inputSampleRate: stream.inputSampleRate, outputGain: Int(stream.outputGain),
                outputGainDB: Double(stream.outputGain) / 256, vendor: stream.tags.vendor,
                packets: stream.packets.count),
            speech: nil, speechError: nil, denoise: nil)
    }

    private static func inspectAudio(path: String, bytes size: Int) throws -> FileReport {
        // The source's loudness, all channels, measured from the blocks the pipeline decodes.
        var declared: SourceFormat?
        var meter: LoudnessMeter.Session?
        let scan = try MessagePipeline().scanSpeech(.file(path: path), begin: { declared = $0 }) { block in
            if meter == nil, let format = declared {
                meter = try LoudnessMeter.Session(
                    channelCount: format.channelCount, sampleRate: format.sampleRate, expectedFrames: format.frameCount)
            }
            try meter?.add(block)
        }
        let loudness = try meter?.result()
        let source = scan.source
        var speech: MessageReport.Speech?
        var speechError: String?
        switch scan.speech {
        case .success(let span):
            speech = MessageReport.Speech(span)
        case .failure(let error):
            speechError = error.message
        }
        return FileReport(
            file: path, format: source.format, container: source.container, codec: source.codec, bytes: size,
            durationSeconds: source.durationSeconds, sampleCount: Int64(source.frameCount),
            sampleRate: source.sampleRate, channels: source.channelCount, bitrate: nil,
            integratedLoudness: loudness?.integratedLoudness, truePeak: loudness?.truePeak,
            tags: [:], opus: nil, speech: speech, speechError: speechError, denoise: scan.denoise)
    }

    /// The human-readable form.
    var text: String {
        // Speech at -60 dBFS has a peak but no loudness: nothing passes BS.1770's gate.
        func level(_ value: Double?, _ unit: String) -> String {
            value.map { "\(String(printf: "%.2f", $0)) \(unit)" } ?? (truePeak == nil ? "silent" : "below the -70 LUFS gate")
        }
        var lines = ["\(file)", "  format:     \(format), \(bytes) bytes"]
        if let container, let codec { lines.append("  container:  \(container), codec \(codec)") }
        lines.append(String(printf: "  duration:   %.6f s (%lld samples at %d Hz), %d channel",
                            durationSeconds, sampleCount, sampleRate, channels) + (channels == 1 ? "" : "s"))
        if let bitrate { lines.append(String(printf: "  bitrate:    %.1f kb/s", bitrate / 1000)) }
        lines.append("  loudness:   \(level(integratedLoudness, "LUFS")), true peak \(level(truePeak, "dBTP"))")
        if let opus {
            lines.append("  opus:       pre-skip \(opus.preSkip), input rate \(opus.inputSampleRate) Hz, output gain \(String(printf: "%.2f", opus.outputGainDB)) dB, \(opus.packets) packets")
            lines.append("  vendor:     \(PrintableText.escaped(opus.vendor))")
        }
        // Tags come from the file, so they are escaped: a raw ESC would recolour the terminal.
        for key in tags.keys.sorted() {
            lines.append("  tag:        \(PrintableText.escaped(key))=\(PrintableText.escaped(tags[key]!))")
        }
        if let speech {
            lines.append(String(printf: "  speech:     %.3f-%.3f s, kept %.3f-%.3f s",
                                speech.startSeconds, speech.endSeconds, speech.keptStartSeconds, speech.keptEndSeconds))
        } else if let speechError {
            lines.append("  speech:     \(speechError)")
        }
        if let denoise { lines.append("  denoise:    \(denoise.summary)") }
        return lines.joined(separator: "\n")
    }
}
