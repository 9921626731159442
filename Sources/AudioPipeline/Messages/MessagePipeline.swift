import Foundation

/// The whole job for one recording: decode, resample, condition, trim, normalize, encode,
/// verify, tag. Each stage is its own type; this one only chains them and keeps the report.
public struct MessagePipeline: Sendable {
    public var configuration: PipelineConfiguration

    /// The text in the `ENCODER` tag and the Opus vendor string.
    public static let encoderName = "voicemsg 0.1.0"

    public init(configuration: PipelineConfiguration = .init()) {
        self.configuration = configuration
    }

    /// Processes one recording. Errors are `AudioPipelineError`s naming the input.
    public func process(_ input: AudioInput, metadata: MessageMetadata) throws -> ProcessedMessage {
        do {
            return try run(input, metadata: metadata)
        } catch let error as AudioPipelineError {
            throw error.attributed(to: input.name)
        }
    }

    private func run(_ input: AudioInput, metadata: MessageMetadata) throws -> ProcessedMessage {
        var clock = StageClock()

        let decoded: DecodedAudio
        switch input {
        case .file(let path): decoded = try AudioDecoder.decode(path: path, limits: configuration.limits)
        case .data(let data, let name): decoded = try AudioDecoder.decode(data: data, name: name, limits: configuration.limits)
        }
        clock.lap("decode")

        let rate = configuration.resampler.outputRate
        var samples = try Resampler(configuration: configuration.resampler).resample(decoded.samples, from: decoded.sampleRate)
        clock.lap("resample")

        Conditioner(configuration: configuration.conditioner).process(&samples, sampleRate: rate)
        clock.lap("condition")

        let trimmed = try SpeechTrimmer(configuration: configuration.trimmer).trim(samples, sampleRate: rate)
        samples = []
        clock.lap("trim")

        let before = try LoudnessMeter.measure(trimmed.samples, sampleRate: rate)
        guard let inputLoudness = before.integratedLoudness else {
            throw AudioPipelineError(.noSpeech, "the speech span is digital silence")
        }
        clock.lap("measure")

        let encoded = try normalizeAndEncode(
            trimmed.samples, loudness: inputLoudness, sampleRate: rate,
            inputSampleRate: decoded.sampleRate, metadata: metadata, clock: &clock)

        let measurement = trimmed.measurement
        let report = MessageReport(
            input: .init(
                name: input.name, format: decoded.format, sampleRate: decoded.sampleRate,
                channels: decoded.channelCount, durationSeconds: decoded.durationSeconds),
            speech: .init(
                startSeconds: measurement.speechStartSeconds,
                endSeconds: measurement.speechEndSeconds,
                keptStartSeconds: measurement.keptStartSeconds,
                keptEndSeconds: measurement.keptEndSeconds),
            loudnessBefore: before,
            loudnessAfter: encoded.after,
            normalization: encoded.normalization,
            output: encoded.output,
            stageSeconds: clock.seconds)
        return ProcessedMessage(stream: encoded.stream, report: report)
    }

