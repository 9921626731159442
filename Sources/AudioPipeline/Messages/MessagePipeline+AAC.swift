#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension MessagePipeline {
    /// The AAC version of a message already made: its stored Ogg Opus, decoded, levelled and
    /// encoded again as AAC. For messages made before their AAC was (a server that serves one
    /// asks once, the first time a client wants it); a new message gets its AAC from the same
    /// normalized PCM as its Opus (`configuration.aac`), which this can only approach: this is
    /// lossy from lossy. The tags are the Opus file's, with the AAC's own track gain.
    public func aac(fromOpus stream: OpusStream, configuration aac: AACEncoder.Configuration) throws -> AACFile {
        var signal = CompactSignal(reservingCapacity: Int(stream.validSampleCount))
        try OpusStreamDecoder.decode(stream) { signal.append($0) }
        signal.finish()
        let analysis = Normalizer(configuration: configuration.normalizer).analyze(signal, sampleRate: OpusStream.sampleRate) { _ in }
        guard analysis.loudness != nil else {
            throw AudioPipelineError(.noSpeech, "the message is digital silence", source: "aac")
        }
        var clock = StageClock()
        return try encodeAAC(analysis, tags: stream.tags, configuration: aac, clock: &clock)
    }

    /// Gain, limiter and AAC encoder, checked on FFmpeg's decoding of the file as the Opus is
    /// on libopus's: AAC at speech bitrates lifts peaks more than Opus does, by 1 to 3 dB on
    /// limited speech, so it gets a loop of its own over the same analysed signal, with the
    /// Opus's targets and its own measured effect taken off each next pass. The gain dips only
    /// where the decoded AAC passed the ceiling, as for the Opus. Each pass encodes the whole
    /// message again: FFmpeg's encoder cannot start mid-message with its state.
    func encodeAAC(
        _ analysis: Normalizer.Analysis, tags: OpusTags, configuration aac: AACEncoder.Configuration, clock: inout StageClock
    ) throws -> AACFile {
        let settings = configuration.normalizer
        let normalizer = Normalizer(configuration: settings)
        let encoder = AACEncoder(configuration: aac)
        let rate = OpusStream.sampleRate
        var limiterCeiling = settings.truePeakCeiling - Self.peakMargin - Self.expectedAACOvershoot
        var pcmTarget = settings.targetLoudness - Self.expectedAACLoudnessShift
        var dips: GainCurve?
        var pass = 0
        while true {
            pass += 1
            var normalized = normalizer.apply(analysis, target: pcmTarget, limiterCeiling: limiterCeiling)
            if let dips { normalized.output.curve = normalized.output.curve.map { $0 * dips } ?? dips }
            clock.lap("aac normalize")
            let file = try encoder.encode(normalized.output)
            normalized.output.curve = nil
            clock.lap("aac encode")

            let count = normalized.output.count
            // The padding after the last sample plays too where a player ignores the edit
            // list's end, so its peaks count.
            var decodedCount = 0
            let decoded = try Self.measureDecoded(count: count, peakSamples: count + AACEncoder.frameSize, settings: settings) { each in
                decodedCount = try encoder.decode(file, samples: each)
            }
            let after = decoded.loudness
            clock.lap("aac verify")

            let decodedPeak = after.truePeak ?? -.infinity
            let decodedLoudness = after.integratedLoudness ?? -.infinity
            let (peakOK, loudnessOK) = Self.judge(
                after, settings: settings, tolerance: Self.aacLoudnessTolerance, isGainCapped: normalized.isGainCapped)
            if (peakOK && loudnessOK) || pass == aac.maximumPasses {
                var tagged = tags
                tagged.setTrackGain(outputLoudness: after.integratedLoudness)
                let bytes = try tagged.taggingMP4(file)
                let seconds = Double(count) / Double(rate)
                let report = AACReport(
                    bytes: bytes.count, bitrate: Double(bytes.count * 8) / max(seconds, 1e-9),
                    durationSeconds: seconds, sampleCount: Int64(count), decodedSampleCount: decodedCount,
                    loudness: after,
                    normalization: Normalizer.Measurement(
                        gainDB: normalized.gainDB, isGainCapped: normalized.isGainCapped,
                        limiterCeilingDB: limiterCeiling,
                        limiterMaximumReductionDB: normalized.limiter.maximumReductionDB,
                        encodePasses: pass, truePeakCeilingDB: settings.truePeakCeiling,
                        isTruePeakAboveCeiling: decodedPeak > settings.truePeakCeiling))
                clock.lap("aac verify")
                return AACFile(bytes: bytes, report: report)
            }
            if let pcmLoudness = normalized.loudness, decodedLoudness.isFinite, !loudnessOK {
                pcmTarget = settings.targetLoudness + (pcmLoudness - decodedLoudness)
            }
            // AAC's peaks are erratic: a small change to its input moves the encoder's bits, and
            // the peaks it lifts, elsewhere. So the whole limiter's ceiling comes down by what
            // the decoded peak passed it by, and the gain dips where it passed, as for the Opus.
            if !peakOK {
                let limit = Float(pow(10, (settings.truePeakCeiling - Self.peakMargin) / 20))
                // A peak in the padding is the last block's doing.
                let last = GainCurve.blockCount(count) - 1
                let excesses = decoded.excesses.map { (block: min($0.block, last), peak: $0.peak) }
                dips = Self.dips(over: limit, in: excesses, previous: dips, sampleCount: count, sampleRate: rate)
                limiterCeiling -= decodedPeak - (settings.truePeakCeiling - Self.peakMargin)
            }
        }
    }

    /// How far FFmpeg's AAC encoder at 32 kb/s lifts the true peaks of limited speech, in dB,
    /// and how it moves its loudness, in LU, measured on the sample messages (docs/operations.md,
    /// "The AAC version"): peaks by 1.3 to 2.3 dB, loudness by -0.2 to +0.5 LU. The first pass
    /// aims accordingly; aimed 1.5 dB low, six of the eight samples needed a second pass,
    /// aimed 2 dB low, three.
    static let expectedAACOvershoot = 2.0
    static let expectedAACLoudnessShift = 0.1
    /// How close the decoded AAC's loudness must come to the target, in LU: looser than the
    /// Opus's 0.2, because the encoder's loudness moves by a few tenths from one pass to the
    /// next whatever the gain, and well inside the ±0.5 LU a listener would notice.
    static let aacLoudnessTolerance = 0.3
}

extension OpusTags {
    /// `R128_TRACK_GAIN` for a file that measures `outputLoudness`, in place of any there was:
    /// the Q7.8 dB that bring it to the EBU R128 reference of -23 LUFS (RFC 7845 §5.2.1).
    mutating func setTrackGain(outputLoudness: Double?) {
        entries.removeAll { $0.key == "R128_TRACK_GAIN" }
        guard let outputLoudness else { return }
        let q78 = ((-23 - outputLoudness) * 256).rounded()
        append("R128_TRACK_GAIN", String(Int(max(-32768, min(32767, q78)))))
    }
}
