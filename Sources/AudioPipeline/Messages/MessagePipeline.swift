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

/// The whole job for one recording: decode, resample, condition, denoise, trim, normalize, encode,
/// verify, tag. Each stage is its own type; this one only chains them and keeps the report.
public struct MessagePipeline: Sendable {
    /// Every stage's settings.
    public var configuration: PipelineConfiguration

    /// The text in the `ENCODER` tag and the Opus vendor string.
    public static let encoderName = "voicemsg \(VoicemsgVersion.current)"

    /// A pipeline with `configuration`; the defaults are `voicemsg encode`'s.
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

        // The message is held whole once, at 48 kHz in 16 bits a sample (`CompactSignal`),
        // then conditioned in place while the trimmer measures its frames, and denoised into a
        // new one when it is noisy. Everything after
        // reads the kept span from it piece by piece, or works on per-block summaries of it.
        let rate = OpusStream.sampleRate
        var (signal, source, mean) = try load(input, clock: &clock, refusingLeadingSilence: true)
        var levels = condition(&signal, mean: mean, clock: &clock)
        let denoising = try denoise(&signal, levels: &levels, clock: &clock)
        let trimmer = SpeechTrimmer(configuration: configuration.trimmer)
        let measurement = try trimmer.measure(levels, sampleCount: signal.count, sampleRate: rate)
        let kept = trimmer.keptSpan(of: signal, measurement: measurement)
        clock.lap("trim")

        // The analysis's own BS.1770 loudness (the K-weighted power the gain search needs
        // anyway) is the input's: libebur128 over the same samples agrees to a few thousandths
        // of a LU, and is kept for the decoded output.
        let normalizer = Normalizer(configuration: configuration.normalizer)
        let analysis = normalizer.analyze(kept, sampleRate: rate) { _ in }
        let before = LoudnessMeasurement(
            integratedLoudness: analysis.loudness,
            truePeak: analysis.truePeak, isUngated: kept.count < rate * 4 / 10)
        guard before.integratedLoudness != nil else {
            throw AudioPipelineError(.noSpeech, "the speech span is digital silence")
        }
        clock.lap("measure")

        let encoded = try normalizeAndEncode(
            analysis, sampleRate: rate,
            inputSampleRate: source.sampleRate, metadata: metadata, clock: &clock)

        // The AAC comes from the same analysed signal, after the Opus: its failure (a child
        // killed, a machine out of memory) leaves the Opus message whole, and says why.
        var aac: Result<AACFile, AudioPipelineError>?
        if let settings = configuration.aac {
            do {
                aac = .success(try encodeAAC(
                    analysis, tags: tags(for: metadata, outputLoudness: nil), configuration: settings, clock: &clock))
            } catch let error as AudioPipelineError {
                aac = .failure(error.attributed(to: input.name))
            } catch {
                aac = .failure(AudioPipelineError(.codecFailure, "cannot make the AAC file (\(error))", source: input.name))
            }
        }