    /// Gain, limiter and encoder, checked on the decoded output: lossy coding raises peaks, so
    /// the limiter's ceiling starts below the output ceiling, and when the decoded true peak
    /// still passes the ceiling (or the loudness misses), the pass is redone with the measured
    /// error taken off.
    private func normalizeAndEncode(
        _ speech: [Float], loudness: Double, sampleRate: Int, inputSampleRate: Int,
        metadata: MessageMetadata, clock: inout StageClock
    ) throws -> (stream: OpusStream, after: LoudnessMeasurement, normalization: Normalizer.Measurement, output: MessageReport.Output) {
        let settings = configuration.normalizer
        let normalizer = Normalizer(configuration: settings)
        let encoder = OpusEncoder(configuration: configuration.encoder)

        var limiterCeiling = settings.truePeakCeiling - Self.expectedCodecOvershoot
        var pcmTarget = settings.targetLoudness
        var pass = 0
        while true {
            pass += 1
            let normalized = try normalizer.apply(
                to: speech, loudness: loudness, target: pcmTarget,
                limiterCeiling: limiterCeiling, sampleRate: sampleRate)
            clock.lap("normalize")

            var stream = try encoder.encode(normalized.samples, inputSampleRate: inputSampleRate, tags: OpusTags(vendor: Self.encoderName))
            clock.lap("encode")

            let decoded = try OpusStreamDecoder.decode(stream)
            let after = try LoudnessMeter.measure(decoded, sampleRate: OpusStream.sampleRate)
            clock.lap("verify")

            let decodedPeak = after.truePeak ?? -.infinity
            let decodedLoudness = after.integratedLoudness ?? -.infinity
            let peakOK = decodedPeak <= settings.truePeakCeiling - Self.peakMargin
            let loudnessOK = abs(decodedLoudness - settings.targetLoudness) <= settings.tolerance || normalized.isGainCapped
            if (peakOK && loudnessOK) || pass == Self.maximumPasses {
                stream.tags = tags(for: metadata, outputLoudness: after.integratedLoudness)
                let bytes = try OggOpusWriter.write(stream).count
                let normalization = Normalizer.Measurement(
                    gainDB: normalized.gainDB, isGainCapped: normalized.isGainCapped,
                    limiterCeilingDB: limiterCeiling,
                    limiterMaximumReductionDB: normalized.limiter.maximumReductionDB,
                    encodePasses: pass)
                let output = MessageReport.Output(
                    container: "ogg", bytes: bytes,
                    bitrate: Double(bytes * 8) / max(stream.durationSeconds, 1e-9),
                    durationSeconds: stream.durationSeconds, sampleCount: stream.validSampleCount,
                    preSkip: stream.preSkip, packets: stream.packets.count)
                return (stream, after, normalization, output)
            }
            // The codec's own effect, now measured on this message, is taken off the next pass:
            // how far it lifted the peaks above the limiter's ceiling, and how much it moved
            // the loudness.
            if !peakOK, decodedPeak.isFinite {
                let overshoot = decodedPeak - limiterCeiling
                limiterCeiling = min(limiterCeiling - 0.05, settings.truePeakCeiling - Self.peakMargin - overshoot - 0.1)
            }
            if let pcmLoudness = normalized.loudness, decodedLoudness.isFinite {
                pcmTarget = settings.targetLoudness + (pcmLoudness - decodedLoudness)
            }
        }
    }

    /// How far Opus at speech bitrates typically lifts true peaks, in dB; the first pass aims
    /// this far below the ceiling so that it usually needs no second pass.
    static let expectedCodecOvershoot = 0.7
    static let maximumPasses = 4
    /// How far under the ceiling the decoded true peak must stay, in dB: other meters'
    /// oversampling filters read a few hundredths of a dB differently.
    static let peakMargin = 0.05

    /// The tags from DESIGN.md. `R128_TRACK_GAIN` is the gain, in Q7.8 dB, that brings the
    /// output to the EBU R128 reference of -23 LUFS (RFC 7845 §5.2.1).
    func tags(for metadata: MessageMetadata, outputLoudness: Double?) -> OpusTags {
        var tags = OpusTags(vendor: Self.encoderName)
        tags.append("DISTANCE_MARKER", metadata.marker.canonical)
        tags.append("SENDER", metadata.sender)
        tags.append("ARTIST", metadata.sender)
        tags.append("TITLE", metadata.title)
        tags.append("RUN_ID", metadata.runID)
        tags.append("MESSAGE_ID", metadata.messageID)
        if let outputLoudness {
            let q78 = ((-23 - outputLoudness) * 256).rounded()
            tags.append("R128_TRACK_GAIN", String(Int(max(-32768, min(32767, q78)))))
        }
        tags.append("ENCODER", Self.encoderName)
        return tags
    }
}

/// Wall-clock time per stage; a stage measured twice (another encode pass) adds up.
struct StageClock {
    private(set) var seconds: [String: Double] = [:]
    private var last = DispatchTime.now().uptimeNanoseconds

    mutating func lap(_ stage: String) {
        let now = DispatchTime.now().uptimeNanoseconds
        seconds[stage, default: 0] += Double(now - last) / 1e9
        last = now
    }
}
