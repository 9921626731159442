/// Finds where speech starts and ends in a voice message and cuts the dead air around it.
///
/// The input is mono audio that the Conditioner has already freed of DC and rumble. The trimmer
/// measures the energy of 10 ms frames in two bands (voice, 200-4000 Hz, and fricatives,
/// 4-10 kHz), estimates each band's noise floor and how much that noise wavers from the quietest
/// frames, and calls a burst of frames speech when one band rises `enterThreshold` dB above its
/// floor and the burst stays `exitThreshold` dB above it for at least `minimumSpeechDuration`,
/// with at least `minimumVoicedDuration` of voiced sound (so a breath or a rustle is not speech).
/// Speech runs from the start of the first such burst to the end of the last; everything in
/// between, pauses included, is kept. Padding is added on both sides and the cuts get short fades.
///
/// A recording without any such burst (silence, steady noise, a lone click) is an error with code
/// `.noSpeech`: an empty message must never reach a runner.
///
/// Cost: one pass of four biquads and a zero-crossing count per sample, a few operations per
/// frame, and no allocation per sample, so it is a small share of an encode (docs/benchmarks.md,
/// "Cost", counts its instructions with the conditioning's).
public struct SpeechTrimmer: Sendable {
    /// The thresholds, durations and padding.
    public var configuration: Configuration

    /// A trimmer with `configuration`.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Finds the speech span and the span to keep, without copying any audio.
    ///
    /// - Throws: `AudioPipelineError` `.noSpeech` with the levels that decided it, or
    ///   `.unsupportedInput` for a sample rate that is not positive.
    public func measure(_ samples: [Float], sampleRate: Int = OpusStream.sampleRate) throws -> Measurement {
        guard sampleRate > 0 else {
            throw AudioPipelineError(.unsupportedInput, "cannot trim audio at a sample rate of \(sampleRate) Hz")
        }
        var meter = frameLevelMeter(sampleRate: sampleRate)
        samples.withUnsafeBufferPointer { meter.append($0) }
        return try measure(meter.finish(configuration: configuration), sampleCount: samples.count, sampleRate: sampleRate)
    }

    /// The same decision from frame levels measured as the audio streamed past, so that the
    /// caller need not hold the samples as Float.
    func measure(_ levels: FrameLevels, sampleCount count: Int, sampleRate: Int) throws -> Measurement {
        let analysis = analyze(levels, sampleRate: sampleRate)
        guard let frames = analysis.speechFrames else {
            throw AudioPipelineError(.noSpeech, noSpeechReason(analysis))
        }
        let speechStart = min(count, frames.lowerBound * analysis.frameLength)
        let speechEnd = min(count, frames.upperBound * analysis.frameLength)
        let rate = Double(sampleRate)
        return Measurement(
            sampleRate: sampleRate,
            inputSampleCount: count,
            speechStartSample: speechStart,
            speechEndSample: speechEnd,
            keptStartSample: max(0, speechStart - Int((configuration.paddingBefore * rate).rounded())),
            keptEndSample: min(count, speechEnd + Int((configuration.paddingAfter * rate).rounded())),
            noiseFloorLevel: analysis.voiceNoiseFloor.level,
            fricativeNoiseFloorLevel: analysis.fricativeNoiseFloor?.level,
            peakFrameLevel: analysis.voicePeakLevel,
            peakLevelAboveFloor: analysis.peakActivity
        )
    }

    /// Keeps the speech plus padding, with raised-cosine fades where the signal was cut.
    ///
    /// - Throws: the same errors as `measure(_:sampleRate:)`.
    public func trim(_ samples: [Float], sampleRate: Int = OpusStream.sampleRate) throws -> TrimmedAudio {
        let measurement = try measure(samples, sampleRate: sampleRate)
        let kept = keptSpan(of: samples, measurement: measurement)
        var output = [Float](repeating: 0, count: kept.count)
        output.withUnsafeMutableBufferPointer { kept.read(0..<kept.count, into: $0.baseAddress!) }
        return TrimmedAudio(samples: output, measurement: measurement)
    }

    /// The kept part of `source`, as `measurement` found it, faded in and out where it was cut
    /// (raised-cosine ramps of `fadeDuration`, so a cut in the middle of room noise does not
    /// start or end with a step the ear hears as a click). Nothing is copied.
    public func keptSpan<Source: SampleSource>(of source: Source, measurement: Measurement) -> TrimmedSpan<Source> {
        TrimmedSpan(
            source, span: measurement.keptStartSample..<measurement.keptEndSample,
            fadeLength: Int((configuration.fadeDuration * Double(measurement.sampleRate)).rounded()),
            fadesIn: measurement.keptStartSample > 0,
            fadesOut: measurement.keptEndSample < measurement.inputSampleCount)
    }

    private func noSpeechReason(_ analysis: Analysis) -> String {
        let silence = configuration.digitalSilenceLevel
        guard analysis.voicePeakLevel > silence || (analysis.fricativePeakLevel ?? silence) > silence else {
            return "no speech found (the recording is digital silence)"
        }
        func dB(_ value: Double) -> String { String(Int(value.rounded())) }
        func ms(_ seconds: Double) -> String { String(Int((seconds * 1000).rounded())) }
        return "no speech found (noise floor \(dB(analysis.voiceNoiseFloor.level)) dBFS, loudest frame "
            + "\(dB(analysis.voicePeakLevel)) dBFS, at most \(dB(max(0, analysis.peakActivity))) dB above the floor; "
            + "speech must rise \(dB(analysis.voiceNoiseFloor.enterLevel - analysis.voiceNoiseFloor.level)) dB above it for "
            + "\(ms(configuration.minimumSpeechDuration)) ms with a voiced sound, the longest burst lasted "
            + "\(ms(analysis.longestBurstSeconds)) ms)"
    }
}