        var report = MessageReport(
            input: .init(
                name: input.name, format: source.format, sampleRate: source.sampleRate,
                channels: source.channelCount, durationSeconds: source.durationSeconds),
            denoise: denoising,
            speech: .init(measurement),
            loudnessBefore: before,
            loudnessAfter: encoded.after,
            normalization: encoded.normalization,
            output: encoded.output,
            stageSeconds: clock.seconds)
        if case .success(let file) = aac { report.aac = file.report }
        return ProcessedMessage(stream: encoded.stream, report: report, aac: aac)
    }

    /// Gain, limiter and encoder, checked on the decoded output: lossy coding raises peaks, so
    /// the limiter's ceiling starts below the output ceiling, and when the decoded true peak
    /// still passes the ceiling (or the loudness misses), the pass is redone with the measured
    /// error taken off. The gained signal is rendered frame by frame into the encoder, and the
    /// check decodes packet by packet: neither is ever held whole.
    private func normalizeAndEncode(
        _ analysis: Normalizer.Analysis, sampleRate: Int, inputSampleRate: Int,
        metadata: MessageMetadata, clock: inout StageClock
    ) throws -> (stream: OpusStream, after: LoudnessMeasurement, normalization: Normalizer.Measurement, output: MessageReport.Output) {
        let settings = configuration.normalizer
        let normalizer = Normalizer(configuration: settings)
        let encoder = OpusEncoder(configuration: configuration.encoder)

        let limiterCeiling = settings.truePeakCeiling - Self.peakMargin - Self.expectedCodecOvershoot
        var pcmTarget = settings.targetLoudness - Self.expectedCodecLoudnessShift
        var dips: GainCurve?
        var changedSpan: Range<Int>?
        var previous: OpusEncoder.PiecewiseStream?
        var pass = 0
        while true {
            pass += 1
            var normalized = normalizer.apply(analysis, target: pcmTarget, limiterCeiling: limiterCeiling)
            if let dips { normalized.output.curve = normalized.output.curve.map { $0 * dips } ?? dips }
            clock.lap("normalize")

            // When only the dips changed, only the pieces under them are encoded again.
            let encoded: OpusEncoder.PiecewiseStream
            if let previous, let changedSpan {
                encoded = try encoder.reencode(previous, from: normalized.output, pieces: previous.pieces(covering: changedSpan))
            } else {
                encoded = try encoder.encodeInPieces(
                    normalized.output, inputSampleRate: inputSampleRate, tags: OpusTags(vendor: Self.encoderName))
            }
            // The curve (a value per `GainCurve` block of the whole message) is not needed past the
            // encoder: released, so that the check below runs without it.
            normalized.output.curve = nil
            previous = encoded
            var stream = encoded.stream
            clock.lap("encode")

            let count = Int(stream.validSampleCount)
            let decoded = try Self.measureDecoded(count: count, peakSamples: count, settings: settings) { each in
                try OpusStreamDecoder.decode(stream, samples: each)
            }
            let decodedPeaks = decoded.excesses
            let after = decoded.loudness
            clock.lap("verify")

            let decodedPeak = after.truePeak ?? -.infinity
            let decodedLoudness = after.integratedLoudness ?? -.infinity
            let (peakOK, loudnessOK) = Self.judge(
                after, settings: settings, tolerance: settings.tolerance, isGainCapped: normalized.isGainCapped)
            if (peakOK && loudnessOK) || pass == Self.maximumPasses {
                stream.tags = tags(for: metadata, outputLoudness: after.integratedLoudness)
                let normalization = Normalizer.Measurement(
                    gainDB: normalized.gainDB, isGainCapped: normalized.isGainCapped,
                    limiterCeilingDB: limiterCeiling,
                    limiterMaximumReductionDB: normalized.limiter.maximumReductionDB,
                    encodePasses: pass, truePeakCeilingDB: settings.truePeakCeiling,
                    isTruePeakAboveCeiling: decodedPeak > settings.truePeakCeiling)
                let output = MessageReport.Output(
                    durationSeconds: stream.durationSeconds, sampleCount: stream.validSampleCount,
                    preSkip: stream.preSkip, packets: stream.packets.count)
                return (stream, after, normalization, output)
            }
            // The codec's own effect, now measured on this message, is taken off the next pass.
            // Its loudness change moves the target. Its peak lift is local and erratic under
            // heavy limiting (lowering the whole ceiling can make it worse), so the gain dips
            // briefly, and only where the decoded output passed the ceiling.
            changedSpan = nil
            if let pcmLoudness = normalized.loudness, decodedLoudness.isFinite, !loudnessOK {
                pcmTarget = settings.targetLoudness + (pcmLoudness - decodedLoudness)
            }
            if !peakOK {
                let limit = Float(pow(10, (settings.truePeakCeiling - Self.peakMargin) / 20))
                let lowered = Self.dips(over: limit, in: decodedPeaks, previous: dips, sampleCount: count, sampleRate: sampleRate)
                if loudnessOK { changedSpan = Self.changedSamples(from: dips, to: lowered) }
                dips = lowered
            }
        }
    }

    /// Lowers `previous` (1 by default) around every block whose decoded peak passed `limit`,
    /// by the ratio it passed it, with 10 ms raised-cosine ramps either side. `peaks` holds
    /// (block, peak) pairs in block order; the others are taken to be under the limit.
    static func dips(over limit: Float, in peaks: [(block: Int, peak: Float)], previous: GainCurve?, sampleCount: Int, sampleRate: Int) -> GainCurve {
        var curve = previous ?? GainCurve(repeating: 1, sampleCount: sampleCount)
        let ramp = max(1, sampleRate / 100 / GainCurve.blockSize)
        let original = curve.values
        for (k, peak) in peaks where peak > limit {
            // A spot that passed again despite its dip (a transient the codec overshoots
            // whatever the level) gets the new shortfall on top of the old dip, and more.
            let depth = original[k] < 1 ? original[k] * limit / peak * 0.95 : limit / peak * 0.985
            for offset in -ramp...ramp {
                let i = k + offset
                guard i >= 0, i < curve.values.count else { continue }
                let shape = Float(0.5 + 0.5 * cos(Double.pi * Double(offset) / Double(ramp + 1)))
                curve.values[i] = min(curve.values[i], 1 - (1 - depth) * shape)
            }
        }
        return curve
    }

    /// The samples where two dip curves differ (nil meaning no dips at all).
    static func changedSamples(from old: GainCurve?, to new: GainCurve) -> Range<Int>? {
        let blocks = new.values.indices.filter { new.values[$0] != (old?.values[$0] ?? 1) }
        guard let first = blocks.first, let last = blocks.last else { return nil }
        // A block's value reaches the samples of its neighbours (see `GainCurve`).
        let size = GainCurve.blockSize
        return max(0, (first - 1) * size)..<min(new.sampleCount, (last + 2) * size)
    }

    /// How far Opus at speech bitrates typically lifts the true peaks of limited speech, in dB,
    /// and how much loudness it takes away (it drops the band above 12 kHz that K-weighting
    /// favours), in LU, at 24 kb/s. The first pass aims accordingly, so that it usually needs
    /// no second one. Every 0.1 dB aimed lower is more limiting, and too little overshoots
    /// (docs/benchmarks.md, "Defaults chosen on the bench").
    static let expectedCodecOvershoot = 1.0
    static let expectedCodecLoudnessShift = -0.4
    static let maximumPasses = 4
    /// How far under the ceiling the decoded true peak must stay, in dB: other meters'
    /// oversampling filters read up to about a tenth of a dB differently.
    static let peakMargin = 0.1

    /// The tags docs/cli.md lists. `R128_TRACK_GAIN` is the gain, in Q7.8 dB, that brings the
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

