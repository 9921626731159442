import AudioPipeline
import Foundation

/// What `inspect` says about one file. The JSON keys are a contract for scripts:
/// `durationSeconds`, `sampleRate`, `channels`, `integratedLoudness`, `truePeak`, `tags`.
struct FileReport: Encodable {
    struct OpusHeader: Encodable {
        var channels: Int
        var preSkip: Int
        var inputSampleRate: Int
        /// Q7.8 dB, as stored.
        var outputGain: Int
        var outputGainDB: Double
        var vendor: String
        var packets: Int
    }

    struct SpeechSpan: Encodable {
        var startSeconds: Double
        var endSeconds: Double
        var keptStartSeconds: Double
        var keptEndSeconds: Double
    }

    var file: String
    var format: String
    /// The container and the codec, named apart, for what FFmpeg decodes (WebM, M4A, AMR, ...).
    var container: String?
    var codec: String?
    var bytes: Int
    var durationSeconds: Double
    var sampleCount: Int64
    var sampleRate: Int
    var channels: Int
    var bitrate: Double?
    var integratedLoudness: Double?
    var truePeak: Double?
    var tags: [String: String]
    var opus: OpusHeader?
    var speech: SpeechSpan?
    var speechError: String?

    static func inspect(path: String) throws -> FileReport {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw AudioPipelineError(.io, "no such file", source: path)
        }
        guard !isDirectory.boolValue else {
            throw AudioPipelineError(.io, "is a directory, not an audio file", source: path)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AudioPipelineError(.io, "cannot be read", source: path)
        }
        let bytes = [UInt8](data)
        if let container = OpusContainer.detect(bytes) {
            return try inspectOpus(path: path, bytes: bytes, container: container)
        }
        return try inspectAudio(path: path, data: data)
    }

    private static func inspectOpus(path: String, bytes: [UInt8], container: OpusContainer) throws -> FileReport {
        let stream = try container.read(bytes)
        let interleaved = try OpusStreamDecoder.decodeInterleaved(stream)
        let loudness = try LoudnessMeter.measure(interleaved, channelCount: stream.channelCount, sampleRate: OpusStream.sampleRate)
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
            speech: nil, speechError: nil)
    }

    private static func inspectAudio(path: String, data: Data) throws -> FileReport {
        let audio = try AudioDecoder.decode(data: data, name: path, downmix: false)
        let loudness = try LoudnessMeter.measure(audio.samples, channelCount: audio.isInterleaved ? audio.channelCount : 1, sampleRate: audio.sampleRate)

        // The span `encode` would keep, found the same way `encode` finds it.
        var speech: SpeechSpan?
        var speechError: String?
        do {
            let configuration = PipelineConfiguration()
            let mono = audio.isInterleaved ? Self.downmix(audio.samples, channels: audio.channelCount) : audio.samples
            var samples = try Resampler(configuration: configuration.resampler).resample(mono, from: audio.sampleRate)
            Conditioner(configuration: configuration.conditioner).process(&samples, sampleRate: configuration.resampler.outputRate)
            let span = try SpeechTrimmer(configuration: configuration.trimmer).measure(samples, sampleRate: configuration.resampler.outputRate)
            speech = SpeechSpan(
                startSeconds: span.speechStartSeconds, endSeconds: span.speechEndSeconds,
                keptStartSeconds: span.keptStartSeconds, keptEndSeconds: span.keptEndSeconds)
        } catch let error as AudioPipelineError {
            speechError = error.message
        }
        return FileReport(
            file: path, format: audio.format, container: audio.container, codec: audio.codec, bytes: data.count,
            durationSeconds: audio.durationSeconds, sampleCount: Int64(audio.frameCount),
            sampleRate: audio.sampleRate, channels: audio.channelCount, bitrate: nil,
            integratedLoudness: loudness.integratedLoudness, truePeak: loudness.truePeak,
            tags: [:], opus: nil, speech: speech, speechError: speechError)
    }

    private static func downmix(_ samples: [Float], channels: Int) -> [Float] {
        var mono = [Float](repeating: 0, count: samples.count / channels)
        for frame in mono.indices {
            var sum: Float = 0
            for channel in 0..<channels { sum += samples[frame * channels + channel] }
            mono[frame] = sum / Float(channels)
        }
        return mono
    }

    /// The human-readable form.
    var text: String {
        func level(_ value: Double?, _ unit: String) -> String {
            value.map { String(format: "%.2f %@", $0, unit) } ?? "silent"
        }
        var lines = ["\(file)", "  format:     \(format), \(bytes) bytes"]
        if let container, let codec { lines.append("  container:  \(container), codec \(codec)") }
        lines.append(String(format: "  duration:   %.6f s (%lld samples at %d Hz), %d channel%@",
                            durationSeconds, sampleCount, sampleRate, channels, channels == 1 ? "" : "s"))
        if let bitrate { lines.append(String(format: "  bitrate:    %.1f kb/s", bitrate / 1000)) }
        lines.append("  loudness:   \(level(integratedLoudness, "LUFS")), true peak \(level(truePeak, "dBTP"))")
        if let opus {
            lines.append("  opus:       pre-skip \(opus.preSkip), input rate \(opus.inputSampleRate) Hz, output gain \(String(format: "%.2f", opus.outputGainDB)) dB, \(opus.packets) packets")
            lines.append("  vendor:     \(opus.vendor)")
        }
        for key in tags.keys.sorted() { lines.append("  tag:        \(key)=\(tags[key]!)") }
        if let speech {
            lines.append(String(format: "  speech:     %.3f-%.3f s, kept %.3f-%.3f s",
                                speech.startSeconds, speech.endSeconds, speech.keptStartSeconds, speech.keptEndSeconds))
        } else if let speechError {
            lines.append("  speech:     \(speechError)")
        }
        return lines.joined(separator: "\n")
    }
}
