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

        let normalizer = Normalizer(configuration: configuration.normalizer)
        let analysis = normalizer.analyze(trimmed.samples, sampleRate: rate)
        let before = LoudnessMeasurement(
            integratedLoudness: try LoudnessMeter.measure(trimmed.samples, sampleRate: rate, truePeak: false).integratedLoudness,
            truePeak: analysis.truePeak, isUngated: trimmed.samples.count < rate * 4 / 10)
        guard before.integratedLoudness != nil else {
            throw AudioPipelineError(.noSpeech, "the speech span is digital silence")
        }
        clock.lap("measure")

        let encoded = try normalizeAndEncode(
            analysis, sampleRate: rate,
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
        _ analysis: Normalizer.Analysis, sampleRate: Int, inputSampleRate: Int,
        metadata: MessageMetadata, clock: inout StageClock
    ) throws -> (stream: OpusStream, after: LoudnessMeasurement, normalization: Normalizer.Measurement, output: MessageReport.Output) {
        let settings = configuration.normalizer
        let normalizer = Normalizer(configuration: settings)
        let encoder = OpusEncoder(configuration: configuration.encoder)

        var limiterCeiling = settings.truePeakCeiling - Self.peakMargin - Self.expectedCodecOvershoot
        var pcmTarget = settings.targetLoudness - Self.expectedCodecLoudnessShift
        var dips: [Float]?
        var pass = 0
        while true {
            pass += 1
            var normalized = normalizer.apply(analysis, target: pcmTarget, limiterCeiling: limiterCeiling)
            if let dips {
                for i in normalized.samples.indices { normalized.samples[i] *= dips[i] }
            }
            clock.lap("normalize")

            var stream = try encoder.encode(normalized.samples, inputSampleRate: inputSampleRate, tags: OpusTags(vendor: Self.encoderName))
            clock.lap("encode")

            let decoded = try OpusStreamDecoder.decode(stream)
            let decodedPeaks = InterSamplePeakEstimator().intervalPeaks(of: decoded)
            let peak = decodedPeaks.max() ?? 0
            let after = LoudnessMeasurement(
                integratedLoudness: try LoudnessMeter.measure(decoded, sampleRate: OpusStream.sampleRate, truePeak: false).integratedLoudness,
                truePeak: peak > 0 ? 20 * log10(Double(peak)) : nil,
                isUngated: decoded.count < OpusStream.sampleRate * 4 / 10)
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
            // The codec's own effect, now measured on this message, is taken off the next pass.
            // Its loudness change moves the target. Its peak lift is local and erratic under
            // heavy limiting (lowering the whole ceiling can make it worse), so the gain dips
            // briefly, and only where the decoded output passed the ceiling.
            if let pcmLoudness = normalized.loudness, decodedLoudness.isFinite, !loudnessOK {
                pcmTarget = settings.targetLoudness + (pcmLoudness - decodedLoudness)
            }
            if !peakOK {
                let limit = Float(pow(10, (settings.truePeakCeiling - Self.peakMargin) / 20))
                dips = Self.dips(over: limit, in: decodedPeaks, previous: dips, sampleRate: sampleRate)
            }
        }
    }

    /// Lowers `previous` (1 by default) around every interval whose decoded peak passed `limit`,
    /// by the ratio it passed it, with 10 ms raised-cosine ramps either side.
    static func dips(over limit: Float, in peaks: [Float], previous: [Float]?, sampleRate: Int) -> [Float] {
        var curve = previous ?? [Float](repeating: 1, count: peaks.count)
        let ramp = sampleRate / 100
        let original = curve
        for n in peaks.indices where peaks[n] > limit {
            // A spot that passed again despite its dip (a transient the codec overshoots
            // whatever the level) gets the new shortfall on top of the old dip, and more.
            let depth = original[n] < 1 ? original[n] * limit / peaks[n] * 0.95 : limit / peaks[n] * 0.985
            for offset in -ramp...ramp {
                let i = n + offset
                guard i >= 0, i < curve.count else { continue }
                let shape = Float(0.5 + 0.5 * cos(Double.pi * Double(offset) / Double(ramp + 1)))
                curve[i] = min(curve[i], 1 - (1 - depth) * shape)
            }
        }
        return curve
    }

    /// How far Opus at speech bitrates typically lifts the true peaks of limited speech, in dB,
    /// and how much loudness it takes away (it drops the band above 12 kHz that K-weighting
    /// favours), in LU; measured on espeak-ng and sample messages at 24 kb/s. The first pass
    /// aims accordingly, so that it usually needs no second one.
    static let expectedCodecOvershoot = 1.2
    static let expectedCodecLoudnessShift = -0.4
    static let maximumPasses = 4
    /// How far under the ceiling the decoded true peak must stay, in dB: other meters'
    /// oversampling filters read up to about a tenth of a dB differently.
    static let peakMargin = 0.1

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