extension MessagePipeline {
    /// What a decoding of the encoded message measures, as each encoding loop checks it: its
    /// loudness and the true peak of the decoded samples, and the blocks whose peak passes the
    /// ceiling less the margin, which is all the gain's dips need.
    struct DecodedMeasurement {
        var loudness: LoudnessMeasurement
        var excesses: [(block: Int, peak: Float)]
    }

    /// Measures the `count` samples `decode` hands over (to `each`, block by block), with peaks
    /// kept over `peakSamples` (more than `count` where a player may play the padding too).
    static func measureDecoded(
        count: Int, peakSamples: Int, settings: Normalizer.Configuration,
        decode: (_ each: (UnsafeBufferPointer<Float>) throws -> Void) throws -> Void
    ) throws -> DecodedMeasurement {
        let meter = try LoudnessMeter.Session(sampleRate: OpusStream.sampleRate, expectedFrames: count, truePeak: false)
        var collector = BlockPeakCollector(
            sampleCount: peakSamples, exactAbove: Float(pow(10, (settings.truePeakCeiling - peakMargin) / 20)),
            keepingOnlyExcesses: true)
        try decode { block in
            try meter.add(block)
            collector.append(block)
        }
        collector.finish()
        let peak = collector.highest
        return DecodedMeasurement(
            loudness: LoudnessMeasurement(
                integratedLoudness: try meter.result().integratedLoudness,
                truePeak: peak > 0 ? 20 * log10(Double(peak)) : nil,
                isUngated: count < OpusStream.sampleRate * 4 / 10),
            excesses: collector.excesses)
    }

    /// Whether the decoded message keeps under the ceiling less the margin, and lands within
    /// `tolerance` of the target (or the gain was capped, so it cannot get louder).
    static func judge(
        _ decoded: LoudnessMeasurement, settings: Normalizer.Configuration, tolerance: Double, isGainCapped: Bool
    ) -> (peakOK: Bool, loudnessOK: Bool) {
        let peakOK = (decoded.truePeak ?? -.infinity) <= settings.truePeakCeiling - peakMargin
        let loudnessOK = abs((decoded.integratedLoudness ?? -.infinity) - settings.targetLoudness) <= tolerance || isGainCapped
        return (peakOK, loudnessOK)
    }
}
